import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialRouteTooFewWaypoints = RuleDescription(
        "editorial.route_too_few_waypoints", .editorial, .error, "A walking route has fewer than two waypoints",
        rationale: "A route needs a start and an end.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeTooFewWaypoints covers it.")
}

/// A walking route needs a start and an end; with fewer than two waypoints it is left out of the pack.
enum RouteTooFewWaypointsRule {
    /// Whether the route has at least two waypoints; reports it when not.
    static func check(_ route: WalkingRoute, bag: DiagnosticBag) -> Bool {
        guard route.waypoints.count < 2 else { return true }
        bag.report(Rules.editorialRouteTooFewWaypoints, .tooFew(route), at: route.location, entity: route.id)
        return false
    }
}

extension String {
    fileprivate static func tooFew(_ route: WalkingRoute) -> String {
        let n = route.waypoints.count
        return "route `\(route.id)` has \(n) waypoint\(n == 1 ? "" : "s"); a route needs at least 2"
    }
}
