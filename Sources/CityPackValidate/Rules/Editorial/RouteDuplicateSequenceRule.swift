import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialRouteDuplicateSequence = RuleDescription(
        "editorial.route_duplicate_sequence", .editorial, .error, "Two waypoints of one route share a sequence number",
        rationale: "The order of the route would depend on file order rather than on the data.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeDuplicateSequence covers it.")
}

/// Two waypoints of one route with the same sequence number would order the route by file order rather than by
/// the data. The route is left out of the pack.
enum RouteDuplicateSequenceRule {
    /// Whether the route's sequence numbers are unique; reports each repeat with a note on the other waypoint.
    static func check(_ route: WalkingRoute, bag: DiagnosticBag) -> Bool {
        var ok = true
        var seen: [Int: SourceLocation] = [:]
        for w in route.waypoints {
            if let previous = seen[w.sequence] {
                bag.report(Rules.editorialRouteDuplicateSequence, .twoWaypoints(route, w.sequence), at: w.location,
                    entity: "\(route.id)#\(w.sequence)", notes: [.init(.otherOne, at: previous)])
                ok = false
            } else {
                seen[w.sequence] = w.location
            }
        }
        return ok
    }
}

extension String {
    fileprivate static func twoWaypoints(_ route: WalkingRoute, _ sequence: Int) -> String {
        "route `\(route.id)` has two waypoints with sequence \(sequence)"
    }

    fileprivate static let otherOne = "the other one is here"
}
