import CityPackTestSupport
import Foundation
import Testing

/// OSM PBF input and multipolygon POIs through the binary (issue 13): the same city from XML and from the PBF
/// that `osmium cat` makes of it gives the same pack content, multipolygon POIs lie inside the polygons osmium
/// builds for them, and `citypack bench --osm` prints the PBF rows.
@Suite(.serialized) struct PBFEndToEndTests {
    static let osmium = OutsideTools.osmium.path ?? "/usr/bin/osmium"

    /// Runs a tool and fails the test on a non-zero exit.
    static func tool(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(path) \(arguments) exited \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    /// Builds the city at `city` into `output` and returns (manifest JSON, POIs by OSM ref).
    static func build(_ city: URL, _ output: URL, id: String) throws -> ([String: Any], [String: [String: Any]]) {
        let build = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1780272000"])
        try #require(build.status == 0, "\(build.stderr.suffix(2000))")
        let manifest = output.appendingPathComponent("\(id)/manifest.json")
        let json = try CLIRunner.json(String(contentsOf: manifest, encoding: .utf8))
        let inspect = try CLIRunner.runBinary(["inspect", manifest.path, "--pois", "--format", "json"])
        let pois = (try CLIRunner.json(inspect.stdout)["results"] as? [[String: Any]]) ?? []
        return (json, Dictionary(pois.map { ($0["osm"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a }))
    }

    /// A copy of a city whose OSM source is `osm` (any name), built twice: as given, and from `osmium cat`'s PBF.
    static func compareXMLAndPBF(cityFile: String, osm: URL, id: String, copying folder: URL? = nil) throws -> (Int, Int) {
        let tmp = try TestPaths.temporaryDirectory("pbf-e2e-\(id)")
        let city = tmp.appendingPathComponent("inputs/\(id)")
        if let folder {
            try FileManager.default.createDirectory(at: city.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: folder, to: city)
        } else {
            try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        }
        let pbf = tmp.appendingPathComponent("\(id).osm.pbf")
        _ = try tool(osmium, ["cat", osm.path, "-o", pbf.path, "--overwrite"])
        let yaml = city.appendingPathComponent("city.yaml")
        try Data(cityFile.replacingOccurrences(of: "OSM", with: osm.path).utf8).write(to: yaml)
        let (xmlManifest, xmlPOIs) = try build(city, tmp.appendingPathComponent("out-xml"), id: id)
        try Data(cityFile.replacingOccurrences(of: "OSM", with: pbf.path).utf8).write(to: yaml)
        let (pbfManifest, pbfPOIs) = try build(city, tmp.appendingPathComponent("out-pbf"), id: id)
        #expect(xmlManifest["contentSha256"] as? String == pbfManifest["contentSha256"] as? String)
        #expect(xmlManifest["contentSha256"] != nil)
        #expect(xmlPOIs.count == pbfPOIs.count)
        for (ref, x) in xmlPOIs {
            let p = try #require(pbfPOIs[ref], "\(ref) only in the XML pack")
            #expect(p["lat"] as? Double == x["lat"] as? Double && p["lon"] as? Double == x["lon"] as? Double, "\(ref)")
            #expect(p["name"] as? String == x["name"] as? String && p["category"] as? String == x["category"] as? String, "\(ref)")
        }
        return (xmlPOIs.count, xmlPOIs.keys.filter { $0.hasPrefix("r") }.count)
    }

    /// The bundled Monaco (editorial content and all) from its `.osm.gz` and from `osmium cat`'s PBF.
    @Test(.needs(OutsideTools.osmium))
    func bundledMonacoFromXMLAndPBF() throws {
        let folder = TestPaths.root.appendingPathComponent("inputs/monaco")
        let original = try String(contentsOf: folder.appendingPathComponent("city.yaml"), encoding: .utf8)
        let template = original.replacingOccurrences(of: "[\"monaco-2021.osm.gz\"]", with: "[\"OSM\"]")
        try #require(template != original, "inputs/monaco/city.yaml names monaco-2021.osm.gz")
        let (pois, relations) = try Self.compareXMLAndPBF(
            cityFile: template, osm: folder.appendingPathComponent("monaco-2021.osm.gz"), id: "monaco", copying: folder)
        #expect(pois == 495 && relations == 3)  // 494 before issue 32 kept a train platform (way 400398288)
    }

    /// Liechtenstein from its `.osm.gz` and from `osmium cat`'s PBF.
    @Test(.needsSharedData, .needs(OutsideTools.osmium))
    func liechtensteinFromXMLAndPBF() throws {
        let data = try #require(TestPaths.sharedData)
        let cityFile = """
            id: vaduz
            name: Vaduz
            locales: [de, en]
            bbox: [9.47, 47.04, 9.64, 47.28]
            sources:
              osm: ["OSM"]
            """
        let (pois, relations) = try Self.compareXMLAndPBF(
            cityFile: cityFile, osm: data.appendingPathComponent("osm/liechtenstein-2024.osm.gz"), id: "vaduz")
        #expect(pois > 900 && relations == 3)
    }

    /// Polygons of a relation as osmium assembles them (`osmium getid -r` then `osmium export`): rings of (lat, lon).
    /// osmium numbers areas 2 × id for ways and 2 × id + 1 for relations; only the relation's area is taken.
    static func osmiumRings(_ file: URL, relation: String) throws -> [[(Double, Double)]] {
        let tmp = try TestPaths.temporaryDirectory("pbf-e2e-osmium")
        let one = tmp.appendingPathComponent("one.osm.pbf")
        _ = try tool(osmium, ["getid", "-r", file.path, relation, "-o", one.path, "--overwrite"])
        let geojson = try tool(osmium, ["export", one.path, "-f", "geojsonseq", "-u", "type_id", "-o", "-"])
        let areaID = "a\(2 * (Int64(relation.dropFirst()) ?? 0) + 1)"
        var rings: [[(Double, Double)]] = []
        for line in geojson.split(separator: "\n") {
            let text = line.drop { $0 == "\u{1E}" }
            guard let feature = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                feature["id"] as? String == areaID, let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "MultiPolygon",
                let polygons = geometry["coordinates"] as? [[[[Double]]]]
            else { continue }
            for polygon in polygons { for ring in polygon { rings.append(ring.map { ($0[1], $0[0]) }) } }
        }
        return rings
    }

    /// Even–odd point in rings.
    static func inside(_ rings: [[(Double, Double)]], _ lat: Double, _ lon: Double) -> Bool {
        var inside = false
        for ring in rings {
            for i in 0..<(ring.count - 1) {
                let (y0, x0) = ring[i], (y1, x1) = ring[i + 1]
                if (y0 <= lat) != (y1 <= lat) && lon < x0 + (lat - y0) / (y1 - y0) * (x1 - x0) { inside.toggle() }
            }
        }
        return inside
    }

    /// Every multipolygon POI of Monaco (hotels, the Prince's Palace) and Liechtenstein (the Clinicum Alpinum clinic,
    /// Schaan's bus station, Vaduz castle) is in the pack with its point inside the polygon osmium assembles.
    @Test(.needsSharedData, .needs(OutsideTools.osmium))
    func multipolygonPOIsLieInsideOsmiumsPolygons() throws {
        let data = try #require(TestPaths.sharedData)
        let cases: [(file: String, refs: [String: String])] = [
            // Names in the pack's default locale (en): the palace's name:en (issue 32).
            ("osm/monaco-2021.osm.pbf", ["r393226": "Prince's Palace of Monaco", "r2093796": "Fairmont", "r8280869": "Hôtel de Paris"]),
            ("osm/liechtenstein-2024.osm.pbf", ["r14098495": "Clinicum Alpinum", "r3990462": "Schaan Bahnhof", "r1252853": "Schloss Vaduz"]),
        ]
        for (file, refs) in cases {
            let osm = data.appendingPathComponent(file)
            let tmp = try TestPaths.temporaryDirectory("pbf-e2e-mp")
            let city = tmp.appendingPathComponent("inputs/mp")
            let initResult = try CLIRunner.runBinary(["init", city.path, "--osm", osm.path, "--id", "mp"])
            try #require(initResult.status == 0, "\(initResult.stderr)")
            let (_, pois) = try Self.build(city, tmp.appendingPathComponent("out"), id: "mp")
            #expect(Set(pois.keys.filter { $0.hasPrefix("r") }) == Set(refs.keys), "\(file)")
            for (ref, name) in refs {
                let poi = try #require(pois[ref], "\(ref) \(name) in the pack")
                #expect(poi["name"] as? String == name)
                let (lat, lon) = (try #require(poi["lat"] as? Double), try #require(poi["lon"] as? Double))
                let rings = try Self.osmiumRings(osm, relation: ref)
                try #require(!rings.isEmpty, "osmium builds an area for \(ref)")
                #expect(Self.inside(rings, lat, lon), "\(ref) \(name) at \(lat), \(lon) is inside osmium's polygon")
            }
        }
    }

    /// `citypack bench --osm` on an XML file makes the PBF with osmium and prints the PBF rows and ratios.
    @Test(.needs(OutsideTools.osmium))
    func benchPrintsPBFRows() throws {
        let monaco = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz")
        let bench = try CLIRunner.runBinary(["bench", "--osm", monaco.path, "--runs", "1"], cwd: TestPaths.root)
        #expect(bench.status == 0, "\(bench.stderr)")
        for row in ["citypack build (XML)", "citypack build (PBF, ", "citypack build (PBF, 1 core)", "osmium tags-filter (PBF)",
            "PBF: citypack build / osmium tags-filter = ", "PBF: speed-up from "]
        {
            #expect(bench.stdout.contains(row), "\(row) in \(bench.stdout)")
        }
    }
}
