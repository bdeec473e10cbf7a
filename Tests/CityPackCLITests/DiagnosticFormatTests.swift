import CityPackCompiler
import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// Goldens of every diagnostic format on a city with problems in OSM, GTFS, CSV (GTFS and editorial) and copy
/// (`Tests/Fixtures/diagnostics/city`), run through the built binary. `RECORD_GOLDENS=1` rewrites them (and fails).
@Suite(.serialized) struct DiagnosticFormatTests {
    static let city = "Tests/Fixtures/diagnostics/city"
    static let expected = TestPaths.root.appendingPathComponent("Tests/Fixtures/diagnostics/expected")
    static let environment = ["SOURCE_DATE_EPOCH": "1704067200", "NO_COLOR": "1"]

    static func check(_ extra: [String], output: URL? = nil) throws -> CLIRunner.Result {
        let out = try output ?? TestPaths.temporaryDirectory("diag-out")
        return try CLIRunner.run(["check", city, "--output", out.path] + extra, environment: environment)
    }

    static func assertGolden(_ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = expected.appendingPathComponent(name)
        if RecordMode.isOn(RecordMode.goldens) {
            try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            RecordMode.recorded(name, by: RecordMode.goldens, sourceLocation: sourceLocation)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == golden, "\(name) differs from its golden:\n\(actual)", sourceLocation: sourceLocation)
    }

    /// SARIF without the rule table and rule indexes (which change whenever a rule is added to the
    /// catalogue); ``sarifCarriesEveryRequiredField`` checks those against the catalogue instead.
    static func normalisedSARIF(_ text: String) throws -> String {
        var log = try CLIRunner.json(text)
        var runs = log["runs"] as? [[String: Any]] ?? []
        var tool = runs[0]["tool"] as? [String: Any] ?? [:]
        var driver = tool["driver"] as? [String: Any] ?? [:]
        driver["rules"] = "(the rule catalogue, \(RuleCatalog.all.count > 0 ? "checked separately" : "empty"))"
        tool["driver"] = driver
        runs[0]["tool"] = tool
        runs[0]["results"] = (runs[0]["results"] as? [[String: Any]] ?? []).map { r in
            var r = r
            r.removeValue(forKey: "ruleIndex")
            return r
        }
        log["runs"] = runs
        let data = try JSONSerialization.data(withJSONObject: log, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    @Test func humanGolden() throws {
        let r = try Self.check([])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.contains("\u{1B}"), "colour on a pipe")
        try Self.assertGolden(r.stderr, "check.human.txt")
    }

    @Test func jsonGolden() throws {
        let out = try TestPaths.temporaryDirectory("diag-json")
        let r = try Self.check(["--format", "json"], output: out)
        #expect(r.status == 1)
        try Self.assertGolden(r.stdout, "check.json")
        // report.json is the same document, written even though the check failed.
        let report = try String(contentsOf: out.appendingPathComponent("diagcity/report.json"), encoding: .utf8)
        #expect(report == r.stdout)
        let doc = try CLIRunner.json(r.stdout)
        #expect(doc["version"] as? Int == 1)
        let summary = doc["summary"] as? [String: Any] ?? [:]
        #expect(summary["errors"] as? Int == 3 && summary["warnings"] as? Int == 6 && summary["files"] as? Int == 5)
        let codes = Set((doc["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String })
        // Problems from every source: OSM, GTFS (validation), CSV (the scanner), editorial CSV and copy YAML.
        #expect(codes.contains("osm.duplicate_poi") && codes.contains("gtfs.arrival_before_previous_departure")
            && codes.contains("csv.leading_or_trailing_whitespace") && codes.contains("editorial.route_implausible_leg")
            && codes.contains("copy.placeholder_mismatch") && codes.contains("copy.padded_text"))
    }

    @Test func sarifGolden() throws {
        let r = try Self.check(["--format", "sarif"])
        #expect(r.status == 1)
        try Self.assertGolden(try Self.normalisedSARIF(r.stdout), "check.sarif.json")
    }

    @Test func githubGolden() throws {
        let r = try Self.check(["--format", "github"])
        #expect(r.status == 1)
        try Self.assertGolden(r.stdout, "check.github.txt")
        for line in r.stdout.split(separator: "\n") {
            #expect(line.hasPrefix("::error file=") || line.hasPrefix("::warning file=") || line.hasPrefix("::notice file="), "\(line)")
        }
    }

    /// Every property SARIF 2.1.0 requires (sarifLog: version, runs; run: tool; tool: driver; toolComponent:
    /// name; reportingDescriptor: id; result: message; message: text; multiformatMessageString: text;
    /// physicalLocation: artifactLocation; region: startLine ≥ 1; invocation: executionSuccessful), plus what
    /// GitHub code scanning reads (ruleId, level, partialFingerprints, relative uri with uriBaseId) and what
    /// this project promises (rule metadata for every catalogued rule, ruleIndex pointing at the right rule).
    @Test func sarifCarriesEveryRequiredField() throws {
        let r = try Self.check(["--format", "sarif"])
        let log = try CLIRunner.json(r.stdout)
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
        let runs = log["runs"] as? [[String: Any]] ?? []
        try #require(runs.count == 1)
        let run = runs[0]
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any] ?? [:]
        #expect(driver["name"] as? String == "citypack")
        #expect(driver["version"] as? String != nil && driver["informationUri"] as? String != nil)
        let rules = driver["rules"] as? [[String: Any]] ?? []
        #expect(rules.map { $0["id"] as? String } == RuleCatalog.all.map(\.code))
        let levels: Set<String> = ["error", "warning", "note", "none"]
        for rule in rules {
            let id = rule["id"] as? String ?? "?"
            #expect(rule["name"] as? String != nil, "\(id) name")
            for key in ["shortDescription", "fullDescription", "help"] {
                #expect(((rule[key] as? [String: Any])?["text"] as? String)?.isEmpty == false, "\(id) \(key).text")
            }
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String ?? ""
            #expect(levels.contains(level), "\(id) defaultConfiguration.level")
        }
        let invocations = run["invocations"] as? [[String: Any]] ?? []
        #expect(invocations.first?["executionSuccessful"] as? Bool == true)
        let artifacts = (run["artifacts"] as? [[String: Any]] ?? []).compactMap { ($0["location"] as? [String: Any])?["uri"] as? String }
        #expect(artifacts == artifacts.sorted() && artifacts.count == 6, "\(artifacts)")
        let results = run["results"] as? [[String: Any]] ?? []
        #expect(results.count == 11)
        for result in results {
            let ruleID = result["ruleId"] as? String ?? "?"
            #expect(levels.contains(result["level"] as? String ?? ""), "\(ruleID) level")
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let index = result["ruleIndex"] as? Int ?? -1
            #expect(index >= 0 && index < rules.count && rules[index]["id"] as? String == ruleID, "\(ruleID) ruleIndex")
            let fingerprints = result["partialFingerprints"] as? [String: String] ?? [:]
            #expect(fingerprints[Diagnostic.fingerprintVersion]?.count == 32)
            let locations = result["locations"] as? [[String: Any]] ?? []
            try #require(locations.count == 1, "\(ruleID) location")
            let physical = locations[0]["physicalLocation"] as? [String: Any] ?? [:]
            let artifact = physical["artifactLocation"] as? [String: Any] ?? [:]
            let uri = artifact["uri"] as? String ?? ""
            #expect(uri.hasPrefix("Tests/Fixtures/diagnostics/city/") && artifact["uriBaseId"] as? String == "SRCROOT")
            #expect(artifacts.firstIndex(of: uri) == artifact["index"] as? Int, "artifact index of \(uri)")
            let region = physical["region"] as? [String: Any] ?? [:]
            #expect((region["startLine"] as? Int ?? 0) >= 1 && (region["startColumn"] as? Int ?? 0) >= 1, "\(ruleID) region")
            for related in result["relatedLocations"] as? [[String: Any]] ?? [] {
                #expect(((related["message"] as? [String: Any])?["text"] as? String) != nil)
                let startLine = ((related["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int
                #expect((startLine ?? 0) >= 1)
            }
        }
        // Notes travel as related locations: the previous stop_time of the backwards arrival.
        let backwards = results.first { $0["ruleId"] as? String == "gtfs.arrival_before_previous_departure" }
        let related = backwards?["relatedLocations"] as? [[String: Any]] ?? []
        #expect(related.contains { ($0["message"] as? [String: Any])?["text"] as? String == "previous stop_time departs here" })
    }

    /// The official JSON schema, when a copy is available (``TestPaths/sarifSchema``) and Debian's python3 has
    /// jsonschema: a full validation of the log. Reported as skipped otherwise (the structural test above always
    /// runs); `scripts/install-deps.sh --tests` (run by .ci/run) provides both.
    @Test(
        .enabled(
            if: TestPaths.sarifSchema != nil,
            "needs the official SARIF 2.1.0 schema: scripts/install-deps.sh --tests puts it in .deps/ (or set SARIF_SCHEMA=path)"),
        .needs(OutsideTools.pythonJSONSchema))
    func sarifValidatesAgainstTheOfficialSchemaWhenAvailable() throws {
        let schema = try #require(TestPaths.sarifSchema)
        let r = try Self.check(["--format", "sarif"])
        let dir = try TestPaths.temporaryDirectory("diag-sarif")
        let file = dir.appendingPathComponent("out.sarif")
        try Data(r.stdout.utf8).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try OutsideTools.pythonJSONSchema.require())
        p.arguments = ["-c", "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))", file.path, schema]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    @Test func maxErrorsStopsListingWithANote() throws {
        let r = try Self.check(["--max-errors", "1"])
        #expect(r.status == 1)
        let errorLines = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errorLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("citypack: note: 2 more errors, 6 more warnings, 2 more infos not shown (--max-errors 1)"), "\(r.stderr)")
        #expect(r.stderr.contains("3 errors, 6 warnings, 2 infos in 5 files"), "the summary still counts all: \(r.stderr)")
    }

    @Test func ruleOverridesOnTheCommandLineBeatTheCityFile() throws {
        // The city file makes osm.duplicate_poi an error; the command line makes it a warning again, switches
        // the GTFS error off and makes the copy placeholder mismatch a warning: no error remains.
        let relaxed = try Self.check([
            "--rule", "osm.duplicate_poi=warning", "--rule", "gtfs.arrival_before_previous_departure=off",
            "--rule", "copy.placeholder_mismatch=warning", "--format", "json",
        ])
        #expect(relaxed.status == 0, "\(relaxed.stderr)")
        let doc = try CLIRunner.json(relaxed.stdout)
        let items = doc["diagnostics"] as? [[String: Any]] ?? []
        #expect(items.first { $0["code"] as? String == "osm.duplicate_poi" }?["severity"] as? String == "warning")
        #expect(!items.contains { $0["code"] as? String == "gtfs.arrival_before_previous_departure" })
        #expect(items.first { $0["code"] as? String == "copy.placeholder_mismatch" }?["severity"] as? String == "warning")
        // --werror turns the remaining warnings into errors, those found while reading too; validation still runs
        // on what was read (one run shows every problem) and says what it could not check (pack.rules_not_run).
        let strict = try Self.check([
            "--rule", "osm.duplicate_poi=warning", "--rule", "gtfs.arrival_before_previous_departure=off", "--werror",
        ])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("8 errors, 0 warnings, 4 infos in 5 files"), "\(strict.stderr)")
        #expect(strict.stderr.contains("[copy.padded_text]") && strict.stderr.contains("[pack.rules_not_run]"))
        #expect(strict.stderr.contains("error: value has leading or trailing whitespace; trimmed [csv.leading_or_trailing_whitespace]"))
        // Unknown codes and levels are usage errors.
        #expect(try Self.check(["--rule", "osm.no_such_rule=off"]).status == 64)
        #expect(try Self.check(["--rule", "osm.duplicate_poi=loud"]).status == 64)
    }

    /// A baseline silences known problems by code + entity (not line), so moving rows keeps them silenced;
    /// fixing one lists the entry as fixed.
    @Test func baselineSurvivesMovedLinesAndReportsFixedEntries() throws {
        let tmp = try TestPaths.temporaryDirectory("diag-baseline")
        let city = tmp.appendingPathComponent("city")
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent(Self.city), to: city)
        let baseline = tmp.appendingPathComponent("baseline.json")
        let out = tmp.appendingPathComponent("out")
        let write = try CLIRunner.run(
            ["check", city.path, "--output", out.path, "--write-baseline", baseline.path], environment: Self.environment)
        #expect(write.status == 1)
        let entries = (try CLIRunner.json(String(contentsOf: baseline, encoding: .utf8))["entries"] as? [[String: Any]]) ?? []
        #expect(entries.count == 11)
        #expect(entries.allSatisfy { ($0["file"] as? String)?.hasPrefix("/") == false }, "file names relative to the city")

        let clean = try CLIRunner.run(["check", city.path, "--output", out.path, "--baseline", baseline.path], environment: Self.environment)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr.contains("0 errors, 0 warnings in 0 files; 11 silenced by the baseline, 0 baseline entries fixed"), "\(clean.stderr)")

        // Move every OSM element down two lines and fix the missing name of n3.
        let map = city.appendingPathComponent("map.osm")
        var xml = try String(contentsOf: map, encoding: .utf8)
        xml = xml.replacingOccurrences(of: "<osm version=\"0.6\" generator=\"fixture\">\n", with: "<osm version=\"0.6\" generator=\"fixture\">\n  <!-- moved -->\n  <!-- down -->\n")
        xml = xml.replacingOccurrences(of: "\t<tag k=\"amenity\" v=\"restaurant\"/>\n", with: "\t<tag k=\"amenity\" v=\"restaurant\"/>\n    <tag k=\"name\" v=\"Chez Nous\"/>\n")
        try xml.write(to: map, atomically: true, encoding: .utf8)
        let after = try CLIRunner.run(
            ["check", city.path, "--output", out.path, "--baseline", baseline.path, "--format", "json"], environment: Self.environment)
        #expect(after.status == 0, "\(after.stderr)")
        let doc = try CLIRunner.json(after.stdout)
        #expect((doc["diagnostics"] as? [Any])?.count == 0, "\(after.stdout)")
        let outcome = doc["baseline"] as? [String: Any] ?? [:]
        #expect(outcome["silenced"] as? Int == 10)
        let fixed = outcome["fixed"] as? [[String: Any]] ?? []
        #expect(fixed.count == 1 && fixed.first?["code"] as? String == "osm.poi_missing_name" && fixed.first?["entity"] as? String == "n3")

        // A new problem is not silenced: duplicate n4's position.
        xml = xml.replacingOccurrences(of: "</osm>", with: "  <node id=\"5\" lat=\"43.74001234567\" lon=\"7.4300\"><tag k=\"amenity\" v=\"atm\"/><tag k=\"name\" v=\"B2\"/></node>\n</osm>")
        try xml.write(to: map, atomically: true, encoding: .utf8)
        let fresh = try CLIRunner.run(["check", city.path, "--output", out.path, "--baseline", baseline.path], environment: Self.environment)
        #expect(fresh.status == 1)
        #expect(fresh.stderr.contains("[osm.duplicate_poi]"))
        // A missing baseline file is missing input; a file that is not a baseline is a usage error.
        #expect(try CLIRunner.run(["check", city.path, "--output", out.path, "--baseline", tmp.appendingPathComponent("nope.json").path]).status == 66)
        #expect(try CLIRunner.run(["check", city.path, "--output", out.path, "--baseline", map.path]).status == 64)
    }

    /// Same inputs, same report bytes (report.json and report.html); build-stats.json carries timings.
    @Test func reportsAreDeterministicAndAtomic() throws {
        let a = try TestPaths.temporaryDirectory("diag-det-a"), b = try TestPaths.temporaryDirectory("diag-det-b")
        _ = try Self.check([], output: a)
        _ = try Self.check([], output: b)
        for file in ["report.json", "report.html"] {
            let x = try Data(contentsOf: a.appendingPathComponent("diagcity/\(file)"))
            let y = try Data(contentsOf: b.appendingPathComponent("diagcity/\(file)"))
            #expect(x == y, "\(file) differs between runs")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: a.appendingPathComponent("diagcity").path).sorted()
        #expect(names == ["build-stats.json", "report.html", "report.json"], "no temporary files left: \(names)")
        let stats = try CLIRunner.json(String(contentsOf: a.appendingPathComponent("diagcity/build-stats.json"), encoding: .utf8))
        let stages = stats["stages"] as? [[String: Any]] ?? []
        #expect(stages.map { $0["name"] as? String } == ["ingest", "validate"])
        #expect((stages.first?["counts"] as? [String: Any])?["stopTimes"] as? Int == 3)
    }
}

/// The GitHub problem matcher shipped in docs/ recognises every diagnostic line of the human format.
@Suite struct ProblemMatcherTests {
    @Test func matchesEveryDiagnosticLineOfTheHumanGolden() throws {
        let matcherURL = TestPaths.root.appendingPathComponent("docs/citypack-problem-matcher.json")
        let matcher = try CLIRunner.json(String(contentsOf: matcherURL, encoding: .utf8))
        let pattern = (((matcher["problemMatcher"] as? [[String: Any]])?.first?["pattern"] as? [[String: Any]])?.first) ?? [:]
        let regex = try NSRegularExpression(pattern: try #require(pattern["regexp"] as? String))
        let golden = try String(contentsOf: DiagnosticFormatTests.expected.appendingPathComponent("check.human.txt"), encoding: .utf8)
        var matched = 0
        for line in golden.split(separator: "\n").map(String.init) {
            let ns = line as NSString
            let m = regex.firstMatch(in: line, range: NSRange(location: 0, length: ns.length))
            let isDiagnostic = line.contains(": error: ") || line.contains(": warning: ") || line.contains(": info: ")
            let isFinding = isDiagnostic && !line.hasPrefix("citypack:")
            #expect((m != nil) == isFinding, "\(line)")
            guard let m else { continue }
            matched += 1
            func group(_ key: String) -> String { ns.substring(with: m.range(at: pattern[key] as? Int ?? 0)) }
            #expect(group("file").hasPrefix("Tests/Fixtures/diagnostics/city/"))
            #expect(Int(group("line")) != nil && Int(group("column")) != nil)
            #expect(["error", "warning", "info"].contains(group("severity")))
            #expect(group("code").contains("."))
        }
        #expect(matched == 11)
    }
}
