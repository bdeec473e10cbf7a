import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// `sources.editorial` and `sources.copy` in the city file, and the conventional folders beside it.
@Suite struct CityFileEditorialSourcesTests {
    static func city(_ sources: String, folders: [String]) throws -> (City?, [Diagnostic], URL) {
        let dir = try TestPaths.temporaryDirectory("city-editorial")
        try "<osm version=\"0.6\"/>".write(to: dir.appendingPathComponent("map.osm"), atomically: true, encoding: .utf8)
        for folder in folders {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let yaml = "id: x\nname: X\nbbox: [7.4, 43.7, 7.5, 43.8]\nsources:\n  osm: [map.osm]\n\(sources)"
        let file = dir.appendingPathComponent("city.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let bag = DiagnosticBag()
        return (CityFileLoader.load(file.path, knownRules: [], bag: bag), bag.diagnostics, dir)
    }

    @Test func explicitFolders() throws {
        let (city, d, dir) = try Self.city("  editorial: content\n  copy: strings\n", folders: ["content", "strings"])
        #expect(d.isEmpty, "\(d)")
        #expect(city?.editorialDirectory == dir.appendingPathComponent("content").path)
        #expect(city?.copyDirectory == dir.appendingPathComponent("strings").path)
    }

    @Test func missingFolderIsLocated() throws {
        let (city, d, _) = try Self.city("  editorial: nowhere\n", folders: [])
        #expect(city == nil)
        let missing = try #require(d.first { $0.code == "city.missing_source" })
        #expect(missing.location?.line == 6 && missing.location?.column == 14)
        #expect(try Self.city("  copy: [a, b]\n", folders: []).1.contains { $0.code == "city.syntax" })
    }

    @Test func conventionalFolders() throws {
        let (city, d, dir) = try Self.city("", folders: ["editorial", "copy"])
        #expect(d.isEmpty)
        #expect(city?.editorialDirectory == dir.appendingPathComponent("editorial").path)
        #expect(city?.copyDirectory == dir.appendingPathComponent("copy").path)
        let (bare, _, _) = try Self.city("", folders: [])
        #expect(bare?.editorialDirectory == nil && bare?.copyDirectory == nil)
    }
}
