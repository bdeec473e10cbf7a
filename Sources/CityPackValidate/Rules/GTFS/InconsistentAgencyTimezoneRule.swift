import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsInconsistentAgencyTimezone = RuleDescription(
        "gtfs.inconsistent_agency_timezone", .gtfs, .error,
        "An agency's agency_timezone differs from the first agency's",
        title: "Inconsistent agency timezone",
        rationale: "GTFS times are local times of one zone per feed: every agency must give the same "
            + "agency_timezone. The pack carries departures as clock times without a zone, so with two zones in one "
            + "feed half of them would be shown at the wrong hour. gtfs-validator reports it as an error "
            + "(inconsistent_agency_timezone), once per agency that differs from the first.",
        example: RuleExample(
            file: "gtfs/agency.txt",
            triggering: Base.edit(Base.agency, "ferries.example,Europe/Monaco", "ferries.example,Europe/Paris"),
            passing: Base.agency))
}

/// Every agency's agency_timezone must equal the first agency's (gtfs-validator: `inconsistent_agency_timezone`,
/// compared as text, so `europe/rome` differs from `Europe/Rome`). Reported once per differing agency, with a
/// note at the first agency. Agencies whose timezone is empty or not a valid IANA name were already reported by
/// the reader (csv.missing_value, csv.invalid_value) and are left out: the first agency with a valid timezone sets
/// the expected one (gtfs-validator compares the raw text, even an invalid one).
enum InconsistentAgencyTimezoneRule {
    static func check(_ c: GTFSValidationContext) {
        let agencies = c.feed.agencies.filter { !$0.timezone.isEmpty }
        guard let first = agencies.first else { return }
        for a in agencies.dropFirst() where a.timezone != first.timezone {
            c.report(Rules.gtfsInconsistentAgencyTimezone, .differs(a.timezone, first), "agency", a.line,
                field: "agency_timezone", entity: a.id.map { "agency_id=\($0)" } ?? "agency_name=\(a.name)",
                notes: [Diagnostic.Note(.firstAgency(first), at: c.at("agency", first.line, "agency_timezone"))])
        }
    }
}

extension String {
    fileprivate static func differs(_ timezone: String, _ first: TransitAgency) -> String {
        "agency_timezone `\(timezone)` differs from `\(first.timezone)`, the first agency's"
    }

    fileprivate static func firstAgency(_ a: TransitAgency) -> String {
        "agency `\(a.id ?? a.name)` gives `\(a.timezone)` here"
    }
}
