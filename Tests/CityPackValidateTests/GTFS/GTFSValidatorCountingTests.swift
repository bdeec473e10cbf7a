import CityPackDiagnostics
import CityPackFormat
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: pointToPolylineDistance checks StopTooFarFromShapeRule.distance, an internal helper of the rule.
@testable import CityPackValidate

/// Rules that count as gtfs-validator counts: `gtfs.expired_calendar` (which services) and
/// `gtfs.stop_too_far_from_shape` (once per shape and stop, 100 m). The expected counts on fixtures were taken from
/// gtfs-guru 1.0.0 (`gtfs_guru.validate`) on the same files; on ../shared feeds the counts are pinned below and
/// equal gtfs-guru's (scripts/gtfs-parity.py prints both).
@Suite struct GTFSValidatorCountingTests {
    static let buildDate = (year: 2026, month: 6, day: 1)

    static let trips = """
        route_id,service_id,trip_id
        R1,C1,T1
        R1,D1,T2
        R1,D2,T3

        """
    static let stopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,08:00:00,08:00:00,S1,1
        T1,08:10:00,08:10:00,S2,2
        T2,08:00:00,08:00:00,S1,1
        T2,08:10:00,08:10:00,S2,2
        T3,08:00:00,08:00:00,S1,1
        T3,08:10:00,08:10:00,S2,2

        """
    static func calendar(_ end: String) -> String {
        """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        C1,1,1,1,1,1,1,1,20200101,\(end)

        """
    }
    static func dates(_ d2: String) -> String {
        """
        service_id,date,exception_type
        D1,20200105,1
        D2,\(d2),1

        """
    }

    func expired(_ files: [String: String?]) throws -> [String] {
        var all: [String: String?] = ["trips.txt": Self.trips, "stop_times.txt": Self.stopTimes, "shapes.txt": nil]
        for (k, v) in files { all[k] = v }
        return try GTFSFixture.run(all, buildDate: Self.buildDate).with("gtfs.expired_calendar").compactMap(\.entity)
    }

    /// With calendar.txt rows, only its services are reported: D1, dated only in calendar_dates.txt and past, is
    /// not (gtfs-guru: `C1` only).
    @Test func calendarServicesOnlyWhenCalendarHasRows() throws {
        #expect(try expired(["calendar.txt": Self.calendar("20201231"), "calendar_dates.txt": Self.dates("20200106")])
            == ["service_id=C1"])
        #expect(try expired(["calendar.txt": Self.calendar("20301231"), "calendar_dates.txt": Self.dates("20200106")])
            .isEmpty)
    }

    /// Dated by calendar_dates.txt alone: nothing while D2 still runs, every service once all have ended
    /// (gtfs-guru: none, then D1 and D2). Same with a header-only calendar.txt.
    @Test func calendarDatesOnlyFeedsReportWhenAllEnded() throws {
        let trips = Self.trips.replacingOccurrences(of: "R1,C1,T1\n", with: "R1,D1,T1\n")
        for calendar: String? in [nil, "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"] {
            #expect(try expired(["trips.txt": trips, "calendar.txt": calendar, "calendar_dates.txt": Self.dates("20300105")])
                .isEmpty)
            #expect(try expired(["trips.txt": trips, "calendar.txt": calendar, "calendar_dates.txt": Self.dates("20200106")])
                == ["service_id=D1", "service_id=D2"])
        }
    }

    /// A stop 639 m off the line (computed by hand in a tangent plane) fires once for its (shape, stop) pair though
    /// two trips serve it; a stop 64 m off does not (threshold 100 m, as gtfs-validator).
    @Test func stopFarFromShapeOncePerShapeAndStop() throws {
        // The base shape runs 45.46,9.19 → 45.47,9.20 → 45.48,9.21; S2 moved 0.005° north-west of its point.
        let far = GTFSFixture.base["stops.txt"]!.replacingOccurrences(of: "S2,Two,45.47,9.20", with: "S2,Two,45.475,9.195")
        let found = try GTFSFixture.run(["stops.txt": far]).with("gtfs.stop_too_far_from_shape")
        #expect(found.count == 1, "\(found.summary)")
        let d = try #require(found.first)
        #expect(d.location?.file == "feed/stop_times.txt" && d.location?.line == 3 && d.location?.field == "stop_id")
        #expect(d.message.contains("stop `S2`") && d.message.contains("shape `SH1`"))
        let metres = Int(d.message.split(separator: " ")[3]) ?? 0
        #expect((630...645).contains(metres), "\(d.message)")
        #expect(d.notes.map(\.location?.file) == ["feed/stops.txt", "feed/trips.txt"])

        let near = GTFSFixture.base["stops.txt"]!.replacingOccurrences(of: "S2,Two,45.47,9.20", with: "S2,Two,45.4705,9.1995")
        #expect(try GTFSFixture.run(["stops.txt": near]).with("gtfs.stop_too_far_from_shape").isEmpty)
    }

    /// The point-to-polyline distance against hand-computed figures: perpendicular foot inside a segment, an end
    /// point nearest, and a line across the antimeridian.
    @Test func pointToPolylineDistance() {
        func distance(lat: Double, lon: Double, line: [(Double, Double)]) -> Double {
            StopTooFarFromShapeRule.distance(from: Coordinate(lat: lat, lon: lon),
                to: line.map { Coordinate(lat: $0.0, lon: $0.1) })
        }
        // Equator, 0.001° of latitude north of a segment along it: 111.2 m.
        #expect(abs(distance(lat: 0.001, lon: 0.5, line: [(0, 0), (0, 1)]) - 111.2) < 0.5)
        // Beyond the end: the distance to the end point.
        #expect(abs(distance(lat: 0, lon: 1.001, line: [(0, 0), (0, 1)]) - 111.2) < 0.5)
        // A segment from 179.999 to -179.999 passes the point at 180.
        #expect(distance(lat: 0, lon: 180, line: [(0, 179.999), (0, -179.999)]) < 0.5)
    }

    /// `gtfs.fast_travel` on a feed timed to the second: every fast leg, timed as written (T1: 1.4 km in 20 s; T3:
    /// 30 s and 15 s), and a feed timed to the minute given a minute more (T2: nothing). gtfs-guru 1.0.0 reports
    /// the same three legs of `fast_travel_between_consecutive_stops` on these files.
    @Test func fastTravelCountsEveryLegTimedAsGTFSValidator() throws {
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:00:20,08:00:20,S2,2
            T1,08:01:00,08:01:00,S3,3
            T2,25:00:00,25:00:00,S3,1
            T2,25:00:00,25:00:00,S2,2
            T2,25:01:00,25:01:00,S1,3
            T3,09:00:00,09:00:00,S1,1
            T3,09:00:30,09:00:30,S2,2
            T3,09:00:45,09:00:45,S3,3

            """
        let trips = "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\n"
        let found = try GTFSFixture.run(["stop_times.txt": stopTimes, "trips.txt": trips, "shapes.txt": nil])
            .with("gtfs.fast_travel")
        #expect(found.map(\.location?.line) == [3, 9, 10], "\(found.map(\.message))")
        #expect(found.map(\.entity) == ["trip_id=T1", "trip_id=T3", "trip_id=T3"])
        // The time of a leg: as written to the second, a minute more to the minute, a minute when not positive.
        #expect(FastTravelRule.legSeconds(departure: 0, arrival: 20) == 20)
        #expect(FastTravelRule.legSeconds(departure: 60, arrival: 120) == 120)
        #expect(FastTravelRule.legSeconds(departure: 60, arrival: 60) == 60)
        #expect(FastTravelRule.legSeconds(departure: 60, arrival: 90) == 30)
    }

    /// On ../shared feeds, equal to gtfs-guru 1.0.0's counts of the same notices (checked 2026-11-24).
    @Test(.needsSharedData) func sharedFeedsCountAsGTFSValidator() throws {
        let data = try #require(TestPaths.sharedData)
        let expected: [String: (expired: Int, far: Int)] = [
            "cairns-2014.zip": (4, 5), "google-sample-feed.zip": (2, 0), "hart-tampa-2018.zip": (17, 2),
            "milan-atm-2015.zip": (32, 0), "nyc-subway-2025.zip": (3, 0), "trimet-portland-2routes-2021.zip": (18, 0),
            "wmata-dc-2026.zip": (15, 31),
        ]
        for (name, want) in expected.sorted(by: { $0.key < $1.key }) {
            let path = data.appendingPathComponent("gtfs/\(name)").path
            let found = try GTFSFixture.runPath(path, display: name, buildDate: (year: 2026, month: 11, day: 24))
            #expect(found.with("gtfs.expired_calendar").count == want.expired, "\(name)")
            #expect(found.with("gtfs.stop_too_far_from_shape").count == want.far, "\(name)")
        }
    }
}
