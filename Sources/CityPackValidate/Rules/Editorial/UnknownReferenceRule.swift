import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialUnknownReference = RuleDescription(
        "editorial.unknown_reference", .editorial, .error,
        "A situation, action or waypoint refers to a card, situation, route or stop that does not exist",
        rationale: "A dangling link is a button that does nothing; it is caught at build time instead.",
        exampleWaiver: "One input file cannot show it: it needs a situation or action file plus the cards it points past; EditorialRulesTests.unknownReference covers it.")
}

/// A situation, action or waypoint that points at a card, situation, route or stop that does not exist is a
/// button that does nothing; the item is left out of the pack. `departures` targets are not judged when a
/// feed's stops could not be read completely.
enum UnknownReferenceRule {
    /// Leaves out situations of unknown cards.
    static func checkSituations(_ situations: inout [Situation], cards: Set<String>, bag: DiagnosticBag) {
        situations.removeAll { s in
            guard !cards.contains(s.card) else { return false }
            bag.report(Rules.editorialUnknownReference, .situationOfUnknownCard(s), at: s.cardLocation, entity: s.id)
            return true
        }
    }

    /// Whether the action's situation exists; reports it when not.
    static func checkSituation(of a: Action, situations: Set<String>, bag: DiagnosticBag) -> Bool {
        guard !situations.contains(a.situation) else { return true }
        bag.report(Rules.editorialUnknownReference, .actionOfUnknownSituation(a), at: a.situationLocation, entity: a.id)
        return false
    }

    /// Whether the route, stop, card or situation an action opens exists; reports it when not.
    static func checkTarget(
        of a: Action, cards: Set<String>, situations: Set<String>, routes: Set<String>, context: EditorialContext,
        bag: DiagnosticBag
    ) -> Bool {
        let what: String
        switch a.kind {
        case .route where !routes.contains(a.target): what = "route"
        case .departures where context.stopsComplete && !context.stopIDs.contains(a.target): what = "stop"
        case .card where !cards.contains(a.target): what = "card"
        case .situation where !situations.contains(a.target): what = "situation"
        default: return true
        }
        bag.report(Rules.editorialUnknownReference, .opensUnknown(a, what), at: a.targetLocation, entity: a.id)
        return false
    }

    /// Waypoints of routes that routes.csv does not define.
    static func checkOrphanWaypoints(_ content: EditorialContent, bag: DiagnosticBag) {
        for w in content.orphanWaypoints {
            bag.report(Rules.editorialUnknownReference, .waypointOfUnknownRoute(w.route), at: w.location, entity: w.route)
        }
    }
}

extension String {
    fileprivate static func situationOfUnknownCard(_ s: Situation) -> String {
        "situation `\(s.id)` belongs to unknown card `\(s.card)`"
    }

    fileprivate static func actionOfUnknownSituation(_ a: Action) -> String {
        "action `\(a.id)` belongs to unknown situation `\(a.situation)`"
    }

    fileprivate static func opensUnknown(_ a: Action, _ what: String) -> String {
        "action `\(a.id)` opens unknown \(what) `\(a.target)`"
    }

    fileprivate static func waypointOfUnknownRoute(_ route: String) -> String {
        "waypoint of unknown route `\(route)` (not in routes.csv)"
    }
}
