import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// Diagnostics name a source outside the city folder by its folded path (`data/feed/calendar.txt`), not by the
/// joined one (`inputs/c/../../data/feed/calendar.txt`) (issue 21).
@Suite struct DisplayPathTests {
    @Test func pathsOutsideTheCityAreFolded() throws {
        let work = try TestPaths.temporaryDirectory("display-path")
        defer { try? FileManager.default.removeItem(at: work) }
        let feed = work.appendingPathComponent("data/feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        for (path, text) in RuleExampleCity.files where path.hasPrefix("gtfs/") {
            let body = path == "gtfs/calendar.txt" ? RuleExampleCity.edit(text, "WK,1,1,1,1,1,0,0", "WK,0,0,0,0,0,0,0") : text
            try Data(body.utf8).write(to: feed.appendingPathComponent(String(path.dropFirst(5))))
        }
        let city = work.appendingPathComponent("inputs/c")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        try Data("""
            id: c
            name: "C"
            locales: [en]
            bbox: [9.0, 45.0, 9.5, 45.6]
            sources:
              osm: []
              gtfs: ["../../data/feed"]

            """.utf8).write(to: city.appendingPathComponent("city.yaml"))
        let result = try CLIRunner.runBinary(["check", "inputs/c", "--output", "out"], cwd: work)
        #expect(result.status == 1)
        #expect(result.stderr.contains("data/feed/calendar.txt:2:4: warning: service runs on no day of the week"), "\(result.stderr)")
        #expect(!result.stderr.contains("/../"), "\(result.stderr)")
    }
}
