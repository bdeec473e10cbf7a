import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// A transit pack without a timetable is an error by default (issue 21): stop_times.txt with a header and no
/// rows (`gtfs.empty_timetable`, at stop_times.txt:1), and a feed whose services run on no date
/// (`gtfs.no_service_dates`). Through the binary, on a written feed and on a real one.
@Suite(.serialized) struct TimetableRequiredTests {
    /// A GTFS-only city over the example city's feed with `replace` applied; returns (city, outputs).
    static func city(_ replace: [String: String], feedFrom source: URL? = nil) throws -> (URL, URL) {
        let tmp = try TestPaths.temporaryDirectory("timetable")
        let feed = tmp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        if let source {
            let unzip = try OutsideTools.unzip.run(["-q", source.path, "-d", feed.path])
            #expect(unzip.status == 0, "\(unzip.stderr)")
        } else {
            for (path, text) in RuleExampleCity.files where path.hasPrefix("gtfs/") {
                try Data(text.utf8).write(to: feed.appendingPathComponent(String(path.dropFirst(5))))
            }
        }
        for (name, text) in replace { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        let city = tmp.appendingPathComponent("inputs/transit")
        let initResult = try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--id", "transit"])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        return (city, tmp.appendingPathComponent("outputs"))
    }

    static func build(_ city: URL, _ output: URL) throws -> CLIRunner.Result {
        try CLIRunner.runBinary(
            ["build", city.path, "--output", output.path, "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1780000000"])
    }

    @Test func theExampleFeedBuilds() throws {
        let (city, output) = try Self.city([:])
        let result = try Self.build(city, output)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("gtfs.empty_timetable") && !result.stderr.contains("gtfs.no_service_dates"))
    }

    @Test func headerOnlyStopTimesIsALocatedError() throws {
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
        let (city, output) = try Self.city(["stop_times.txt": header])
        let result = try Self.build(city, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains("stop_times.txt:1:1: error: stop_times.txt has no rows"), "\(result.stderr)")
        #expect(result.stderr.contains("[gtfs.empty_timetable]"))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("transit/manifest.json").path))
    }

    @Test func noServiceOnAnyDateIsAnError() throws {
        // Weekday flags that never fall in the range: Monday only, from a Tuesday to the Sunday after.
        let calendar = """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,0,0,0,0,0,0,20260106,20260111

            """
        let (city, output) = try Self.city(["calendar.txt": calendar])
        let result = try Self.build(city, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains("calendar.txt:2:1: error: none of the feed's 1 service runs on any date"), "\(result.stderr)")
        // The same range with Tuesday runs: no error.
        let (ok, okOutput) = try Self.city(["calendar.txt": calendar.replacingOccurrences(of: "WK,1,0", with: "WK,1,1")])
        let fine = try Self.build(ok, okOutput)
        #expect(!fine.stderr.contains("gtfs.no_service_dates"), "\(fine.stderr)")
        // A date added by calendar_dates and removed by another row does not count; one added alone does.
        let dates = "service_id,date,exception_type\nWK,20260301,1\n"
        let (added, addedOutput) = try Self.city(["calendar.txt": calendar, "calendar_dates.txt": dates])
        #expect(!(try Self.build(added, addedOutput)).stderr.contains("gtfs.no_service_dates"))
    }

    /// Milan's real feed (services only in calendar_dates.txt) with its stop_times emptied.
    @Test(.needsSharedData, .needs(OutsideTools.unzip)) func realFeedWithoutRowsIsAnError() throws {
        let data = try #require(TestPaths.sharedData)
        let zip = data.appendingPathComponent("gtfs/milan-atm-2015.zip")
        let (city, output) = try Self.city(
            ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"], feedFrom: zip)
        let result = try Self.build(city, output)
        #expect(result.status == 1)
        #expect(result.stderr.contains("stop_times.txt:1:1: error: stop_times.txt has no rows, so none of the feed's"), "\(result.stderr.suffix(2000))")
    }
}
