import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsRouteShortNameTooLong = RuleDescription(
        "gtfs.route_short_name_too_long", .gtfs, .warning, "route_short_name has more than 12 characters",
        title: "Route short name too long",
        rationale: "Short names are shown in badges; long text belongs in route_long_name.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Port – Larvotto,,3"),
            passing: Base.routes))
}

/// Short names are shown in badges: more than 12 characters belongs in route_long_name.
enum RouteShortNameTooLongRule {
    /// The longest short name, in characters.
    static let maxLength = 12

    static func check(_ route: TransitRoute, entity: String, _ c: GTFSValidationContext) {
        let short = route.shortName ?? ""
        guard short.count > maxLength else { return }
        c.report(Rules.gtfsRouteShortNameTooLong, .tooLong(short), "routes", route.line, field: "route_short_name",
            entity: entity)
    }
}

extension String {
    fileprivate static func tooLong(_ short: String) -> String {
        "route_short_name `\(short)` has \(short.count) characters (at most \(RouteShortNameTooLongRule.maxLength))"
    }
}
