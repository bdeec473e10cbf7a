import CityPackCompiler
import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// The example city end to end: `citypack build inputs/monaco` writes the editorial tables, the copy files and
/// their manifest entries; `inspect --cards`, `--routes` and `--strings de` show them as text and JSON. Also runs
/// every editorial and copy rule example against a small base city.
@Suite(.serialized) struct EditorialEndToEndTests {
    static func sqlite(_ database: URL, _ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try OutsideTools.sqlite3.require())
        p.arguments = [database.path, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.needs(OutsideTools.sqlite3)) func monacoBuildsCardsRoutesAndCopy() throws {
        let output = try TestPaths.temporaryDirectory("e2e-editorial")
        defer { try? FileManager.default.removeItem(at: output) }
        let build = try CLIRunner.run(["build", "inputs/monaco", "--output", output.path, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(!build.stderr.contains("[editorial.") && !build.stderr.contains("[copy."), "\(build.stderr)")
        let cityDir = output.appendingPathComponent("monaco")
        let manifest = try CLIRunner.json(String(contentsOf: cityDir.appendingPathComponent("manifest.json"), encoding: .utf8))
        let counts = try #require(manifest["counts"] as? [String: Any])
        #expect(counts["cards"] as? Int == 8 && counts["routes"] as? Int == 2)
        let copy = try #require(manifest["copy"] as? [[String: Any]])
        let paths = copy.compactMap { $0["path"] as? String }
        for locale in ["en", "fr", "de", "it"] { #expect(paths.contains("copy/web/\(locale).json")) }
        for folder in ["values", "values-fr", "values-de", "values-it"] { #expect(paths.contains("copy/android/\(folder)/strings.xml")) }
        #expect(paths.contains("copy/apple/Localizable.xcstrings"))
        for file in copy {
            let data = try Data(contentsOf: cityDir.appendingPathComponent(file["path"] as? String ?? "?"))
            #expect(data.count == file["bytes"] as? Int)
            #expect(try file["sha256"] as? String == Self.sha256(data))
        }
        let fr = try CLIRunner.json(String(contentsOf: cityDir.appendingPathComponent("copy/web/fr.json"), encoding: .utf8))
        #expect(fr["app.welcome"] as? String == "Bienvenue à {city}")  // city addition
        #expect((fr["app.download_city"] as? String)?.hasPrefix("Téléchargez Monaco") == true)  // city override
        #expect((fr["nearby.results"] as? [String: String])?["many"] != nil)  // template plural with fr's many

        // The pack holds the tables.
        let packName = try #require((manifest["artifact"] as? [String: Any])?["path"] as? String)
        let database = output.appendingPathComponent("monaco.sqlite")
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gzip -dc '\(cityDir.appendingPathComponent(packName).path)' > '\(database.path)'"]
        try gunzip.run()
        gunzip.waitUntilExit()
        let tables = try Self.sqlite(database, "SELECT (SELECT count(*) FROM card), (SELECT count(*) FROM situation), (SELECT count(*) FROM action), (SELECT count(*) FROM route), (SELECT count(*) FROM route_waypoint), (SELECT count(DISTINCT key) FROM string), (SELECT count(DISTINCT locale) FROM string)")
        let numbers = tables.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int($0) }
        #expect(numbers.count == 7 && numbers[0] == 8 && numbers[3] == 2 && numbers[4] == 10 && numbers[6] == 4, "\(tables)")
        // Every waypoint referencing a POI resolves to a POI of the pack.
        #expect(try Self.sqlite(database, "SELECT count(*) FROM route_waypoint w LEFT JOIN poi p ON p.id = w.poi WHERE w.poi IS NOT NULL AND p.id IS NULL").hasPrefix("0"))

        // inspect --cards / --routes / --strings, text and JSON.
        let manifestPath = cityDir.appendingPathComponent("manifest.json").path
        let cards = try CLIRunner.run(["inspect", manifestPath, "--cards"])
        #expect(cards.status == 0 && cards.stdout.contains("card toilet: Toilets") && cards.stdout.contains("[nearby toilet]"))
        #expect(cards.stdout.contains("card lost: Lost something? (not on the home screen)"))
        let cardsJSON = try CLIRunner.json(try CLIRunner.run(["inspect", manifestPath, "--cards", "--locale", "fr", "--format", "json"]).stdout)
        let list = try #require(cardsJSON["cards"] as? [[String: Any]])
        #expect(list.first?["title"] as? String == "Toilettes")
        let situations = try #require(list.first?["situations"] as? [[String: Any]])
        #expect((situations.first?["actions"] as? [[String: Any]])?.first?["kind"] as? String == "nearby")

        let routes = try CLIRunner.run(["inspect", manifestPath, "--routes"])
        #expect(routes.status == 0 && routes.stdout.contains("route rocher: The Rock") && routes.stdout.contains("Casino"))
        let routesJSON = try CLIRunner.json(try CLIRunner.run(["inspect", manifestPath, "--routes", "--format", "json"]).stdout)
        let rocher = try #require((routesJSON["routes"] as? [[String: Any]])?.first { $0["id"] as? String == "rocher" })
        #expect((rocher["waypoints"] as? [Any])?.count == 5)
        let region = try #require(rocher["region"] as? [String: Double])
        #expect((region["maxLat"] ?? 0) - (region["minLat"] ?? 0) >= 0.01 - 1e-9)

        let strings = try CLIRunner.run(["inspect", manifestPath, "--strings", "de"])
        #expect(strings.status == 0 && strings.stdout.contains("app.welcome = \"Willkommen in {city}\""))
        #expect(strings.stdout.contains("offline.weak_network.title = \"Schwache Verbindung\""))
        let stringsJSON = try CLIRunner.json(try CLIRunner.run(["inspect", manifestPath, "--strings", "de", "--format", "json"]).stdout)
        #expect(stringsJSON["locale"] as? String == "de")
        let table = try #require(stringsJSON["strings"] as? [String: Any])
        #expect(table["error.permission_denied.action"] as? String == "Standort in den Einstellungen erlauben")
        #expect((table["route.stops"] as? [String: String])?["other"] == "{count} Stationen")
        #expect(try CLIRunner.run(["inspect", manifestPath, "--cards", "--routes"]).status == 64)
    }

    /// Same inputs give the same copy bytes; a broken editorial file fails with a located error and leaves the
    /// previous pack, manifest and copy folder byte-for-byte intact.
    @Test func deterministicAndAtomic() throws {
        let tmp = try TestPaths.temporaryDirectory("e2e-editorial-atomic")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let city = tmp.appendingPathComponent("inputs/monaco")
        try FileManager.default.createDirectory(at: city.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("inputs/monaco"), to: city)
        let templates = ["--templates", TestPaths.root.appendingPathComponent("templates").path]
        let a = tmp.appendingPathComponent("a"), b = tmp.appendingPathComponent("b")
        #expect(try CLIRunner.run(["build", city.path, "--output", a.path, "--quiet"] + templates).status == 0)
        #expect(try CLIRunner.run(["build", city.path, "--output", b.path, "--quiet"] + templates).status == 0)
        let first = try EndToEndTests.snapshot(a.appendingPathComponent("monaco"))
        let second = try EndToEndTests.snapshot(b.appendingPathComponent("monaco"))
        #expect(first.count > 10)
        #expect(Dictionary(uniqueKeysWithValues: first.map { ($0.key.replacingOccurrences(of: a.path, with: ""), $0.value) })
            == Dictionary(uniqueKeysWithValues: second.map { ($0.key.replacingOccurrences(of: b.path, with: ""), $0.value) }))

        let actions = city.appendingPathComponent("editorial/actions.csv")
        var text = try String(contentsOf: actions, encoding: .utf8)
        text = text.replacingOccurrences(of: "walk_rocher,walks_choose,route,rocher", with: "walk_rocher,walks_choose,route,rocks")
        try text.write(to: actions, atomically: true, encoding: .utf8)
        let failed = try CLIRunner.run(["build", city.path, "--output", a.path] + templates)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("editorial/actions.csv:26:32: error: "), "\(failed.stderr)")
        #expect(failed.stderr.contains("[editorial.unknown_reference]"), "\(failed.stderr)")
        #expect(try EndToEndTests.snapshot(a.appendingPathComponent("monaco")) == first)
    }

    static func sha256(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try? data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try OutsideTools.sha256sum.require())
        p.arguments = [file.path]
        let out = Pipe()
        p.standardOutput = out
        try? p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }

    /// The base example city: locales en, de, fr; one toilet node; templates from the repository.
    static func baseCity() throws -> URL {
        let dir = try TestPaths.temporaryDirectory("rule-example")
        try """
            id: example
            name: Example
            locales: [en, de, fr]
            bbox: [7.40, 43.72, 7.44, 43.76]
            sources:
              osm: [map.osm]
            """.write(to: dir.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6" generator="test">
              <node id="1" lat="43.7300" lon="7.4100"><tag k="amenity" v="pharmacy"/><tag k="name" v="Pharmacie Centrale"/></node>
              <node id="2" lat="43.7400" lon="7.4200"><tag k="amenity" v="cafe"/><tag k="name" v="Café du Port"/></node>
              <node id="3" lat="43.7500" lon="7.4300"><tag k="amenity" v="toilets"/></node>
            </osm>
            """.write(to: dir.appendingPathComponent("map.osm"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: RuleCatalog.all.filter { ($0.kind == .editorial || $0.kind == .copy) && $0.example != nil }.map(\.code))
    func ruleExample(code: String) throws {
        let rule = try #require(RuleCatalog.rule(code))
        let example = try #require(rule.example)
        // `String?` when examples may remove a file; these examples always write one.
        func contents(_ text: String?) throws -> String { try #require(text) }
        for (text, expected) in [(try contents(example.triggering), true), (try contents(example.passing), false)] {
            let city = try Self.baseCity()
            defer { try? FileManager.default.removeItem(at: city) }
            let file = city.appendingPathComponent(example.file)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try CLIRunner.run(["check", city.path, "--templates", TestPaths.root.appendingPathComponent("templates").path])
            #expect(result.stderr.contains("[\(code)]") == expected, "\(code) \(expected ? "triggering" : "passing"):\n\(result.stderr)")
            if !expected { #expect(!result.stderr.contains("error["), "\(code) passing variant has errors:\n\(result.stderr)") }
        }
    }
}
