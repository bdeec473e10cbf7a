import Foundation
import CityPackDiagnostics
import CityPackModel

/// What editorial rules consult besides the editorial content.
package struct EditorialContext: Sendable {
    package var city: City
    /// POIs that go into the pack, by stable id (indexed when first asked for: only walking routes ask).
    package var pois: [Int64: POI] { poiIndex.value }
    private var poiIndex: POIIndex
    /// Categories that have at least one POI in the pack.
    package var categoriesWithPOIs: Set<String>
    /// Categories the profile defines.
    package var knownCategories: Set<String>
    /// GTFS `stop_id`s in the pack (any feed).
    package var stopIDs: Set<String>
    /// False when the OSM sources had reading errors: POI references and `nearby` categories are then not
    /// judged (a POI that could not be read would look missing).
    package var poisComplete = true
    /// False when a GTFS feed's stops could not be read completely: `departures` targets are not judged.
    package var stopsComplete = true

    package init(city: City, pois: [POI], categories: [PackCategory], stopIDs: Set<String> = []) {
        self.init(city: city, pois: { pois }, categoriesWithPOIs: Set(pois.map(\.category)), categories: categories, stopIDs: stopIDs)
    }

    /// A context whose POIs are made when a rule first asks for them (a build that took them from its cache);
    /// `categoriesWithPOIs` must be their categories.
    package init(
        city: City, pois: @escaping @Sendable () -> [POI], categoriesWithPOIs: Set<String>, categories: [PackCategory],
        stopIDs: Set<String> = []
    ) {
        self.city = city
        poiIndex = POIIndex(pois)
        self.categoriesWithPOIs = categoriesWithPOIs
        self.knownCategories = Set(categories.map(\.id))
        self.stopIDs = stopIDs
    }
}

/// POIs by stable id, indexed on first use.
private final class POIIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var make: (@Sendable () -> [POI])?
    private var index: [Int64: POI]?

    init(_ make: @escaping @Sendable () -> [POI]) { self.make = make }

    var value: [Int64: POI] {
        lock.withLock {
            if let index { return index }
            let pois = make?() ?? []
            var byID: [Int64: POI] = [:]
            byID.reserveCapacity(pois.count)
            for poi in pois { byID[poi.ref.stableID] = poi }
            index = byID
            make = nil
            return byID
        }
    }
}

/// Checks cards, situations, actions and walking routes, and resolves waypoint positions.
///
/// Each rule is one file in `Rules/Editorial/`; this type runs them in order and keeps what can be packed:
/// duplicate ids, then references from situations and actions, reachability from the home screen and link
/// cycles, then each route (sequences, POIs, bounding box, number of waypoints, legs). Pure; reports to the bag.
package enum EditorialValidator {
    /// Validates and returns what goes into the pack: items with errors are dropped, waypoints carry their
    /// coordinates.
    package static func validate(_ content: EditorialContent, context: EditorialContext, bag: DiagnosticBag) -> EditorialContent {
        var out = EditorialContent()
        out.cards = DuplicateIDRule.unique(content.cards, id: \.id, location: \.location, what: "card", bag: bag)
        out.situations = DuplicateIDRule.unique(content.situations, id: \.id, location: \.location, what: "situation", bag: bag)
        out.actions = DuplicateIDRule.unique(content.actions, id: \.id, location: \.location, what: "action", bag: bag)
        let routes = DuplicateIDRule.unique(content.routes, id: \.id, location: \.location, what: "route", bag: bag)

        let cardIDs = Set(out.cards.map(\.id))
        let routeIDs = Set(routes.map(\.id))
        UnknownReferenceRule.checkSituations(&out.situations, cards: cardIDs, bag: bag)
        let situationIDs = Set(out.situations.map(\.id))
        out.actions.removeAll { a in
            guard UnknownReferenceRule.checkSituation(of: a, situations: situationIDs, bag: bag),
                InvalidActionRule.check(a, context: context, bag: bag),
                UnknownReferenceRule.checkTarget(
                    of: a, cards: cardIDs, situations: situationIDs, routes: routeIDs, context: context, bag: bag)
            else { return true }
            CategoryWithoutPOIRule.check(a, context: context, bag: bag)
            return false
        }
        UnreachableRule.check(out, bag: bag)
        ReferenceCycleRule.check(out, bag: bag)

        UnknownReferenceRule.checkOrphanWaypoints(content, bag: bag)
        out.routes = routes.compactMap { checkRoute($0, context: context, bag: bag) }
        return out
    }

    /// Resolves the waypoints of one route and checks it; nil when it cannot be packed.
    static func checkRoute(_ route: WalkingRoute, context: EditorialContext, bag: DiagnosticBag) -> WalkingRoute? {
        var route = route
        var ok = RouteDuplicateSequenceRule.check(route, bag: bag)
        for i in route.waypoints.indices {
            let w = route.waypoints[i]
            switch w.place {
            case .poi(let id):
                guard let poi = RouteUnknownPOIRule.resolve(id, of: w, in: route, context: context, bag: bag) else {
                    ok = false
                    continue
                }
                route.waypoints[i].coordinate = poi.coordinate
            case .point(let c):
                route.waypoints[i].coordinate = c
            }
            if !RouteWaypointOutsideBBoxRule.check(route.waypoints[i], of: route, context: context, bag: bag) {
                ok = false
            }
        }
        guard RouteTooFewWaypointsRule.check(route, bag: bag), ok else { return nil }
        RouteImplausibleLegRule.check(route, bag: bag)
        return route
    }
}
