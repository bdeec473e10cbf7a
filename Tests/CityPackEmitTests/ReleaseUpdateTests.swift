import CityPackEmit
import CityPackFormat
import CityPackModel
import CityPackSupport
import Foundation
import Testing

/// What makes downloads cheap: the manifest patches beside the deltas (listed by the catalog, giving the next
/// manifest byte for byte) and the web bundle (every part and chunk in one file).
@Suite struct ReleaseUpdateTests {
    typealias T = PackEmitterTests

    static func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A city of 400 POIs (a manifest of a few dozen web chunks, like a real one), plus `extra`.
    static func pois(_ extra: Int) -> [POI] {
        var out = T.pois
        for i in 0..<400 {
            out.append(T.poi(Int64(1000 + i), 43.5 + Double(i % 20) * 0.01, 7.5 + Double(i / 20) * 0.01, i % 3 == 0 ? "cafe" : "restaurant", "Place \(i)"))
        }
        out.append(T.poi(Int64(10 + extra), 43.6, 7.6, "atm", "ATM \(extra)"))
        return out
    }

    @Test func eachKeptVersionGetsAPatchToTheNewManifest() throws {
        let dir = try PackEmitterTests().temporary()
        for i in 0..<3 {
            let pois = Self.pois(i)
            _ = try PackEmitter.emit(T.input(pois: pois, epoch: 1_700_000_000 + Int64(i)), outputDirectory: dir, options: .init(keepVersions: 2))
        }
        let city = dir + "/testville"
        let catalog = try JSONDecoder().decode(Catalog.self, from: Self.data(dir + "/catalog.json"))
        let entry = try #require(catalog.packs.first)
        #expect(entry.manifestPatches?.map(\.from) == [1, 2])
        let v3 = try Self.data(city + "/testville-3.manifest.json")
        #expect(entry.manifestSha256 == FileDigest.sha256(of: v3))
        for listed in entry.manifestPatches ?? [] {
            let bytes = try Self.data(dir + "/" + listed.path)
            #expect(listed.bytes == bytes.count && listed.sha256 == FileDigest.sha256(of: bytes) && listed.to == 3)
            #expect(listed.path == "testville/testville-\(listed.from)-3.manifest-patch.json")
            let patch = try JSONDecoder().decode(ManifestPatch.self, from: bytes)
            let base = try Self.data(city + "/testville-\(listed.from).manifest.json")
            let result = try patch.apply(to: [UInt8](base), expected: FileDigest.sha256(of: v3), sha256: { FileDigest.sha256(of: $0) })
            #expect(Data(result) == v3)
            // Much smaller than the manifest it stands for.
            #expect(bytes.count * 2 < v3.count, "\(bytes.count) vs \(v3.count)")
        }
        // A patch lives as long as the version it leads to: after two more builds (versions 3 to 5 kept) 1→2 and
        // 1→2's siblings are gone, 1→3 and 2→3 stay with version 3.
        for i in 3..<5 {
            let pois = Self.pois(i)
            _ = try PackEmitter.emit(T.input(pois: pois, epoch: 1_700_000_000 + Int64(i)), outputDirectory: dir, options: .init(keepVersions: 2))
        }
        let patches = try FileManager.default.contentsOfDirectory(atPath: city).filter { $0.hasSuffix(ManifestPatch.suffix) }.sorted()
        #expect(patches == ["testville-1-3.manifest-patch.json", "testville-2-3.manifest-patch.json", "testville-2-4.manifest-patch.json", "testville-3-4.manifest-patch.json", "testville-3-5.manifest-patch.json", "testville-4-5.manifest-patch.json"])
    }

    @Test func aFirstReleaseHasNoPatchAndAnUnchangedRebuildKeepsTheSameOne() throws {
        let dir = try PackEmitterTests().temporary()
        _ = try PackEmitter.emit(T.input(pois: Self.pois(0)), outputDirectory: dir)
        var catalog = try JSONDecoder().decode(Catalog.self, from: Self.data(dir + "/catalog.json"))
        #expect(catalog.packs.first?.manifestPatches == nil)
        _ = try PackEmitter.emit(T.input(pois: Self.pois(1)), outputDirectory: dir)
        catalog = try JSONDecoder().decode(Catalog.self, from: Self.data(dir + "/catalog.json"))
        let first = try #require(catalog.packs.first?.manifestPatches)
        let again = try PackEmitter.emit(T.input(pois: Self.pois(1), epoch: 1_800_000_000), outputDirectory: dir)
        #expect(!again.changed)
        catalog = try JSONDecoder().decode(Catalog.self, from: Self.data(dir + "/catalog.json"))
        #expect(catalog.packs.first?.manifestPatches == first)
    }

    @Test func theBundleIsEveryPartAndChunkInOrder() throws {
        let dir = try PackEmitterTests().temporary()
        let r = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir)
        let web = try #require(r.manifest.web)
        let bundle = try #require(web.bundle)
        let city = dir + "/testville/"
        let bytes = try Self.data(city + bundle.path)
        #expect(bytes.count == bundle.bytes && FileDigest.sha256(of: bytes) == bundle.sha256)
        #expect(bundle.path == "web/bundle-\(bundle.sha256.prefix(16)).gz")
        var joined = Data()
        for member in web.bundleMembers { joined += try Self.data(city + member.path) }
        #expect(joined == bytes)
        #expect(web.bundleMembers.count == Set(web.parts.flatMap(\.files).map(\.path)).count)
        // Its members in the manifest's order: per part its head, then its chunks.
        #expect(web.bundleMembers.first?.path == web.parts.first?.path)
    }
}
