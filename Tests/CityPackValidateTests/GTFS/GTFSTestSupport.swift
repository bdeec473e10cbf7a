import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation

/// Builds small feeds from inline CSV text and runs reader + validator on them.
enum GTFSFixture {
    /// A complete, valid feed in Milan: every rule stays silent on it (checked by a test).
    static let base: [String: String] = [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            A,Agency,https://a.example,Europe/Rome

            """,
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S1,One,45.46,9.19,0,
            S2,Two,45.47,9.20,0,
            S3,Three,45.48,9.21,0,

            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R1,A,1,Line One,3

            """,
        "trips.txt": """
            route_id,service_id,trip_id,block_id,shape_id
            R1,WK,T1,B1,SH1
            R1,WK,T2,B1,SH1

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,08:05:00,08:06:00,S2,2,1.3
            T1,08:10:00,08:10:00,S3,3,2.6
            T2,25:00:00,25:00:00,S3,1,0
            T2,25:05:00,25:05:00,S2,2,1.3
            T2,25:10:00,25:10:00,S1,3,2.6

            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20260101,20261231

            """,
        "shapes.txt": """
            shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
            SH1,45.46,9.19,1,0
            SH1,45.47,9.20,2,1.3
            SH1,45.48,9.21,3,2.6

            """,
    ]

    static let milan = BoundingBox(minLon: 9.0, minLat: 45.3, maxLon: 9.4, maxLat: 45.6)
    static let buildDate = (year: 2026, month: 6, day: 1)

    /// Writes `files` (nil content removes a base file) to a temporary directory named `feed`.
    static func write(_ files: [String: String?], overBase: Bool = true) throws -> URL {
        let dir = try TestPaths.temporaryDirectory("gtfs-fixture").appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var all: [String: String?] = overBase ? base.mapValues { $0 } : [:]
        for (k, v) in files { all[k] = v }
        for (name, content) in all {
            guard let content else { continue }
            try Data(content.utf8).write(to: dir.appendingPathComponent(name))
        }
        return dir
    }

    /// Reads and validates; diagnostics use display paths `feed/<file>`.
    static func run(_ files: [String: String?], overBase: Bool = true, bbox: BoundingBox? = milan,
        buildDate: (year: Int, month: Int, day: Int) = buildDate) throws -> [Diagnostic]
    {
        let dir = try write(files, overBase: overBase)
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        return try runPath(dir.path, display: "feed", bbox: bbox, buildDate: buildDate)
    }

    static func runPath(_ path: String, display: String, bbox: BoundingBox? = nil,
        buildDate: (year: Int, month: Int, day: Int) = buildDate, warningsAsErrors: Bool = false) throws -> [Diagnostic]
    {
        let bag = DiagnosticBag(warningsAsErrors: warningsAsErrors, maxPerCode: 100_000)
        if let feed = try GTFSReader.read(path: path, displayPath: display, bag: bag) {
            GTFSValidator.validate(feed, bbox: bbox, buildDate: buildDate, bag: bag)
        }
        return bag.diagnostics
    }
}

extension Array where Element == Diagnostic {
    var errors: [Diagnostic] { filter { $0.severity == .error } }
    func with(_ code: String) -> [Diagnostic] { filter { $0.code == code } }
    var summary: String { map { "\($0.location?.description ?? "-"): \($0.code) \($0.message)" }.joined(separator: "\n") }
}
