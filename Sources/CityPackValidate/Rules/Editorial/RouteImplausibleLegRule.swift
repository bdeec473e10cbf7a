import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

extension Rules {
    package static let editorialRouteImplausibleLeg = RuleDescription(
        "editorial.route_implausible_leg", .editorial, .warning,
        "Two consecutive waypoints are at the same place (under 1 m) or more than 3 km apart",
        rationale: "A walking route's legs are short; a zero or very long leg is a repeated or misplaced waypoint.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeImplausibleLeg covers it.")
}

/// A walking route's legs are short: consecutive waypoints at the same place (under ``minLeg``) are a repeated
/// waypoint, more than ``maxLeg`` apart a misplaced one. Straight-line distance; the route stays in the pack.
enum RouteImplausibleLegRule {
    /// Longest plausible straight-line leg between consecutive waypoints of a walking route, in metres.
    static let maxLeg: Double = 3000
    /// Shortest leg that is not a repeated waypoint, in metres.
    static let minLeg: Double = 1

    /// Checks the legs of a route whose waypoints are resolved.
    static func check(_ route: WalkingRoute, bag: DiagnosticBag) {
        for i in 1..<route.waypoints.count {
            guard let a = route.waypoints[i - 1].coordinate, let b = route.waypoints[i].coordinate else { continue }
            let d = GreatCircle.distance(a.lat, a.lon, b.lat, b.lon)
            let previous = route.waypoints[i - 1], w = route.waypoints[i]
            let message: String
            if d < minLeg {
                message = .samePlace(previous, w, route)
            } else if d > maxLeg {
                message = .tooFar(previous, w, route, d)
            } else {
                continue
            }
            bag.report(Rules.editorialRouteImplausibleLeg, message, at: w.location, entity: "\(route.id)#\(w.sequence)")
        }
    }
}

extension String {
    fileprivate static func samePlace(_ a: Waypoint, _ b: Waypoint, _ route: WalkingRoute) -> String {
        "waypoints \(a.sequence) and \(b.sequence) of route `\(route.id)` are at the same place"
    }

    fileprivate static func tooFar(_ a: Waypoint, _ b: Waypoint, _ route: WalkingRoute, _ d: Double) -> String {
        "waypoints \(a.sequence) and \(b.sequence) of route `\(route.id)` are \(Int(d.rounded())) m apart (more than \(Int(RouteImplausibleLegRule.maxLeg)) m for one walking leg)"
    }
}
