import CityPackDiagnostics
import CityPackIngest
import CityPackTestSupport
import Foundation
import Testing

/// `csv.non_printable_in_id` on every ID column, stop_times' included, once per distinct value and table with
/// its row count (issue 21: 272 warnings for 18 distinct IDs was noise).
@Suite struct GTFSNonASCIIIDTests {
    @Test func oneWarningPerDistinctValueWithItsCount() throws {
        var files = GTFSReaderTests.minimal
        files["stops.txt"] = files["stops.txt"]!.replacingOccurrences(of: "P1,", with: "P1é,")
        files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + "T,08:00:00,08:00:00,P1é,1\nT,08:05:00,08:05:00,P1é,2\nT,08:10:00,08:10:00,P1é,3\nT,08:15:00,08:15:00,ST,4\n"
        files["trips.txt"] = files["trips.txt"]! + "R,S,T\u{2013}2,1,\n"
        files["stop_times.txt"]! += "T\u{2013}2,09:00:00,09:00:00,ST,1\nT\u{2013}2,09:05:00,09:05:00,ST,2\n"
        let (_, diagnostics) = try GTFSReaderTests.feed(files)
        let found = diagnostics.filter { $0.code == "csv.non_printable_in_id" }
        let lines = found.map { "\($0.location?.file ?? "")|\($0.location?.line ?? 0)|\($0.message)" }.sorted()
        #expect(lines == [
            "g/stop_times.txt|2|`stop_id` value `P1é` contains control or non-ASCII characters (3 rows; the first is here)",
            "g/stop_times.txt|6|`trip_id` value `T–2` contains control or non-ASCII characters (2 rows; the first is here)",
            "g/stops.txt|3|`stop_id` value `P1é` contains control or non-ASCII characters",
            "g/trips.txt|3|`trip_id` value `T–2` contains control or non-ASCII characters",
        ], "\(lines)")
        #expect(found.allSatisfy { $0.severity == .warning })
    }

    @Test func asciiIDsSayNothing() throws {
        let (_, diagnostics) = try GTFSReaderTests.feed(GTFSReaderTests.minimal)
        #expect(!diagnostics.contains { $0.code == "csv.non_printable_in_id" })
    }
}
