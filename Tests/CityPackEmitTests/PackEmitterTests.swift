import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackModel
import CityPackSupport
import Foundation
import Testing

/// Emit: determinism, versioning, the gzip header, the manifest, and atomic replacement.
@Suite struct PackEmitterTests {
    static func poi(_ id: Int64, _ lat: Double, _ lon: Double, _ category: String, _ name: String?) -> POI {
        POI(
            ref: OSMRef(.node, id), coordinate: Coordinate(lat: lat, lon: lon), category: category, name: name,
            localizedNames: name.map { ["fr": $0 + " (fr)"] } ?? [:], tags: ["opening_hours": "24/7", "wheelchair": "yes"],
            location: SourceLocation(file: "x.osm", line: Int(id), column: 2))
    }

    static let categories = [
        PackCategory(id: "toilet", priority: 10, labels: ["en": "Toilet", "fr": "Toilettes"], synonyms: ["en": ["wc", "restroom"], "fr": ["toilette"]]),
        PackCategory(id: "atm", priority: 20, labels: ["en": "ATM"], synonyms: ["de": ["Geldautomat"]]),
    ]

    static func input(pois: [POI], epoch: Int64 = 1_700_000_000) -> PackInput {
        let city = City(
            id: "testville", name: "Testville", names: ["fr": "Villetest"], defaultLocale: "en", locales: ["en", "fr"],
            bbox: BoundingBox(minLon: 7.0, minLat: 43.0, maxLon: 8.0, maxLat: 44.0))
        return PackInput(
            city: city, pois: pois, categories: categories, createdAt: epoch, generator: "citypack test",
            sources: [.init(path: "x.osm", bytes: 10, sha256: String(repeating: "0", count: 64))])
    }

    static let pois = [
        poi(1, 43.5, 7.5, "toilet", "Public WC"), poi(2, 43.5001, 7.5001, "atm", nil), poi(3, 43.7, 7.2, "toilet", "Café Toilettes"),
    ]

    func temporary() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("emit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        let a = try temporary(), b = try temporary()
        let ra = try PackEmitter.emit(Self.input(pois: Self.pois), outputDirectory: a)
        let rb = try PackEmitter.emit(Self.input(pois: Self.pois.reversed()), outputDirectory: b)
        #expect(FileManager.default.contents(atPath: ra.packPath) == FileManager.default.contents(atPath: rb.packPath))
        #expect(FileManager.default.contents(atPath: ra.manifestPath) == FileManager.default.contents(atPath: rb.manifestPath))
        #expect(FileManager.default.contents(atPath: ra.catalogPath) == FileManager.default.contents(atPath: rb.catalogPath))
    }

    @Test func dataVersionBumpsOnlyOnChange() throws {
        let dir = try temporary()
        let first = try PackEmitter.emit(Self.input(pois: Self.pois), outputDirectory: dir)
        #expect(first.manifest.dataVersion == 1 && first.changed)
        let again = try PackEmitter.emit(Self.input(pois: Self.pois), outputDirectory: dir)
        #expect(again.manifest.dataVersion == 1 && !again.changed)
        #expect(again.manifest == first.manifest)
        let changed = try PackEmitter.emit(Self.input(pois: Array(Self.pois.dropLast())), outputDirectory: dir)
        #expect(changed.manifest.dataVersion == 2 && changed.changed)
        // The previous version is kept (default: 2 previous versions), the new one is where the manifest says.
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/testville").sorted()
        #expect(files == [
            "manifest.json", "testville-1-2.delta", "testville-1.citypack.gz", "testville-1.manifest.json",
            "testville-2.citypack.gz", "testville-2.manifest.json", "web",
        ])
    }

    @Test func gzipHeaderHasNoTimeOrName() throws {
        let dir = try temporary()
        let result = try PackEmitter.emit(Self.input(pois: Self.pois), outputDirectory: dir)
        let bytes = [UInt8](FileManager.default.contents(atPath: result.packPath)!)
        #expect(bytes[0] == 0x1F && bytes[1] == 0x8B && bytes[2] == 8)
        #expect(bytes[3] == 0, "no FNAME/FCOMMENT/FEXTRA flags")
        #expect(bytes[4..<8].allSatisfy { $0 == 0 }, "MTIME is zero")
        #expect(bytes[9] == 255)
    }

    @Test func manifestFields() throws {
        let dir = try temporary()
        let result = try PackEmitter.emit(Self.input(pois: Self.pois), outputDirectory: dir)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifestPath))) as! [String: Any]
        #expect(json["formatVersion"] as? Int == Int(PackSchema.formatVersion))
        #expect(json["dataVersion"] as? Int == 1)
        #expect((json["city"] as? [String: Any])?["id"] as? String == "testville")
        #expect((json["counts"] as? [String: Any])?["pois"] as? Int == 3)
        #expect(json["bbox"] as? [Double] == [7.0, 43.0, 8.0, 44.0])
        #expect(json["createdAt"] as? String == "2023-11-14T22:13:20Z")
        let artifact = json["artifact"] as! [String: Any]
        let pack = try Data(contentsOf: URL(fileURLWithPath: result.packPath))
        #expect(artifact["path"] as? String == "testville-1.citypack.gz")
        #expect(artifact["bytes"] as? Int == pack.count)
        #expect(artifact["sha256"] as? String == (try FileDigest(path: result.packPath)).sha256)
        #expect((artifact["uncompressedBytes"] as? Int ?? 0) > pack.count)
        #expect((artifact["uncompressedSha256"] as? String)?.count == 64)
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.catalogPath))) as! [String: Any]
        let packs = catalog["packs"] as! [[String: Any]]
        #expect(packs.count == 1 && packs[0]["path"] as? String == "testville/testville-1.citypack.gz")
    }

    @Test func failedEmitLeavesPreviousOutputs() throws {
        let dir = try temporary()
        let first = try PackEmitter.emit(Self.input(pois: Self.pois), outputDirectory: dir)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir + "/testville").sorted()
        let manifestBefore = FileManager.default.contents(atPath: first.manifestPath)
        // A directory where the next pack file must go makes the final rename fail.
        try FileManager.default.createDirectory(atPath: dir + "/testville/testville-2.citypack.gz/blocker", withIntermediateDirectories: true)
        #expect(throws: EmitError.self) {
            _ = try PackEmitter.emit(Self.input(pois: Array(Self.pois.dropLast())), outputDirectory: dir)
        }
        #expect(FileManager.default.contents(atPath: first.manifestPath) == manifestBefore)
        #expect(FileManager.default.fileExists(atPath: first.packPath))
        let after = try FileManager.default.contentsOfDirectory(atPath: dir + "/testville").sorted()
        #expect(after == (before + ["testville-2.citypack.gz"]).sorted(), "nothing but the blocker added")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [".lock", "catalog.json", "testville"],
                "no staging folder left behind")
    }

    @Test func iso8601() {
        #expect(iso8601UTC(0) == "1970-01-01T00:00:00Z")
        #expect(iso8601UTC(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(iso8601UTC(1_700_000_000) == "2023-11-14T22:13:20Z")
    }
}
