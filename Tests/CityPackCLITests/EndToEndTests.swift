import CityPackFormat
import CityPackTestSupport
import Foundation
import Testing

/// Runs the real `citypack` binary on the bundled example city and on ../shared/data.
@Suite(.serialized) struct EndToEndTests {
    /// amenity=* values checked end to end and the category each must get. Toilets and ATMs are the issue's
    /// contract; pharmacies, hospitals and bars make the unsorted Peterhof export (no toilets or ATMs) count.
    static let categoryFor = ["toilets": "toilet", "atm": "atm", "pharmacy": "pharmacy", "hospital": "hospital", "bar": "bar"]

    /// `init` + `build` a city from one OSM file into a temporary folder; returns (city dir, output dir).
    static func buildCity(osm: URL, id: String) throws -> (URL, URL, CLIRunner.Result) {
        let tmp = try TestPaths.temporaryDirectory("e2e-\(id)")
        let cityDir = tmp.appendingPathComponent("inputs/\(id)")
        let initResult = try CLIRunner.runBinary(["init", cityDir.path, "--osm", osm.path, "--id", id, "--locales", "en,fr,de,ru"])
        #expect(initResult.status == 0, "init failed: \(initResult.stderr)")
        let output = tmp.appendingPathComponent("outputs")
        let build = try CLIRunner.runBinary(["build", cityDir.path, "--output", output.path, "--quiet"])
        return (cityDir, output, build)
    }

    /// Every amenity=toilets / amenity=atm (and the other `categoryFor`) node of the source is in the pack with
    /// the right category, and
    /// `query --near` at its position returns it.
    static func checkAmenities(source: URL, manifest: URL) throws {
        let expected = try OSMOracle.amenityNodes(in: source, values: Set(categoryFor.keys))
        let inspect = try CLIRunner.runBinary(["inspect", manifest.path, "--pois", "--format", "json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let listed = (try CLIRunner.json(inspect.stdout)["results"] as? [[String: Any]]) ?? []
        var byOSM: [String: [String: Any]] = [:]
        for poi in listed { if let osm = poi["osm"] as? String { byOSM[osm] = poi } }
        var checked = 0
        for (value, nodes) in expected {
            for node in nodes {
                let ref = "n\(node.id)"
                let poi = byOSM[ref]
                #expect(poi != nil, "\(ref) amenity=\(value) missing from the pack")
                #expect(poi?["category"] as? String == categoryFor[value], "\(ref): \(poi?["category"] ?? "nil")")
                let query = try CLIRunner.runBinary([
                    "query", manifest.path, "--near", "\(node.lat),\(node.lon)", "--radius", "25", "--format", "json",
                ])
                let results = (try CLIRunner.json(query.stdout)["results"] as? [[String: Any]]) ?? []
                #expect(results.contains { $0["osm"] as? String == ref }, "query --near did not return \(ref)")
                checked += 1
            }
        }
        #expect(checked > 0, "the oracle found no toilets or ATMs in \(source.lastPathComponent)")
    }

    @Test func bundledMonaco() throws {
        let output = try TestPaths.temporaryDirectory("e2e-monaco-out")
        let result = try CLIRunner.runBinary(["build", "inputs/monaco", "--output", output.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let manifestURL = output.appendingPathComponent("monaco/manifest.json")
        let manifest = try CLIRunner.json(String(contentsOf: manifestURL, encoding: .utf8))
        #expect(manifest["formatVersion"] as? Int == Int(PackSchema.formatVersion))
        #expect(manifest["dataVersion"] as? Int == 1)
        #expect((manifest["city"] as? [String: Any])?["id"] as? String == "monaco")
        #expect((manifest["city"] as? [String: Any])?["name"] as? String == "Monaco")
        #expect((manifest["bbox"] as? [Double])?.count == 4)
        #expect(((manifest["counts"] as? [String: Any])?["pois"] as? Int ?? 0) > 100)
        let artifact = manifest["artifact"] as? [String: Any] ?? [:]
        let pack = output.appendingPathComponent("monaco").appendingPathComponent(artifact["path"] as? String ?? "?")
        #expect(FileManager.default.fileExists(atPath: pack.path))
        #expect(artifact["bytes"] as? Int == (try? Data(contentsOf: pack))?.count)
        for key in ["sha256", "uncompressedBytes", "uncompressedSha256"] { #expect(artifact[key] != nil, "artifact.\(key)") }
        try Self.checkAmenities(source: TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz"), manifest: manifestURL)

        let search = try CLIRunner.runBinary(["query", manifestURL.path, "--search", "toilette", "--format", "json"])
        let hits = (try CLIRunner.json(search.stdout)["results"] as? [[String: Any]]) ?? []
        #expect(hits.contains { $0["category"] as? String == "toilet" })
        // Whole-word matches first: the metro station before the "Metropole" hotel.
        let metro = try CLIRunner.runBinary(["query", manifestURL.path, "--search", "metro", "--format", "json"])
        let first = (try CLIRunner.json(metro.stdout)["results"] as? [[String: Any]])?.first
        #expect(first?["category"] as? String == "metro", "\(metro.stdout.prefix(400))")
        for term in ["wc", "atm", "toilet"] {
            let r = try CLIRunner.runBinary(["query", manifestURL.path, "--search", term, "--format", "json"])
            #expect(((try CLIRunner.json(r.stdout)["results"] as? [[String: Any]]) ?? []).count > 0, "search \(term)")
        }
    }

    @Test(.needsSharedData, arguments: ["liechtenstein-2024.osm.gz", "peterhof-api-export-2011.osm", "monaco-2021.osm"])
    func sharedCity(file: String) throws {
        let data = try #require(TestPaths.sharedData)
        let source = data.appendingPathComponent("osm/\(file)")
        let id = String(file.prefix { $0 != "-" })
        let (_, output, build) = try Self.buildCity(osm: source, id: id)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(!build.stderr.contains(": error: "), "\(build.stderr.prefix(2000))")
        let manifest = output.appendingPathComponent("\(id)/manifest.json")
        let m = try CLIRunner.json(String(contentsOf: manifest, encoding: .utf8))
        #expect((m["city"] as? [String: Any])?["id"] as? String == id)
        try Self.checkAmenities(source: source, manifest: manifest)
    }

    @Test func identicalBytesAcrossBuilds() throws {
        let a = try TestPaths.temporaryDirectory("e2e-det-a"), b = try TestPaths.temporaryDirectory("e2e-det-b")
        #expect(try CLIRunner.runBinary(["build", "inputs/monaco", "--output", a.path, "--quiet"]).status == 0)
        #expect(try CLIRunner.runBinary(["build", "inputs/monaco", "--output", b.path, "--quiet"]).status == 0)
        for file in ["monaco/manifest.json", "monaco/monaco-1.citypack.gz", "catalog.json"] {
            let x = try Data(contentsOf: a.appendingPathComponent(file)), y = try Data(contentsOf: b.appendingPathComponent(file))
            #expect(x == y, "\(file) differs between two builds")
        }
        // A rebuild into the same folder keeps the version and the bytes.
        let before = try Data(contentsOf: a.appendingPathComponent("monaco/manifest.json"))
        #expect(try CLIRunner.runBinary(["build", "inputs/monaco", "--output", a.path, "--quiet"]).status == 0)
        #expect(try Data(contentsOf: a.appendingPathComponent("monaco/manifest.json")) == before)
        // SOURCE_DATE_EPOCH sets the time written.
        let c = try TestPaths.temporaryDirectory("e2e-det-c")
        #expect(try CLIRunner.runBinary(["build", "inputs/monaco", "--output", c.path, "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1700000000"]).status == 0)
        let m = try CLIRunner.json(String(contentsOf: c.appendingPathComponent("monaco/manifest.json"), encoding: .utf8))
        #expect(m["createdAt"] as? String == "2023-11-14T22:13:20Z")
    }

    /// Bad input gives a located error, exit 1, and leaves the previous outputs byte-for-byte intact.
    @Test(arguments: [
        ("truncated", "<?xml version='1.0'?>\n<osm version=\"0.6\">\n  <node id=\"1\" lat=\"43.73\" lon=\"7.42\">\n    <tag k=\"amenity\" v=\"toilets\"/>\n", "osm.xml_malformed"),
        ("entity", "<?xml version='1.0'?>\n<!DOCTYPE osm [\n  <!ENTITY lol \"lol\">\n]>\n<osm version=\"0.6\">\n  <node id=\"1\" lat=\"43.73\" lon=\"7.42\"/>\n</osm>\n", "osm.entity_declaration"),
        ("coordinates", "<?xml version='1.0'?>\n<osm version=\"0.6\">\n  <node id=\"1\" lat=\"143.73\" lon=\"7.42\">\n    <tag k=\"amenity\" v=\"toilets\"/>\n  </node>\n</osm>\n", "osm.invalid_coordinates"),
    ])
    func badInputKeepsPreviousOutputs(name: String, xml: String, code: String) throws {
        let tmp = try TestPaths.temporaryDirectory("e2e-bad-\(name)")
        let city = tmp.appendingPathComponent("inputs/monaco")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        let source = TestPaths.root.appendingPathComponent("inputs/monaco")
        for file in ["city.yaml", "monaco-2021.osm.gz"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: city.appendingPathComponent(file))
        }
        let output = tmp.appendingPathComponent("outputs")
        #expect(try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"]).status == 0)
        let snapshot = try Self.snapshot(output)

        // Replace the source with a broken one.
        try FileManager.default.removeItem(at: city.appendingPathComponent("monaco-2021.osm.gz"))
        try Data(xml.utf8).write(to: city.appendingPathComponent("broken.osm"))
        var yaml = try String(contentsOf: city.appendingPathComponent("city.yaml"), encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "monaco-2021.osm.gz", with: "broken.osm")
        try yaml.write(to: city.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)

        let result = try CLIRunner.runBinary(["build", city.path, "--output", output.path])
        #expect(result.status == 1, "\(result.stderr)")
        let line = result.stderr.split(separator: "\n").first { $0.contains(": error: ") && $0.hasSuffix("[\(code)]") }
        #expect(line != nil, "expected \(code) in: \(result.stderr)")
        #expect(line?.contains("broken.osm:") == true && (line?.split(separator: ":").count ?? 0) >= 4, "located: \(line ?? "")")
        #expect(try Self.snapshot(output) == snapshot, "outputs changed after a failed build")
        // The failed build's report is there, and names the problem.
        let report = try String(contentsOf: output.appendingPathComponent("monaco/report.json"), encoding: .utf8)
        #expect(report.contains("\"code\" : \"\(code)\""))
    }

    /// Every file under `dir` except the reports, which every run rewrites (docs/DIAGNOSTICS.md).
    static func snapshot(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        let reports: Set<String> = ["report.json", "report.html", "build-stats.json"]
        while let url = e?.nextObject() as? URL {
            if reports.contains(url.lastPathComponent) { continue }
            if let d = try? Data(contentsOf: url) { out[url.path] = d }
        }
        return out
    }

    @Test func usageAndMissingInputExitCodes() throws {
        #expect(try CLIRunner.runBinary(["build"]).status == 64)
        #expect(try CLIRunner.runBinary(["build", "/nonexistent/city"]).status == 66)
        #expect(try CLIRunner.runBinary(["init", "/tmp/x", "--bbox", "1,2,3"]).status == 64)
        let rules = try CLIRunner.runBinary(["rules", "--format", "json"])
        #expect(rules.status == 0 && rules.stdout.contains("osm.invalid_coordinates"))
    }
}
