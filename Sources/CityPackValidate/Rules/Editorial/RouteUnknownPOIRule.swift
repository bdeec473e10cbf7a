import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialRouteUnknownPOI = RuleDescription(
        "editorial.route_unknown_poi", .editorial, .error, "A waypoint references a POI that is not in the pack",
        rationale: "The waypoint would have no position; the POI may have been deleted from OSM or filtered out.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeUnknownPOI covers it.")
}

/// A waypoint that names a POI the pack does not hold has no position (the POI may have been deleted from OSM or
/// filtered out). Not reported when the OSM sources had reading errors, but the route is left out either way.
enum RouteUnknownPOIRule {
    /// The POI waypoint `w` names, or nil (reported when the POIs were read completely).
    static func resolve(_ id: Int64, of w: Waypoint, in route: WalkingRoute, context: EditorialContext,
        bag: DiagnosticBag) -> POI?
    {
        if let poi = context.pois[id] { return poi }
        if context.poisComplete {
            bag.report(Rules.editorialRouteUnknownPOI, .notInPack(id, w, route), at: w.placeLocation,
                entity: "\(route.id)#\(w.sequence)")
        }
        return nil
    }
}

extension String {
    fileprivate static func notInPack(_ id: Int64, _ w: Waypoint, _ route: WalkingRoute) -> String {
        let ref = OSMRef(OSMRef.Kind(rawValue: UInt8(id & 3)) ?? .node, id >> 2)
        return "waypoint \(w.sequence) of route `\(route.id)` references POI \(id) (\(ref)), which is not in the pack"
    }
}
