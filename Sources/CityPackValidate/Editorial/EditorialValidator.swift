import CityPackDiagnostics
import CityPackFormat
import CityPackModel

/// What editorial rules consult besides the editorial content.
public struct EditorialContext: Sendable {
    public var city: City
    /// POIs that go into the pack, by stable id.
    public var pois: [Int64: POI]
    /// Categories that have at least one POI in the pack.
    public var categoriesWithPOIs: Set<String>
    /// Categories the profile defines.
    public var knownCategories: Set<String>
    /// GTFS `stop_id`s in the pack (any feed).
    public var stopIDs: Set<String>
    /// False when the OSM sources had reading errors: POI references and `nearby` categories are then not
    /// judged (a POI that could not be read would look missing).
    public var poisComplete = true
    /// False when a GTFS feed's stops could not be read completely: `departures` targets are not judged.
    public var stopsComplete = true

    public init(city: City, pois: [POI], categories: [PackCategory], stopIDs: Set<String> = []) {
        self.city = city
        var byID: [Int64: POI] = [:]
        for poi in pois { byID[poi.ref.stableID] = poi }
        self.pois = byID
        self.categoriesWithPOIs = Set(pois.map(\.category))
        self.knownCategories = Set(categories.map(\.id))
        self.stopIDs = stopIDs
    }
}

/// Checks cards, situations, actions and walking routes, and resolves waypoint positions.
///
/// Cards: duplicate ids, unknown references, items unreachable from the home screen, link cycles, malformed
/// actions and `nearby` categories without POIs. Routes: unknown POIs, fewer than two waypoints, duplicate
/// sequences, waypoints outside the city, implausible legs. Pure; reports to the bag.
public enum EditorialValidator {
    /// Longest plausible straight-line leg between consecutive waypoints of a walking route, in metres.
    public static let maxLeg: Double = 3000
    /// Shortest leg that is not a repeated waypoint, in metres.
    public static let minLeg: Double = 1

    /// Validates and returns what goes into the pack: items with errors are dropped, waypoints carry their
    /// coordinates.
    public static func validate(_ content: EditorialContent, context: EditorialContext, bag: DiagnosticBag) -> EditorialContent {
        var out = EditorialContent()
        out.cards = unique(content.cards, id: \.id, location: \.location, what: "card", bag: bag)
        out.situations = unique(content.situations, id: \.id, location: \.location, what: "situation", bag: bag)
        out.actions = unique(content.actions, id: \.id, location: \.location, what: "action", bag: bag)
        let routes = unique(content.routes, id: \.id, location: \.location, what: "route", bag: bag)

        let cardIDs = Set(out.cards.map(\.id))
        let routeIDs = Set(routes.map(\.id))
        out.situations.removeAll { s in
            guard !cardIDs.contains(s.card) else { return false }
            bag.report(Rules.editorialUnknownReference, "situation `\(s.id)` belongs to unknown card `\(s.card)`",
                at: s.cardLocation, entity: s.id)
            return true
        }
        let situationIDs = Set(out.situations.map(\.id))
        out.actions.removeAll { a in
            if !situationIDs.contains(a.situation) {
                bag.report(Rules.editorialUnknownReference, "action `\(a.id)` belongs to unknown situation `\(a.situation)`",
                    at: a.situationLocation, entity: a.id)
                return true
            }
            return !checkAction(a, cards: cardIDs, situations: situationIDs, routes: routeIDs, context: context, bag: bag)
        }
        reachability(&out, bag: bag)
        cycles(out, bag: bag)

        for w in content.orphanWaypoints {
            bag.report(Rules.editorialUnknownReference, "waypoint of unknown route `\(w.route)` (not in routes.csv)",
                at: w.location, entity: w.route)
        }
        out.routes = routes.compactMap { checkRoute($0, context: context, bag: bag) }
        return out
    }

    /// Keeps the first item of each id and reports the others.
    static func unique<T>(
        _ items: [T], id: KeyPath<T, String>, location: KeyPath<T, SourceLocation>, what: String, bag: DiagnosticBag
    ) -> [T] {
        var first: [String: SourceLocation] = [:]
        var out: [T] = []
        for item in items {
            let key = item[keyPath: id]
            if let previous = first[key] {
                bag.report(Rules.editorialDuplicateID, "\(what) id `\(key)` is already used", at: item[keyPath: location],
                    entity: key, notes: [.init("first defined here", at: previous)])
            } else {
                first[key] = item[keyPath: location]
                out.append(item)
            }
        }
        return out
    }

    /// A phone number: optional `+`, then digits with spaces, dashes, dots or parentheses; 2 to 15 digits (short emergency numbers such as 17 included).
    public static func isPhoneNumber(_ text: String) -> Bool {
        var digits = 0
        for (i, ch) in text.enumerated() {
            if ch.isASCII && ch.isNumber {
                digits += 1
            } else if ch == "+" {
                if i != 0 { return false }
            } else if !" -.()".contains(ch) {
                return false
            }
        }
        return (2...15).contains(digits)
    }

    /// Whether the action is usable; reports why not.
    static func checkAction(
        _ a: Action, cards: Set<String>, situations: Set<String>, routes: Set<String>, context: EditorialContext,
        bag: DiagnosticBag
    ) -> Bool {
        func invalid(_ message: String) -> Bool {
            bag.report(Rules.editorialInvalidAction, "action `\(a.id)`: \(message)", at: a.targetLocation, entity: a.id)
            return false
        }
        func unknown(_ what: String) -> Bool {
            bag.report(Rules.editorialUnknownReference, "action `\(a.id)` opens unknown \(what) `\(a.target)`",
                at: a.targetLocation, entity: a.id)
            return false
        }
        if a.kind == .text {
            if !a.target.isEmpty { return invalid("a `text` action has no target (got `\(a.target)`)") }
            if a.text.isEmpty { return invalid("a `text` action needs its `text`") }
            return true
        }
        if a.target.isEmpty { return invalid("a `\(a.kind.rawValue)` action needs a `target`") }
        switch a.kind {
        case .nearby:
            if !context.knownCategories.contains(a.target) {
                return invalid("`\(a.target)` is not a category of the profile")
            }
            if context.poisComplete && !context.categoriesWithPOIs.contains(a.target) {
                bag.report(Rules.editorialCategoryWithoutPOI,
                    "action `\(a.id)` shows nearby `\(a.target)`, but the city has no POI of that category",
                    at: a.targetLocation, entity: a.id)
            }
        case .call:
            if !isPhoneNumber(a.target) { return invalid("`\(a.target)` is not a phone number (e.g. +377 93 15 30 15)") }
        case .route:
            if !routes.contains(a.target) { return unknown("route") }
        case .departures:
            if context.stopsComplete && !context.stopIDs.contains(a.target) { return unknown("stop") }
        case .card:
            if !cards.contains(a.target) { return unknown("card") }
        case .situation:
            if !situations.contains(a.target) { return unknown("situation") }
        case .text:
            break
        }
        return true
    }

    /// Reports cards (and their situations and actions) that no path from a home card reaches.
    static func reachability(_ content: inout EditorialContent, bag: DiagnosticBag) {
        let situationsByCard = Dictionary(grouping: content.situations, by: \.card)
        let actionsBySituation = Dictionary(grouping: content.actions, by: \.situation)
        let situationCard = Dictionary(content.situations.map { ($0.id, $0.card) }, uniquingKeysWith: { a, _ in a })
        var reached: Set<String> = []  // card ids
        var queue = content.cards.filter(\.home).map(\.id)
        while let card = queue.popLast() {
            guard reached.insert(card).inserted else { continue }
            for s in situationsByCard[card] ?? [] {
                for a in actionsBySituation[s.id] ?? [] {
                    if a.kind == .card { queue.append(a.target) }
                    if a.kind == .situation, let c = situationCard[a.target] { queue.append(c) }
                }
            }
        }
        for card in content.cards where !reached.contains(card.id) {
            let note = card.home ? "" : " (home is 0 and no `card` or `situation` action leads to it)"
            bag.report(Rules.editorialUnreachable, "card `\(card.id)` cannot be reached from the home screen\(note)",
                at: card.location, entity: card.id)
        }
    }

    /// Reports each cycle of card/situation links once, at the action that closes it.
    ///
    /// Graph: a card → its situations; a situation → targets of its `card` and `situation` actions.
    static func cycles(_ content: EditorialContent, bag: DiagnosticBag) {
        enum Node: Hashable {
            case card(String)
            case situation(String)
            var name: String {
                switch self {
                case .card(let id): "card `\(id)`"
                case .situation(let id): "situation `\(id)`"
                }
            }
        }
        var edges: [Node: [(Node, Action?)]] = [:]
        for s in content.situations { edges[.card(s.card), default: []].append((.situation(s.id), nil)) }
        for a in content.actions {
            switch a.kind {
            case .card: edges[.situation(a.situation), default: []].append((.card(a.target), a))
            case .situation: edges[.situation(a.situation), default: []].append((.situation(a.target), a))
            default: break
            }
        }
        var state: [Node: Int] = [:]  // 1 on the stack, 2 done
        var path: [Node] = []
        var reported: Set<String> = []
        func visit(_ node: Node) {
            state[node] = 1
            path.append(node)
            for (next, action) in edges[node] ?? [] {
                if state[next] == 1, let action {
                    let start = path.lastIndex(of: next) ?? 0
                    let loop = (path[start...].map(\.name) + [next.name]).joined(separator: " → ")
                    if reported.insert(action.id).inserted {
                        bag.report(Rules.editorialReferenceCycle, "action `\(action.id)` closes a cycle: \(loop)",
                            at: action.targetLocation, entity: action.id)
                    }
                } else if state[next] == nil {
                    visit(next)
                }
            }
            path.removeLast()
            state[node] = 2
        }
        let roots = content.cards.map { Node.card($0.id) } + content.situations.map { Node.situation($0.id) }
        for root in roots where state[root] == nil { visit(root) }
    }

    /// Resolves and checks one route; nil when it cannot be packed.
    static func checkRoute(_ route: WalkingRoute, context: EditorialContext, bag: DiagnosticBag) -> WalkingRoute? {
        var route = route
        var ok = true
        var seen: [Int: SourceLocation] = [:]
        for w in route.waypoints {
            if let previous = seen[w.sequence] {
                bag.report(Rules.editorialRouteDuplicateSequence,
                    "route `\(route.id)` has two waypoints with sequence \(w.sequence)", at: w.location,
                    entity: "\(route.id)#\(w.sequence)", notes: [.init("the other one is here", at: previous)])
                ok = false
            } else {
                seen[w.sequence] = w.location
            }
        }
        for i in route.waypoints.indices {
            let w = route.waypoints[i]
            switch w.place {
            case .poi(let id):
                guard let poi = context.pois[id] else {
                    guard context.poisComplete else {
                        ok = false
                        continue
                    }
                    let ref = OSMRef(OSMRef.Kind(rawValue: UInt8(id & 3)) ?? .node, id >> 2)
                    bag.report(Rules.editorialRouteUnknownPOI,
                        "waypoint \(w.sequence) of route `\(route.id)` references POI \(id) (\(ref)), which is not in the pack",
                        at: w.placeLocation, entity: "\(route.id)#\(w.sequence)")
                    ok = false
                    continue
                }
                route.waypoints[i].coordinate = poi.coordinate
            case .point(let c):
                route.waypoints[i].coordinate = c
            }
            if let c = route.waypoints[i].coordinate, !context.city.bbox.contains(c) {
                bag.report(Rules.editorialRouteWaypointOutsideBBox,
                    "waypoint \(w.sequence) of route `\(route.id)` at \(c.lat), \(c.lon) is outside the city bounding box",
                    at: w.placeLocation, entity: "\(route.id)#\(w.sequence)")
                ok = false
            }
        }
        if route.waypoints.count < 2 {
            bag.report(Rules.editorialRouteTooFewWaypoints,
                "route `\(route.id)` has \(route.waypoints.count) waypoint\(route.waypoints.count == 1 ? "" : "s"); a route needs at least 2",
                at: route.location, entity: route.id)
            return nil
        }
        guard ok else { return nil }
        for i in 1..<route.waypoints.count {
            guard let a = route.waypoints[i - 1].coordinate, let b = route.waypoints[i].coordinate else { continue }
            let d = GreatCircle.distance(a.lat, a.lon, b.lat, b.lon)
            let w = route.waypoints[i]
            if d < minLeg {
                bag.report(Rules.editorialRouteImplausibleLeg,
                    "waypoints \(route.waypoints[i - 1].sequence) and \(w.sequence) of route `\(route.id)` are at the same place",
                    at: w.location, entity: "\(route.id)#\(w.sequence)")
            } else if d > maxLeg {
                bag.report(Rules.editorialRouteImplausibleLeg,
                    "waypoints \(route.waypoints[i - 1].sequence) and \(w.sequence) of route `\(route.id)` are \(Int(d.rounded())) m apart (more than \(Int(maxLeg)) m for one walking leg)",
                    at: w.location, entity: "\(route.id)#\(w.sequence)")
            }
        }
        return route
    }
}
