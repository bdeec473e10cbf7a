import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// A transit-only city in its own words (issue 33, point 7), through the binary: the summary says stops, lines and
/// stop times instead of "0 POIs from 0 nodes, 0 ways"; build-stats gives bytes per stop, not the whole pack per
/// POI; a locale without strings points at the city's own copy file; coordinates never print as `-0.0000`.
@Suite struct TransitOnlyWordingTests {
    /// The rule-example feed plus a served trip between two stops just west of Greenwich, far from the rest.
    static func feed(in tmp: URL) throws -> URL {
        var files: [String: String] = [:]
        for (path, text) in RuleExampleCity.files where path.hasPrefix("gtfs/") { files[String(path.dropFirst(5))] = text }
        files["stops.txt"]! += "L1,Greenwich West,51.4800,-0.00003,0,\nL2,Greenwich Pier,51.4830,-0.00004,0,\n"
        files["routes.txt"]! += "R9,A,9,Greenwich Shuttle,3\n"
        files["trips.txt"]! += "R9,WK,T9,,\n"
        files["stop_times.txt"]! += "T9,10:00:00,10:00:00,L1,1,\nT9,10:10:00,10:10:00,L2,2,\n"
        let feed = tmp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        return feed
    }

    @Test func transitOnlySummaryStatsAndCopyLocation() throws {
        let tmp = try TestPaths.temporaryDirectory("transit-words")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let city = tmp.appendingPathComponent("transit")
        let made = try CLIRunner.runBinary(["init", city.path, "--gtfs", try Self.feed(in: tmp).path, "--id", "transit"], cwd: tmp)
        #expect(made.status == 0, "\(made.stderr)")
        // The far stops are left out of the box; the note gives their extent without a negative zero.
        #expect(made.stderr.contains("spanning [0.0000, 51.4800, 0.0000, 51.4830]"), "\(made.stderr)")
        #expect(!made.stderr.contains("-0.0"), "\(made.stderr)")
        // A locale with no strings and no copy folder: the warning points at the city's copy file.
        let file = city.appendingPathComponent("city.yaml")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "locales: [en]", with: "locales: [en, nl]")
            .write(to: file, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(at: city.appendingPathComponent("copy"))
        let out = tmp.appendingPathComponent("out")
        let built = try CLIRunner.runBinary(["build", city.path, "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1780000000"])
        #expect(built.status == 0, "\(built.stderr)")
        let summary = built.stderr.split(separator: "\n").first { $0.hasPrefix("built ") } ?? ""
        #expect(summary.hasPrefix("built transit: 3 stops, 1 line, 8 stop times read → "), "\(summary)")
        #expect(!summary.contains("POIs"), "\(summary)")
        let stats = try CLIRunner.json(String(contentsOf: out.appendingPathComponent("transit/build-stats.json"), encoding: .utf8))
        #expect(stats["packBytesPerPOI"] == nil)
        #expect((stats["packBytesPerStop"] as? Double ?? 0) > 0)
        let check = try CLIRunner.runBinary(["check", city.path, "--format", "json"], environment: ["SOURCE_DATE_EPOCH": "1780000000"])
        let diagnostics = (try CLIRunner.json(check.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        let copyWarnings = diagnostics.filter { ($0["code"] as? String)?.hasSuffix("missing_translation") == true }
        #expect(!copyWarnings.isEmpty, "\(check.stdout.prefix(2000))")
        for d in copyWarnings {
            let at = (d["location"] as? [String: Any])?["file"] as? String ?? ""
            #expect(at.hasSuffix("transit/copy/nl.yaml") || at == "copy/nl.yaml", "\(d)")
            #expect(!at.contains("templates"), "\(d)")
        }
    }
}
