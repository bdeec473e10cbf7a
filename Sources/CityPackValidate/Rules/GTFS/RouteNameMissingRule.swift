import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsRouteNameMissing = RuleDescription(
        "gtfs.route_name_missing", .gtfs, .error, "A route has neither route_short_name nor route_long_name",
        title: "Route without a name",
        rationale: "Riders cannot tell the route apart from others.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,,,3"),
            passing: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,1,,3")))
}

/// A route with neither a short nor a long name cannot be told apart from the others.
enum RouteNameMissingRule {
    static func check(_ route: TransitRoute, entity: String, _ c: GTFSValidationContext) {
        guard (route.shortName ?? "").isEmpty, (route.longName ?? "").isEmpty else { return }
        c.report(Rules.gtfsRouteNameMissing, .noName, "routes", route.line, field: "route_short_name", entity: entity)
    }
}

extension String {
    fileprivate static let noName = "route has neither route_short_name nor route_long_name"
}
