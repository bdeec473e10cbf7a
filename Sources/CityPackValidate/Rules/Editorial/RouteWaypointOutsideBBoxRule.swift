import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

extension Rules {
    package static let editorialRouteWaypointOutsideBBox = RuleDescription(
        "editorial.route_waypoint_outside_bbox", .editorial, .error, "A waypoint lies outside the city bounding box",
        rationale: "Every coordinate of a pack is inside the city; a point outside is usually swapped lat/lon.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeWaypointOutsideBBox covers it.")
}

/// Every coordinate of a pack is inside the city; a waypoint outside is usually a swapped lat/lon. The route is
/// left out of the pack.
enum RouteWaypointOutsideBBoxRule {
    /// Whether the resolved waypoint `w` lies in the city (or has no position yet); reports it when not.
    static func check(_ w: Waypoint, of route: WalkingRoute, context: EditorialContext, bag: DiagnosticBag) -> Bool {
        guard let c = w.coordinate, !context.city.bbox.contains(c) else { return true }
        bag.report(Rules.editorialRouteWaypointOutsideBBox, .outside(w, route, c), at: w.placeLocation,
            entity: "\(route.id)#\(w.sequence)")
        return false
    }
}

extension String {
    fileprivate static func outside(_ w: Waypoint, _ route: WalkingRoute, _ c: Coordinate) -> String {
        "waypoint \(w.sequence) of route `\(route.id)` at \(c.lat), \(c.lon) is outside the city bounding box"
    }
}
