import CityPackTestSupport
import Foundation
import Testing

/// The editors' flow on real feeds, through the binary: every problem at once, errors block the pack unless
/// the city file downgrades the rule, and real feeds build.
@Suite(.serialized, .needsSharedData) struct TransitEndToEndTests {
    static func city(feed: URL, id: String, rules: String? = nil) throws -> (URL, URL) {
        let tmp = try TestPaths.temporaryDirectory("e2e-gtfs-\(id)")
        let city = tmp.appendingPathComponent("inputs/\(id)")
        let result = try CLIRunner.run(["init", city.path, "--gtfs", feed.path, "--id", id])
        #expect(result.status == 0, "\(result.stderr)")
        if let rules {
            let file = city.appendingPathComponent("city.yaml")
            let yaml = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "rules: {}", with: "rules: \(rules)")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
        }
        return (city, tmp.appendingPathComponent("outputs"))
    }

    /// The sample feed has short stop_times rows (lines 17–29): errors, located, and no pack; downgrading the
    /// rule in the city file lets the pack build.
    @Test func errorsBlockThePackUnlessDowngraded() throws {
        let data = try #require(TestPaths.sharedData)
        let feed = data.appendingPathComponent("gtfs/google-sample-feed.zip")
        let (city, output) = try Self.city(feed: feed, id: "sample")
        let check = try CLIRunner.run(["check", city.path, "--output", output.path, "--format", "json"], environment: ["SOURCE_DATE_EPOCH": "1199145600"])
        #expect(check.status == 1)
        let diagnostics = (try CLIRunner.json(check.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        let rows = diagnostics.filter { $0["code"] as? String == "csv.invalid_row_length" }
        #expect(rows.count >= 10, "every short row is reported at once")
        for d in rows {
            let loc = d["location"] as? [String: Any]
            #expect((loc?["file"] as? String)?.hasSuffix("stop_times.txt") == true && (loc?["line"] as? Int ?? 0) >= 17)
        }
        let build = try CLIRunner.run(["build", city.path, "--output", output.path, "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1199145600"])
        #expect(build.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("sample/manifest.json").path))

        let (relaxed, relaxedOut) = try Self.city(feed: feed, id: "sample", rules: "{ csv.invalid_row_length: warning }")
        let ok = try CLIRunner.run(["build", relaxed.path, "--output", relaxedOut.path, "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1199145600"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let manifest = try CLIRunner.json(String(contentsOf: relaxedOut.appendingPathComponent("sample/manifest.json"), encoding: .utf8))
        // Nine stops, two of them (Furnace Creek, Amargosa Valley) 50–70 km from the rest, on lines that serve
        // Beatty: init's box keeps them as termini (issue 33).
        #expect(((manifest["counts"] as? [String: Any])?["stops"] as? Int ?? 0) == 9)
    }

    /// Real feeds build into packs (a transit-only city); departures are served from the pack.
    @Test(arguments: ["trimet-portland-2routes-2021.zip", "nyc-subway-2025.zip", "cairns-2014.zip"])
    func realFeedBuilds(_ name: String) throws {
        let data = try #require(TestPaths.sharedData)
        let (city, output) = try Self.city(feed: data.appendingPathComponent("gtfs/\(name)"), id: "feed")
        let build = try CLIRunner.run(["build", city.path, "--output", output.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr.prefix(3000))")
        #expect(!build.stderr.contains(": error: "))
        let manifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("feed/manifest.json"), encoding: .utf8))
        #expect(((manifest["counts"] as? [String: Any])?["stops"] as? Int ?? 0) > 50)
    }
}
