import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDuplicateRouteName = RuleDescription(
        "gtfs.duplicate_route_name", .gtfs, .warning,
        "Two routes of the same agency and route_type have the same short and long names",
        title: "Duplicate route name",
        rationale: "Riders and trip planners cannot tell them apart; usually one route was split or copied.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.routes + "R2,A,1,Port – Larvotto,3\n",
            passing: Base.routes + "R2,A,2,Port – Larvotto,3\n"))
}

/// Two named routes of the same agency and route_type with the same short and long names (ignoring case):
/// riders and trip planners cannot tell them apart. Checks routes in file order, remembering the first of each
/// name; unnamed routes are `gtfs.route_name_missing`.
struct DuplicateRouteNameRule {
    private var firstWithName: [String: Int32] = [:]

    mutating func check(_ route: TransitRoute, entity: String, _ c: GTFSValidationContext) {
        let short = route.shortName ?? "", long = route.longName ?? ""
        guard !short.isEmpty || !long.isEmpty else { return }
        let key = [route.agencyID ?? "", String(route.type), short.lowercased(), long.lowercased()]
            .joined(separator: "\u{1F}")
        if let first = firstWithName[key] {
            c.report(Rules.gtfsDuplicateRouteName, .sameName(short, long), "routes", route.line,
                field: short.isEmpty ? "route_long_name" : "route_short_name", entity: entity,
                notes: [Diagnostic.Note(.firstRoute, at: c.at("routes", first, "route_short_name"))])
        } else {
            firstWithName[key] = route.line
        }
    }
}

extension String {
    fileprivate static func sameName(_ short: String, _ long: String) -> String {
        "another route of the same agency and type is also named `\([short, long].filter { !$0.isEmpty }.joined(separator: " "))`"
    }

    fileprivate static let firstRoute = "first route with this name"
}
