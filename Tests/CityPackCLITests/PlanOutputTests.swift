import CityPackTestSupport
import Foundation
import Testing

/// `build --dry-run`, `-v` and `build-stats.json` show the compiler's plan, the last two with the time and counts
/// of every stage that ran.
@Suite struct PlanOutputTests {
    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let out = try TestPaths.temporaryDirectory("dry-run")
        let r = try CLIRunner.run(["build", "inputs/monaco", "--output", out.path, "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = [
            "1. ingest OSM: monaco-2021.osm.gz, profile → POIs",
            "2. ingest editorial: editorial → cards, routes",
            "3. ingest copy: template copy, copy → copy",
            "4. validate: POIs, cards, routes, copy, profile → diagnostics, POIs kept, cards, routes kept",
            "5. index+emit: POIs kept, cards, routes kept, copy, profile, monaco-2021.osm.gz, editorial, copy → "
                + "\(out.path)/monaco/monaco-N.citypack.gz, \(out.path)/monaco/monaco-N.manifest.json, "
                + "\(out.path)/monaco/manifest.json, \(out.path)/monaco/copy/, \(out.path)/monaco/web/, \(out.path)/catalog.json",
        ]
        #expect(r.stdout == expected.joined(separator: "\n") + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    @Test func dryRunOfABrokenCityFileFails() throws {
        let dir = try TestPaths.temporaryDirectory("dry-run-broken")
        try "id: monaco\n".write(to: dir.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        let r = try CLIRunner.run(["build", dir.path, "--dry-run"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.isEmpty && r.stderr.contains("city.yaml"), "\(r.stderr)")
    }

    @Test func buildStatsListThePlanAndTheStagesThatRan() throws {
        let out = try TestPaths.temporaryDirectory("plan-stats")
        let r = try CLIRunner.run(["build", "Tests/Fixtures/diagnostics/city", "--output", out.path, "-v", "--quiet"])
        #expect(r.status == 1, "the fixture has errors")
        let stats = try CLIRunner.json(String(contentsOf: out.appendingPathComponent("diagcity/build-stats.json"), encoding: .utf8))
        let plan = stats["plan"] as? [[String: Any]] ?? []
        #expect(
            plan.map { $0["stage"] as? String } == [
                "ingestOSM", "ingestGTFS", "ingestEditorial", "ingestCopy", "validate", "emit",
            ])
        #expect(plan.map { $0["ran"] as? Bool } == [true, true, true, true, true, false], "errors stop the build before emit")
        #expect(plan.dropLast().allSatisfy { $0["seconds"] is Double && $0["counts"] is [String: Any] })
        #expect(plan.last?["seconds"] == nil && plan.last?["phase"] as? String == "index+emit")
        #expect(plan[1]["inputs"] as? [String] == ["gtfs"] && plan[1]["outputs"] as? [String] == ["stops, timetables"])
        #expect((plan[1]["counts"] as? [String: Any])?["stopTimes"] as? Int == 3)
        // The per-phase summary is unchanged; -v lists each stage that ran, with the same counts.
        #expect((stats["stages"] as? [[String: Any]])?.map { $0["name"] as? String } == ["ingest", "validate"])
        #expect(r.stderr.contains("  ingest GTFS     ") && r.stderr.contains("stopTimes=3"), "\(r.stderr)")
        #expect(!r.stderr.contains("  index+emit"), "\(r.stderr)")
    }
}
