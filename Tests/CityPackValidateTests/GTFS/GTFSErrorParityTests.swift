import CityPackDiagnostics
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// The rules that cover gtfs-validator's last ERROR notices (issue 21 point 1), counted as gtfs-validator counts
/// them. Each fixture is GTFSFixture's Milan feed with one change; the expected counts were taken from gtfs-guru
/// 1.0.0 (`gtfs_guru.validate`) on the same files, and where CityPack differs on purpose the test says so. On
/// ../shared feeds the counts are pinned below and equal gtfs-guru's (scripts/gtfs-parity.py prints both).
@Suite struct GTFSErrorParityTests {
    static let stopTimesHeader = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled"

    /// stop_times.txt of the base feed with `replacements` applied.
    static func stopTimes(_ replacements: [(String, String)]) -> String {
        replacements.reduce(GTFSFixture.base["stop_times.txt"]!) { text, r in
            precondition(text.contains(r.0), "fixture: '\(r.0)' is not in stop_times.txt")
            return text.replacingOccurrences(of: r.0, with: r.1)
        }
    }

    /// Lines of the findings of `code`.
    static func lines(_ found: [Diagnostic], _ code: String) -> [Int] {
        found.with(code).compactMap { $0.location?.line }
    }

    // MARK: inconsistent_agency_timezone

    /// Each agency whose timezone differs from the first's, once (gtfs-guru: rows 3 and 4).
    @Test func agencyTimezonesDifferingFromTheFirst() throws {
        let agency = """
            agency_id,agency_name,agency_url,agency_timezone
            A,Agency,https://a.example,Europe/Rome
            B,B,https://b.example,Europe/Paris
            C,C,https://c.example,Europe/Paris
            D,D,https://d.example,Europe/Rome

            """
        let found = try GTFSFixture.run(["agency.txt": agency]).with("gtfs.inconsistent_agency_timezone")
        #expect(found.compactMap(\.location?.line) == [3, 4], "\(found.summary)")
        #expect(found.allSatisfy { $0.severity == .error && $0.location?.field == "agency_timezone" })
        #expect(found.first?.message == "agency_timezone `Europe/Paris` differs from `Europe/Rome`, the first agency's")
        #expect(found.first?.notes.first?.location?.line == 2)
        #expect(try GTFSFixture.run([:]).with("gtfs.inconsistent_agency_timezone").isEmpty)
    }

    // MARK: location_with_unexpected_stop_time

    static let stations = GTFSFixture.base["stops.txt"]! + """
        ST,Station,45.47,9.20,1,
        E1,Entrance,45.47,9.20,2,ST
        N1,Node,45.47,9.20,3,ST
        P1,Platform,45.47,9.20,0,ST
        BA,Boarding,45.47,9.20,4,P1

        """

    /// A station served by two stop_times is reported once, at the first in file order (gtfs-guru: one notice, at
    /// stop_times row 3); an entrance, a node and a boarding area once each (gtfs-guru: three).
    @Test func stopTimesAtLocationsThatAreNotStops() throws {
        let station = try GTFSFixture.run(["stops.txt": Self.stations, "stop_times.txt": Self.stopTimes([
            ("T1,08:05:00,08:06:00,S2,", "T1,08:05:00,08:06:00,ST,"),
            ("T2,25:05:00,25:05:00,S2,", "T2,25:05:00,25:05:00,ST,"),
        ])]).with("gtfs.location_with_unexpected_stop_time")
        #expect(station.compactMap(\.location?.line) == [3], "\(station.summary)")
        #expect(station.first?.message == "stop_id `ST` is a station (location_type 1), not a stop or platform")
        #expect(station.first?.notes.first?.location?.line == 5)
        let others = try GTFSFixture.run(["stops.txt": Self.stations, "stop_times.txt": Self.stopTimes([
            ("T1,08:05:00,08:06:00,S2,", "T1,08:05:00,08:06:00,E1,"),
            ("T2,25:00:00,25:00:00,S3,", "T2,25:00:00,25:00:00,N1,"),
            ("T2,25:05:00,25:05:00,S2,", "T2,25:05:00,25:05:00,BA,"),
        ])])
        #expect(Self.lines(others, "gtfs.location_with_unexpected_stop_time") == [3, 5, 6], "\(others.summary)")
        #expect(try GTFSFixture.run(["stops.txt": Self.stations]).with("gtfs.location_with_unexpected_stop_time")
            .isEmpty)
    }

    // MARK: stop_time_timepoint_without_times

    /// One finding per missing time of a timepoint (gtfs-guru: row 3 twice and row 6 once); timepoint=0 or empty
    /// needs no times, and a file without the column is not judged.
    @Test func timepointsWithoutTimes() throws {
        let text = Self.stopTimesHeader + ",timepoint\n" + """
            T1,08:00:00,08:00:00,S1,1,0,1
            T1,,,S2,2,1.3,1
            T1,08:10:00,08:10:00,S3,3,2.6,
            T2,25:00:00,25:00:00,S3,1,0,1
            T2,25:05:00,,S2,2,1.3,1
            T2,,,S1,3,2.6,0

            """
        let found = try GTFSFixture.run(["stop_times.txt": text]).with("gtfs.timepoint_without_times")
        #expect(found.map { "\($0.location!.line) \($0.location!.field!)" }
            == ["3 arrival_time", "3 departure_time", "6 departure_time"], "\(found.summary)")
        #expect(found.allSatisfy { $0.severity == .error })
        let untimed = Self.stopTimes([("T1,08:05:00,08:06:00,S2,", "T1,,,S2,")])
        #expect(try GTFSFixture.run(["stop_times.txt": untimed]).with("gtfs.timepoint_without_times").isEmpty)
    }

    // MARK: trip_distance_exceeds_shape_distance

    static let oneTrip = "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\n"

    /// Shape SH1 with its last point at `end` and the given distances of its second and last points.
    static func shape(end: String, middle: String = "1.3", last: String = "2.6") -> String {
        "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n"
            + "SH1,45.46,9.19,1,0\nSH1,45.47,9.20,2,\(middle)\nSH1,\(end),3,\(last)\n"
    }

    /// One trip T1 ending at S3 (45.48, 9.21) with the given distances of its second and last stop_times.
    static func trip(middle: String = "1.3", last: String) -> String {
        Self.stopTimesHeader + "\nT1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,\(middle)\n"
            + "T1,08:10:00,08:10:00,S3,3,\(last)\n"
    }

    /// (errors, warnings) of the two trip distance rules.
    func tripDistance(_ stopTimes: String, _ shapes: String, trips: String = oneTrip) throws -> (Int, Int) {
        let found = try GTFSFixture.run(["trips.txt": trips, "stop_times.txt": stopTimes, "shapes.txt": shapes])
        return (found.with("gtfs.trip_distance_exceeds_shape_distance").count,
            found.with("gtfs.trip_distance_exceeds_shape_distance_below_threshold").count)
    }

    /// The last stop's distance past the shape's largest: an error 136 m from the shape's farthest point, a warning
    /// at 5.6 m and at 0 m (gtfs-validator and gtfs-guru warn at 0 m too); nothing when the distance does not
    /// exceed, when either side has none, or when only a middle stop or point exceeds (gtfs-guru alike).
    @Test func tripDistanceBeyondTheShape() throws {
        let far = try GTFSFixture.run(["trips.txt": Self.oneTrip, "stop_times.txt": Self.trip(last: "3.0"),
            "shapes.txt": Self.shape(end: "45.479,9.209")]).with("gtfs.trip_distance_exceeds_shape_distance")
        #expect(far.count == 1 && far.first?.location?.line == 4, "\(far.summary)")
        #expect(far.first?.message == "last stop's shape_dist_traveled 3.0 exceeds 2.6, the largest of shape `SH1`; "
            + "the stop is 136 m from that point (gtfs-validator: error; a warning here since the pack carries no shapes)")
        #expect(far.first?.severity == .warning)
        #expect(far.first?.notes.map(\.location?.file) == ["feed/shapes.txt", "feed/trips.txt"])
        #expect(try tripDistance(Self.trip(last: "3.0"), Self.shape(end: "45.48005,9.21")) == (0, 1))
        #expect(try tripDistance(Self.trip(last: "3.0"), Self.shape(end: "45.48,9.21")) == (0, 1))
        #expect(try tripDistance(Self.trip(last: "2.5"), Self.shape(end: "45.479,9.209")) == (0, 0))
        #expect(try tripDistance(Self.trip(last: ""), Self.shape(end: "45.479,9.209")) == (0, 0))
        #expect(try tripDistance(Self.trip(last: "3.0"), Self.shape(end: "45.479,9.209", middle: "", last: ""))
            == (0, 0))
        #expect(try tripDistance(Self.trip(last: "3.0"), Self.shape(end: "45.479,9.209", middle: "3.5")) == (0, 0))
        #expect(try tripDistance(Self.trip(middle: "3.3", last: "2.0"), Self.shape(end: "45.479,9.209")) == (0, 0))
        let two = Self.oneTrip + "R1,WK,T2,B1,SH1\n"
        let both = Self.trip(last: "3.0") + "T2,09:00:00,09:00:00,S1,1,0\nT2,09:05:00,09:06:00,S2,2,1.3\n"
            + "T2,09:10:00,09:10:00,S3,3,3.0\n"
        #expect(try tripDistance(both, Self.shape(end: "45.479,9.209"), trips: two) == (2, 0))
    }

    // MARK: decreasing_or_equal_stop_time_distance

    /// Equal distances at consecutive stop_times (gtfs-guru: T1's row 4). Compared, like decreasing ones, with the
    /// previous stop_time that has a distance: T2's `0, empty, 0` is reported here, not by gtfs-validator, which
    /// compares adjacent rows only.
    @Test func equalStopTimeDistances() throws {
        let found = try GTFSFixture.run(["stop_times.txt": Self.stopTimes([
            ("T1,08:10:00,08:10:00,S3,3,2.6", "T1,08:10:00,08:10:00,S3,3,1.3"),
            ("T2,25:05:00,25:05:00,S2,2,1.3", "T2,25:05:00,25:05:00,S2,2,"),
            ("T2,25:10:00,25:10:00,S1,3,2.6", "T2,25:10:00,25:10:00,S1,3,0"),
        ])])
        #expect(Self.lines(found, "gtfs.equal_stop_time_distance") == [4, 7], "\(found.summary)")
        #expect(found.with("gtfs.decreasing_stop_time_distance").isEmpty)
        #expect(found.with("gtfs.equal_stop_time_distance").first?.notes.first?.location?.line == 3)
    }

    // MARK: start_and_end_range_out_of_order

    /// A stop_time departing before it arrives (gtfs-guru: row 3); equal times are a stop without dwell.
    @Test func departureBeforeArrival() throws {
        let found = try GTFSFixture.run(["stop_times.txt": Self.stopTimes([
            ("T1,08:05:00,08:06:00,S2,", "T1,08:06:00,08:05:00,S2,"),
        ])]).with("gtfs.departure_before_arrival")
        #expect(found.compactMap(\.location?.line) == [3], "\(found.summary)")
        #expect(found.first?.message == "departure_time 08:05:00 is before arrival_time 08:06:00")
        #expect(try GTFSFixture.run([:]).with("gtfs.departure_before_arrival").isEmpty)
    }

    /// feed_info.txt's start after its end (gtfs-guru: one notice); equal dates are one valid day (gtfs-guru: none).
    @Test func feedInfoDatesOutOfOrder() throws {
        func feedInfo(_ start: String, _ end: String) -> String {
            "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\n"
                + "P,https://p.example,en,\(start),\(end)\n"
        }
        let found = try GTFSFixture.run(["feed_info.txt": feedInfo("20261231", "20260101")])
            .with("gtfs.feed_info_range_out_of_order")
        #expect(found.compactMap(\.location?.line) == [2], "\(found.summary)")
        #expect(found.first?.message == "feed_start_date 2026-12-31 is after feed_end_date 2026-01-01")
        #expect(try GTFSFixture.run(["feed_info.txt": feedInfo("20260101", "20260101")])
            .with("gtfs.feed_info_range_out_of_order").isEmpty)
    }

    // MARK: ../shared feeds

    /// The codes of this suite, by the gtfs-validator notice they cover.
    static let codes: [String: [String]] = [
        "inconsistent_agency_timezone": ["gtfs.inconsistent_agency_timezone"],
        "location_with_unexpected_stop_time": ["gtfs.location_with_unexpected_stop_time"],
        "stop_time_timepoint_without_times": ["gtfs.timepoint_without_times"],
        "trip_distance_exceeds_shape_distance": ["gtfs.trip_distance_exceeds_shape_distance"],
        "trip_distance_exceeds_shape_distance_below_threshold":
            ["gtfs.trip_distance_exceeds_shape_distance_below_threshold"],
        "decreasing_or_equal_stop_time_distance":
            ["gtfs.decreasing_stop_time_distance", "gtfs.equal_stop_time_distance"],
        "start_and_end_range_out_of_order": ["gtfs.calendar_range_out_of_order", "gtfs.feed_info_range_out_of_order",
            "gtfs.departure_before_arrival", "gtfs.invalid_headway"],
    ]

    /// On ../shared feeds, equal to gtfs-guru 1.0.0's counts of the same notices: none on any of them (checked
    /// with scripts/gtfs-parity.py --summary).
    @Test(.needsSharedData) func sharedFeedsCountAsGTFSValidator() throws {
        let data = try #require(TestPaths.sharedData)
        let feeds = ["cairns-2014.zip", "google-sample-feed.zip", "hart-tampa-2018.zip", "milan-atm-2015.zip",
            "nyc-subway-2025.zip", "trimet-portland-2routes-2021.zip", "wmata-dc-2026.zip"]
        for name in feeds {
            let path = data.appendingPathComponent("gtfs/\(name)").path
            let found = try GTFSFixture.runPath(path, display: name)
            for (notice, codes) in Self.codes.sorted(by: { $0.key < $1.key }) {
                let count = codes.reduce(0) { $0 + found.with($1).count }
                #expect(count == 0, "\(name): \(notice), gtfs-guru reports none")
            }
        }
    }
}
