import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsMissingAgencyID = RuleDescription(
        "gtfs.missing_agency_id", .gtfs, .error, "agency_id is empty although the feed has several agencies",
        title: "Missing agency ID",
        rationale: "The route's operator is then ambiguous (GTFS makes agency_id conditionally required).",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "R1,A,", "R1,,"),
            passing: Base.routes))
}

/// agency_id is conditionally required: once a feed has several agencies, every agency row, route and fare must
/// name one, or its operator is ambiguous.
enum MissingAgencyIDRule {
    /// Agency rows without an agency_id in a feed with several agencies.
    static func checkAgencies(_ c: GTFSValidationContext) {
        let agencies = c.feed.agencies
        guard agencies.count > 1 else { return }
        for a in agencies where a.id == nil {
            c.report(Rules.gtfsMissingAgencyID, .agencyRowWithoutID, "agency", a.line, field: "agency_id",
                entity: "agency_name=\(a.name)")
        }
    }

    /// A route without agency_id in a feed with several agencies.
    static func check(_ route: TransitRoute, entity: String, _ c: GTFSValidationContext) {
        let agencyCount = c.feed.agencies.count
        guard route.agencyID == nil, agencyCount > 1 else { return }
        c.report(Rules.gtfsMissingAgencyID, .required(agencies: agencyCount), "routes", route.line, field: "agency_id",
            entity: entity)
    }

    /// fare_attributes rows without agency_id in a feed with several agencies.
    static func checkFareAttributes(_ c: GTFSValidationContext) {
        guard c.feed.agencies.count > 1, let t = c.feed.extraTables["fare_attributes"] else { return }
        let col = t.column("agency_id")
        for (r, row) in t.rows.enumerated() where col.flatMap({ row[$0] }) == nil {
            c.report(Rules.gtfsMissingAgencyID, .required(agencies: c.feed.agencies.count), "fare_attributes",
                t.lines[r], field: "agency_id", entity: t.column("fare_id").flatMap { row[$0] }.map { "fare_id=\($0)" })
        }
    }
}

extension String {
    fileprivate static let agencyRowWithoutID = "agency_id is required when the feed has several agencies"
    fileprivate static func required(agencies: Int) -> String {
        "agency_id is required because the feed has \(agencies) agencies"
    }
}
