import CityPackDiagnostics
import CityPackIngest
import Foundation
import Testing

/// Rules on stop_times.txt (`GTFSValidator+StopTimes.swift`).
@Suite struct GTFSStopTimesRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        Case(code: "gtfs.foreign_key_violation", files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S9,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:3"),
        Case(code: "gtfs.arrival_before_previous_departure",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:05:30,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.only_arrival_or_departure",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:3"),
        Case(code: "gtfs.missing_trip_edge",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,,,S3,3,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.trip_revisits_stop",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S2,3,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.duplicate_stop_sequence",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S3,2,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.decreasing_stop_time_distance",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,1.0\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.fast_travel",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:00:10,08:00:10,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n"),
                "stops.txt": stopsHeader + "S1,One,45.46,9.19,0,\nS2,Two,45.56,9.30,0,\nS3,Three,45.48,9.21,0,\n"],
            at: "feed/stop_times.txt:3"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }

    @Test func stopTimesAreGroupedAndSortedBySequence() throws {
        let dir = try GTFSFixture.write([
            "stop_times.txt": Self.timesHeader + "T1,08:10:00,08:10:00,S3,3,2.6\nT2,25:00:00,25:00:00,S3,1,0\n"
                + "T1,08:00:00,08:00:00,S1,1,0\nT2,25:05:00,25:05:00,S2,2,1.3\nT1,08:05:00,08:06:00,S2,2,1.3\n"
                + "T2,25:10:00,25:10:00,S1,3,2.6\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let feed = try #require(try GTFSReader.read(path: dir.path, displayPath: "feed", bag: DiagnosticBag()))
        let st = feed.stopTimes
        let t1 = st.tripRanges[0]
        #expect(st.byTrip[Int(t1.lowerBound)..<Int(t1.upperBound)].map { st.sequence[Int($0)] } == [1, 2, 3])
        #expect(st.byTrip[Int(t1.lowerBound)..<Int(t1.upperBound)].map { st.line[Int($0)] } == [4, 6, 2])
    }
}
