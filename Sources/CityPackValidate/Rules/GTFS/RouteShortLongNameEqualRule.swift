import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsRouteShortLongNameEqual = RuleDescription(
        "gtfs.route_short_long_name_equal", .gtfs, .warning, "route_short_name equals route_long_name",
        title: "Short name equals long name",
        rationale: "Apps show both names side by side; the long name should describe the route, not repeat it.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Larvotto,Larvotto,3"),
            passing: Base.edit(Base.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Larvotto,Port – Larvotto,3")))
}

/// Apps show both names side by side; a long name that repeats the short one (ignoring case) describes nothing.
enum RouteShortLongNameEqualRule {
    static func check(_ route: TransitRoute, entity: String, _ c: GTFSValidationContext) {
        let short = route.shortName ?? "", long = route.longName ?? ""
        guard !short.isEmpty, short.caseInsensitiveCompare(long) == .orderedSame else { return }
        c.report(Rules.gtfsRouteShortLongNameEqual, .bothNamed(short), "routes", route.line, field: "route_long_name",
            entity: entity)
    }
}

extension String {
    fileprivate static func bothNamed(_ short: String) -> String {
        "route_short_name and route_long_name are both `\(short)`"
    }
}
