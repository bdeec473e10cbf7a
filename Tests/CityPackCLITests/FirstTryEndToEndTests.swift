import CityPackDiagnostics
import CityPackFormat
import CityPackTestSupport
import Foundation
import Testing

/// Real extracts and new locales build on the first try, through the binary (issue 11): an extract cut at its
/// edge, locales without templates, negative coordinates on the command line, and `check` reporting every
/// problem at once.
@Suite(.serialized) struct FirstTryEndToEndTests {
    /// Milan's bbox extract has POI ways whose nodes lie partly outside the file: init + build succeed, and every
    /// such POI is either in the pack (placed on the nodes present) or named in a warning as left out.
    @Test(.needsSharedData)
    func milanExtractCutAtItsEdgeBuilds() throws {
        let data = try #require(TestPaths.sharedData)
        let tmp = try TestPaths.temporaryDirectory("first-try-milan")
        let city = tmp.appendingPathComponent("inputs/milan"), output = tmp.appendingPathComponent("outputs")
        let initResult = try CLIRunner.runBinary([
            "init", city.path, "--osm", data.appendingPathComponent("osm/milan-2015.osm.gz").path,
            "--gtfs", data.appendingPathComponent("gtfs/milan-atm-2015.zip").path, "--locales", "it,en",
        ])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        let build = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet", "--format", "json"])
        #expect(build.status == 0, "\(build.stderr.prefix(2000))")
        let diagnostics = (try CLIRunner.json(build.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        #expect(!diagnostics.contains { $0["severity"] as? String == "error" })
        let cut = diagnostics.filter { $0["code"] as? String == "osm.missing_referenced_node" }
        #expect(cut.count == 87, "the extract has 87 POI ways cut at its edge")
        #expect(cut.allSatisfy { $0["severity"] as? String == "warning" })
        let leftOut = Set(cut.filter { ($0["message"] as? String)?.contains("left out") == true }.compactMap { $0["entity"] as? String })
        let placed = Set(cut.compactMap { $0["entity"] as? String }).subtracting(leftOut)
        let manifest = output.appendingPathComponent("milan/manifest.json")
        let inspect = try CLIRunner.runBinary(["inspect", manifest.path, "--pois", "--format", "json"])
        let inPack = Set(((try CLIRunner.json(inspect.stdout)["results"] as? [[String: Any]]) ?? []).compactMap { $0["osm"] as? String })
        let outsideBBox = Set(diagnostics.filter { $0["code"] as? String == "osm.poi_outside_bbox" }.compactMap { $0["entity"] as? String })
        for ref in placed { #expect(inPack.contains(ref) || outsideBBox.contains(ref), "\(ref) is placed but neither in the pack nor reported") }
        for ref in leftOut { #expect(!inPack.contains(ref)) }
        #expect(placed.count + leftOut.count == 87)
        let counts = try CLIRunner.json(String(contentsOf: manifest, encoding: .utf8))["counts"] as? [String: Any]
        #expect((counts?["stops"] as? Int ?? 0) == 516)
    }

    /// `--locales fi,sv,en`: no template speaks fi or sv. init says so and writes copy/fi.yaml and copy/sv.yaml
    /// to translate; build succeeds with warnings; every platform file carries every required key.
    @Test func localesWithoutTemplatesBuild() throws {
        let tmp = try TestPaths.temporaryDirectory("first-try-locales")
        let city = tmp.appendingPathComponent("inputs/helsinki"), output = tmp.appendingPathComponent("outputs")
        let osm = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz")
        let initResult = try CLIRunner.runBinary(["init", city.path, "--osm", osm.path, "--locales", "fi,sv,en"])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        #expect(initResult.stderr.contains("no template copy for fi, sv"), "\(initResult.stderr)")
        let scaffold = try String(contentsOf: city.appendingPathComponent("copy/fi.yaml"), encoding: .utf8)
        #expect(scaffold.contains("# offline.weak_network.title: \"Weak connection\""), "\(scaffold.prefix(600))")
        #expect(FileManager.default.fileExists(atPath: city.appendingPathComponent("copy/sv.yaml").path))
        #expect(!FileManager.default.fileExists(atPath: city.appendingPathComponent("copy/en.yaml").path))

        let build = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr.suffix(2000))")
        #expect(build.stderr.contains("[copy.missing_translation]"))
        #expect(!build.stderr.contains("copy.missing_required_key"))
        let copy = output.appendingPathComponent("helsinki/copy")
        let catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: copy.appendingPathComponent("apple/Localizable.xcstrings"))) as? [String: Any])
        #expect(catalog["sourceLanguage"] as? String == "fi")
        let strings = catalog["strings"] as? [String: Any] ?? [:]
        let web = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: copy.appendingPathComponent("web/fi.json"))) as? [String: Any])
        let android = try String(contentsOf: copy.appendingPathComponent("android/values-fi/strings.xml"), encoding: .utf8)
        let androidDefault = try String(contentsOf: copy.appendingPathComponent("android/values/strings.xml"), encoding: .utf8)
        #expect(android == androidDefault)
        for key in Self.requiredKeys {
            let fi = (((strings[key] as? [String: Any])?["localizations"] as? [String: Any])?["fi"] as? [String: Any])?["stringUnit"] as? [String: Any]
            #expect(fi?["state"] as? String == "needs_review", "\(key) in the String Catalog")
            #expect((fi?["value"] as? String)?.isEmpty == false)
            #expect(web[key] is String, "\(key) in web/fi.json")
            #expect(android.contains("<string name=\"\(key.replacingOccurrences(of: ".", with: "_"))\""), "\(key) in values-fi")
        }
        let report = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("helsinki/report.json"), encoding: .utf8))
        let fallbacks = report["copyFallbacks"] as? [String: [String: String]] ?? [:]
        #expect(fallbacks["fi"]?["offline.weak_network.title"] == "en")
        #expect(fallbacks["sv"]?["offline.weak_network.title"] == "en", "the text sv shows is en")
        #expect(fallbacks["en"] == nil)

        // Strict for CI: --werror makes the fallbacks errors.
        let strict = try CLIRunner.runBinary(["check", city.path, "--output", output.path, "--quiet", "--werror"])
        #expect(strict.status == 1)
    }

    static let requiredKeys: [String] = {
        var keys: [String] = []
        for state in ["fully_offline", "weak_network", "no_pack_online", "no_pack_offline", "downloading", "update_available"] {
            for part in ["title", "message", "action"] { keys.append("offline.\(state).\(part)") }
        }
        for error in ["locate_timeout", "locate_low_accuracy", "permission_denied", "network_offline", "analyze_timeout", "analyze_http_error"] {
            keys += ["error.\(error).message", "error.\(error).action"]
        }
        return keys
    }()

    /// West of Greenwich: `--bbox` and `query --near` take values that start with '-'.
    @Test func negativeCoordinatesOnTheCommandLine() throws {
        let tmp = try TestPaths.temporaryDirectory("first-try-west")
        let city = tmp.appendingPathComponent("inputs/west"), output = tmp.appendingPathComponent("outputs")
        let osm = tmp.appendingPathComponent("west.osm")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6" generator="test">
              <node id="1" lat="36.5000000" lon="-116.8000000" version="1" timestamp="2024-01-01T00:00:00Z">
                <tag k="amenity" v="toilets"/>
              </node>
            </osm>

            """.write(to: osm, atomically: true, encoding: .utf8)
        let initResult = try CLIRunner.runBinary(["init", city.path, "--osm", osm.path, "--bbox", "-117.2,36.3,-116.4,37.0"])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        let yaml = try String(contentsOf: city.appendingPathComponent("city.yaml"), encoding: .utf8)
        #expect(yaml.contains("bbox: [-117.2000000, 36.3000000, -116.4000000, 37.0000000]"), "\(yaml)")
        let build = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let manifest = output.appendingPathComponent("west/manifest.json").path
        let query = try CLIRunner.runBinary(["query", manifest, "--near", "36.5,-116.8", "--radius", "25", "--format", "json"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(((try CLIRunner.json(query.stdout)["results"] as? [[String: Any]]) ?? []).count == 1)
        let south = try CLIRunner.runBinary(["query", manifest, "--near", "-33.86,151.2", "--format", "json"])
        #expect(south.status == 0, "\(south.stderr)")
        #expect(((try CLIRunner.json(south.stdout)["results"] as? [[String: Any]]) ?? []).isEmpty)
        #expect(try CLIRunner.runBinary(["init", tmp.appendingPathComponent("bad").path, "--osm", osm.path, "--bbox", "-117.2,36.3"]).status == 64)
    }

    /// A stops.txt row that cannot be read does not hide the other tables' problems: the route rule fires too,
    /// references into stops.txt are not judged (no cascade of foreign-key errors), and the finding that says so
    /// names the table.
    @Test func checkReportsRuleFindingsDespiteReadingErrors() throws {
        let tmp = try TestPaths.temporaryDirectory("first-try-check")
        let city = tmp.appendingPathComponent("inputs/example")
        var files = RuleExampleCity.files
        files["gtfs/stops.txt"] = RuleExampleCity.edit(RuleExampleCity.stops, "S2,Casino,43.74,7.42,0,\n", "S2,Casino,43.74,7.42,0,,x\n")
        files["gtfs/routes.txt"] = RuleExampleCity.edit(RuleExampleCity.routes, "R1,A,1,Port – Larvotto,3", "R1,A,Port,Port,3")
        for (path, text) in files {
            let url = city.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let check = try CLIRunner.runBinary(
            ["check", city.path, "--output", tmp.appendingPathComponent("outputs").path, "--format", "json"],
            environment: ["SOURCE_DATE_EPOCH": "1780272000"])
        #expect(check.status == 1)
        let diagnostics = (try CLIRunner.json(check.stdout)["diagnostics"] as? [[String: Any]]) ?? []
        let codes = Set(diagnostics.compactMap { $0["code"] as? String })
        #expect(codes.contains("csv.invalid_row_length"))
        #expect(codes.contains("gtfs.route_short_long_name_equal"), "rules on the other tables ran: \(codes)")
        #expect(!codes.contains("gtfs.foreign_key_violation"), "stop_times' references to the unread stop are not judged")
        let notRun = diagnostics.filter { $0["code"] as? String == "pack.rules_not_run" }
        #expect(notRun.count == 1)
        #expect((notRun.first?["message"] as? String)?.hasPrefix("stops.txt had reading errors") == true, "\(notRun)")

        // Without the reading error the same check has no rules_not_run finding.
        try RuleExampleCity.stops.write(to: city.appendingPathComponent("gtfs/stops.txt"), atomically: true, encoding: .utf8)
        let clean = try CLIRunner.runBinary(
            ["check", city.path, "--output", tmp.appendingPathComponent("outputs").path, "--format", "json"],
            environment: ["SOURCE_DATE_EPOCH": "1780272000"])
        let cleanCodes = Set(((try CLIRunner.json(clean.stdout)["diagnostics"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String })
        #expect(cleanCodes == ["gtfs.route_short_long_name_equal"], "\(cleanCodes)")
        #expect(clean.status == 0)
    }
}
