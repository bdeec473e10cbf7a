import CityPackCompiler
import CityPackDiagnostics
import Testing

/// One triggering fixture for a GTFS or CSV rule: inline CSV over ``GTFSFixture/base``, the shared
/// non-triggering fixture (which must produce no diagnostic at all, see `GTFSRuleTests.baseFeedIsClean`).
struct GTFSRuleCase: CustomStringConvertible, Sendable {
    var code: String
    /// File name → new content (nil removes the file).
    var files: [String: String?]
    /// Expected `file:line` of the diagnostic (`feed/<file>:<line>`; line 0 = whole file).
    var at: String
    var description: String { "\(code) @ \(at)" }

    /// Every case of every GTFS rule suite, for the catalogue check.
    static let all: [GTFSRuleCase] = GTFSRuleTests.cases + GTFSStopsRuleTests.cases + GTFSTripsRuleTests.cases
        + GTFSStopTimesRuleTests.cases + GTFSShapesRuleTests.cases + GTFSCalendarsRuleTests.cases
        + GTFSOtherTablesRuleTests.cases

    /// Reads and validates the case's feed and expects its rule at its place, with the catalogued severity and,
    /// for a GTFS rule on a row, a column and field.
    func expectTriggers() throws {
        let diagnostics = try GTFSFixture.run(files)
        let hits = diagnostics.with(code).filter { d in
            guard let loc = d.location else { return false }
            return "\(loc.file):\(loc.line)" == at
        }
        #expect(!hits.isEmpty, "expected \(code) at \(at); got:\n\(diagnostics.summary)")
        if let hit = hits.first {
            #expect(hit.severity == RuleCatalog.rule(code)?.severity)
            if hit.location!.line > 0 { #expect(hit.location!.column >= 1 && hit.location!.field != nil || code.hasPrefix("csv.")) }
        }
    }
}

/// A suite of ``GTFSRuleCase``s, one file per group of GTFS tables as in `GTFSValidator+<Table>.swift`: the
/// cases and the CSV fragments they are written with.
protocol GTFSRuleCases {
    static var cases: [GTFSRuleCase] { get }
}

extension GTFSRuleCases {
    typealias Case = GTFSRuleCase

    static var stopsHeader: String { "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n" }
    static var timesHeader: String { "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n" }
    static var calendarHeader: String {
        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
    }
    static var usedStops: String { "S1,One,45.46,9.19,0,\nS2,Two,45.47,9.20,0,\nS3,Three,45.48,9.21,0,\n" }
    static var t2Times: String { "T2,25:00:00,25:00:00,S3,1,0\nT2,25:05:00,25:05:00,S2,2,1.3\nT2,25:10:00,25:10:00,S1,3,2.6\n" }

    /// stops.txt: the three used stops and `extra`.
    static func stops(_ extra: String) -> String { stopsHeader + usedStops + extra }
    /// stop_times.txt: trip T1 as `rows`, trip T2 as in the base.
    static func t1(_ rows: String) -> String { timesHeader + rows + t2Times }
}
