import CityPackTestSupport
import Foundation

/// A tiny city written inline (city.yaml + map.osm) for release tests that run the binary many times.
struct ReleaseFixture {
    /// One POI of the fixture's OSM file.
    struct Place {
        var id: Int64
        var lat: Double
        var lon: Double
        var amenity: String
        var name: String
    }

    static let base: [Place] = [
        Place(id: 101, lat: 43.7301, lon: 7.4201, amenity: "toilets", name: "Toilettes du Port"),
        Place(id: 102, lat: 43.7352, lon: 7.4213, amenity: "atm", name: "Banque Centrale"),
        Place(id: 103, lat: 43.7405, lon: 7.4250, amenity: "pharmacy", name: "Pharmacie du Rocher"),
        Place(id: 104, lat: 43.7450, lon: 7.4302, amenity: "toilets", name: "WC Plage"),
    ]
    /// The base plus one new toilet: the "one-POI change".
    static let plusOne: [Place] = base + [Place(id: 105, lat: 43.7480, lon: 7.4350, amenity: "toilets", name: "Toilettes Neuves")]

    let root: URL
    var city: URL { root.appendingPathComponent("inputs/release") }
    var output: URL { root.appendingPathComponent("outputs") }
    var cityDir: URL { output.appendingPathComponent("release") }
    var manifest: URL { cityDir.appendingPathComponent("manifest.json") }
    var catalog: URL { output.appendingPathComponent("catalog.json") }

    init(places: [Place] = base) throws {
        root = try TestPaths.temporaryDirectory("release")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        let yaml = """
            id: release
            name: "Release Town"
            locales: [en, fr]
            bbox: [7.40, 43.72, 7.44, 43.76]
            sources:
              osm: ["map.osm"]
            attribution: "© OpenStreetMap contributors, ODbL 1.0"

            """
        try yaml.write(to: city.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        try write(places)
    }

    /// Replaces the OSM file (atomically, so a concurrent build reads either version).
    func write(_ places: [Place]) throws {
        var xml = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6' generator='test'>\n"
        for p in places {
            xml += "  <node id='\(p.id)' lat='\(p.lat)' lon='\(p.lon)' version='1' timestamp='2024-05-01T10:00:00Z'>\n"
            xml += "    <tag k='amenity' v='\(p.amenity)'/>\n    <tag k='name' v='\(p.name)'/>\n  </node>\n"
        }
        xml += "</osm>\n"
        try xml.write(to: city.appendingPathComponent("map.osm"), atomically: true, encoding: .utf8)
    }

    /// `citypack build` arguments for this fixture.
    func buildArguments(_ extra: [String] = []) -> [String] {
        ["build", city.path, "--output", output.path, "--templates", TestPaths.root.appendingPathComponent("templates").path, "--quiet"]
            + extra
    }

    /// SHA-256 of every file under the output folder (hidden files included), by relative path.
    func hashes() throws -> [String: String] { try hashesOf(output.path) }

    /// SHA-256 of every file under a folder (hidden files included), by relative path.
    func hashesOf(_ base: String) throws -> [String: String] {
        var out: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        while let relative = walker.nextObject() as? String {
            let path = (base as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            // Build reports carry timings: they are not release files.
            let name = (relative as NSString).lastPathComponent
            if ["report.json", "report.html", "build-stats.json"].contains(name) { continue }
            // Nor is the build cache (its entries follow the build options, e.g. SOURCE_DATE_EPOCH).
            if relative.hasPrefix(".cache/") || relative == ".cache" { continue }
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[relative] = try Self.sha256(path)
            }
        }
        return out
    }

    /// SHA-256 of a file with the system's `sha256sum` (an oracle independent of the code under test).
    static func sha256(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try OutsideTools.sha256sum.require())
        p.arguments = [path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }
}
