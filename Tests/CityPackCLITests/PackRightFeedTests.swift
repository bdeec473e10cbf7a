import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// By default only problems that make the pack wrong block it (issue 33, point 4): a dangling parent_station
/// (the stop is kept, the link dropped), a last stop's shape_dist_traveled past its shape's (the pack carries no
/// shapes) and a lone CR ending a file (read as a row end, as gtfs-validator does) are warnings that say why;
/// `--werror` and the rule settings still make them errors. Through the binary.
@Suite(.serialized) struct PackRightFeedTests {
    /// The rule-example feed with the three problems written in; returns (city, outputs).
    static func city() throws -> (URL, URL) {
        let tmp = try TestPaths.temporaryDirectory("pack-right")
        let feed = tmp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        var files: [String: String] = [:]
        for (path, text) in RuleExampleCity.files where path.hasPrefix("gtfs/") { files[String(path.dropFirst(5))] = text }
        files["stops.txt"] = RuleExampleCity.edit(files["stops.txt"]!, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,GONE\n")
        files["stop_times.txt"] = RuleExampleCity.edit(files["stop_times.txt"]!, "S1,3,2.8", "S1,3,2.9")
        files["routes.txt"] = RuleExampleCity.edit(files["routes.txt"]!, "Larvotto,3\n", "Larvotto,3\r")
        for (name, text) in files { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        let city = tmp.appendingPathComponent("inputs/transit")
        let initResult = try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--id", "transit"])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        return (city, tmp.appendingPathComponent("outputs"))
    }

    static func build(_ city: URL, _ output: URL, _ extra: [String] = []) throws -> CLIRunner.Result {
        try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--max-per-rule", "0"] + extra,
            environment: ["SOURCE_DATE_EPOCH": "1780000000"])
    }

    @Test func warningsThatSayWhyAndThePackKeepsTheStop() throws {
        let (city, output) = try Self.city()
        defer { try? FileManager.default.removeItem(at: city.deletingLastPathComponent().deletingLastPathComponent()) }
        let r = try Self.build(city, output)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains(": error: "), "\(r.stderr)")
        #expect(r.stderr.contains("stops.txt:3:24: warning: parent_station `GONE` is not defined in stops.txt; the pack keeps the stop without a station (gtfs-validator: error, foreign_key_violation) [gtfs.dangling_parent_station]"), "\(r.stderr)")
        #expect(r.stderr.contains("(gtfs-validator: error; a warning here since the pack carries no shapes) [gtfs.trip_distance_exceeds_shape_distance]"), "\(r.stderr)")
        #expect(r.stderr.contains("warning: bare carriage return (CR without LF): read as a row end, as gtfs-validator reads it; rows should end with LF or CRLF [csv.bare_carriage_return]"), "\(r.stderr)")
        // The reference rules ran on the file with the lone CR (nothing says they did not).
        #expect(!r.stderr.contains("pack.rules_not_run"), "\(r.stderr)")
        // All three stops are in the pack, Casino among them, and it answers departures.
        let manifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("transit/manifest.json"), encoding: .utf8))
        #expect((manifest["counts"] as? [String: Any])?["stops"] as? Int == 3)
        let departures = try CLIRunner.runBinary(["query", output.appendingPathComponent("transit/manifest.json").path,
            "--departures", "S2", "--at", "2026-06-01 07:00", "--limit", "1", "--format", "json"])
        #expect(departures.status == 0, "\(departures.stderr)")
        #expect(departures.stdout.contains("08:06"), "\(departures.stdout)")
    }

    @Test func werrorAndRuleSettingsStillRefuse() throws {
        let (city, output) = try Self.city()
        defer { try? FileManager.default.removeItem(at: city.deletingLastPathComponent().deletingLastPathComponent()) }
        let strict = try Self.build(city, output, ["--werror"])
        #expect(strict.status == 1)
        for code in ["gtfs.dangling_parent_station", "gtfs.trip_distance_exceeds_shape_distance", "csv.bare_carriage_return"] {
            #expect(strict.stderr.contains("error: ") && strict.stderr.contains("[\(code)]"), "\(code): \(strict.stderr)")
        }
        let one = try Self.build(city, output, ["--rule", "gtfs.dangling_parent_station=error"])
        #expect(one.status == 1)
        #expect(one.stderr.contains(": error: parent_station `GONE`"), "\(one.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("transit/manifest.json").path))
    }
}
