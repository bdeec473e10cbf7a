import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackModel
import CityPackStorage
import CityPackSupport
import Foundation
import Testing

/// Versions, kept versions, debris, signing bytes, the output lock and I/O failures of the emitter.
@Suite struct ReleaseTests {
    typealias T = PackEmitterTests

    func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: dir)
        while let rel = walker?.nextObject() as? String {
            var isDir: ObjCBool = false
            let path = dir + "/" + rel
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue {
                out[rel] = FileManager.default.contents(atPath: path)
            }
        }
        return out
    }

    @Test func unchangedContentKeepsVersionAndBytesWhateverTheBuildTime() throws {
        let dir = try PackEmitterTests().temporary()
        let key = SigningKey.generate()
        _ = try PackEmitter.emit(T.input(pois: T.pois, epoch: 1_700_000_000), outputDirectory: dir, options: .init(signingKey: key))
        let before = try files(dir)
        let again = try PackEmitter.emit(T.input(pois: T.pois, epoch: 1_800_000_000), outputDirectory: dir, options: .init(signingKey: key))
        #expect(!again.changed && again.manifest.dataVersion == 1)
        #expect(try files(dir) == before)
        #expect(again.manifest.updatedAt == "2023-11-14T22:13:20Z", "the release time of version 1 is kept")
    }

    /// Same content but other web parts than the current release (e.g. a new generator): the release step is
    /// redone as a new version, and that pack holds its own release rows.
    @Test func otherWebPartsAloneMakeANewVersion() throws {
        let dir = try PackEmitterTests().temporary()
        _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir)
        let manifestPath = dir + "/testville/manifest.json"
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
        var web = try #require(json["web"] as? [String: Any])
        var parts = try #require(web["parts"] as? [[String: Any]])
        parts[0]["sha256"] = String(repeating: "0", count: 64)
        web["parts"] = parts
        json["web"] = web
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifestPath))
        var options = EmitOptions()
        options.measureSizes = true
        let again = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir, options: options)
        #expect(again.changed && again.manifest.dataVersion == 2)
        let pack = try Gunzip.inflate(
            [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/testville/" + again.manifest.artifact.path))),
            limit: again.manifest.artifact.uncompressedBytes)
        #expect(FileDigest.sha256(of: pack) == again.manifest.artifact.uncompressedSha256)
        // The sizes were measured on the released database (version 2), not the speculative version 1.
        let sizes = try #require(again.sizes)
        #expect(sizes.databaseBytes == again.manifest.artifact.uncompressedBytes)
        #expect(sizes.objects.contains { $0.name == "poi" } && sizes.objects.allSatisfy { $0.gzipBytes > 0 })
        // The same content built fresh as version 2 elsewhere gives the same pack bytes.
        let other = try PackEmitterTests().temporary()
        _ = try PackEmitter.emit(T.input(pois: Array(T.pois.dropLast())), outputDirectory: other)
        let fresh = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: other)
        #expect(fresh.manifest.dataVersion == 2 && fresh.manifest.artifact.uncompressedSha256 == again.manifest.artifact.uncompressedSha256)
    }

    @Test func rebuildingWithoutTheKeyKeepsValidSignaturesOfUnchangedFiles() throws {
        let dir = try PackEmitterTests().temporary()
        let key = SigningKey.generate()
        _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir, options: .init(signingKey: key))
        let signed = try files(dir)
        _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir)
        try CatalogWriter.write(outputDirectory: dir)
        #expect(try files(dir) == signed)
        #expect(key.hasValidSignature(signed["catalog.json"]!) && key.hasValidSignature(signed["testville/manifest.json"]!))
        // Changed content without the key: unsigned, never a stale signature.
        let r = try PackEmitter.emit(T.input(pois: Array(T.pois.dropLast())), outputDirectory: dir)
        #expect(r.manifest.signature == nil && r.manifest.keyId == nil)
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/catalog.json")))
        #expect(catalog.signature == nil && catalog.packs.first?.uncompressedBytes == r.manifest.artifact.uncompressedBytes)
    }

    @Test func versionsMoveForwardAndOldOnesArePruned() throws {
        let dir = try PackEmitterTests().temporary()
        var variants: [[POI]] = []
        for i in 0..<5 { variants.append(T.pois + [T.poi(Int64(10 + i), 43.6, 7.6, "atm", "ATM \(i)")]) }
        var updated: [String] = []
        for (i, pois) in variants.enumerated() {
            // Build times go backwards: updatedAt must not.
            let r = try PackEmitter.emit(T.input(pois: pois, epoch: 1_700_000_000 - Int64(i) * 1000), outputDirectory: dir, options: .init(keepVersions: 2))
            #expect(r.manifest.dataVersion == i + 1 && r.changed)
            updated.append(r.manifest.updatedAt ?? "")
        }
        #expect(updated == updated.sorted())
        // Manifest patches live like deltas; whether one is written depends on its size (checked in
        // ReleaseUpdateTests), so they are left out of this listing.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/testville").filter { !$0.hasSuffix(ManifestPatch.suffix) }.sorted()
        // A delta lives as long as the manifest that lists it (its `to` version): 1→3 and 2→3 stay with version 3.
        #expect(names == [
            "manifest.json", "testville-1-3.delta", "testville-2-3.delta", "testville-2-4.delta", "testville-3-4.delta",
            "testville-3-5.delta", "testville-3.citypack.gz", "testville-3.manifest.json", "testville-4-5.delta",
            "testville-4.citypack.gz", "testville-4.manifest.json", "testville-5.citypack.gz", "testville-5.manifest.json", "web",
        ])
        let patchVersions = try FileManager.default.contentsOfDirectory(atPath: dir + "/testville")
            .compactMap { ManifestPatch.versions(fileName: $0, city: "testville") }
        #expect(patchVersions.allSatisfy { $0.to >= 3 })
        let current = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/testville/manifest.json")))
        #expect(current.deltas?.map(\.from) == [3, 4])
        #expect(FileManager.default.contents(atPath: dir + "/testville/manifest.json")
            == FileManager.default.contents(atPath: dir + "/testville/testville-5.manifest.json"))
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/catalog.json")))
        #expect(catalog.packs.map(\.manifest) == ["testville/testville-5.manifest.json"])
        #expect(catalog.packs.first?.locales == ["en", "fr"] && catalog.packs.first?.minReaderVersion == Int(PackSchema.formatVersion))
        #expect(catalog.packs.first?.deltas?.map(\.path) == ["testville/testville-3-5.delta", "testville/testville-4-5.delta"])
    }

    @Test func aLostManifestNeverMakesTheVersionGoBackwards() throws {
        let dir = try PackEmitterTests().temporary()
        _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir)
        _ = try PackEmitter.emit(T.input(pois: Array(T.pois.dropLast())), outputDirectory: dir)
        try FileManager.default.removeItem(atPath: dir + "/testville/manifest.json")
        let r = try PackEmitter.emit(T.input(pois: Array(T.pois.dropFirst())), outputDirectory: dir)
        #expect(r.manifest.dataVersion == 3)
    }

    @Test func debrisOfAKilledBuildIsRemovedAndNeverListed() throws {
        let dir = try PackEmitterTests().temporary()
        _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir)
        let fm = FileManager.default
        // What a build killed mid-way leaves: a staging folder, a temporary catalog, an unreferenced version 2.
        try fm.createDirectory(atPath: dir + "/.staging-testville-99999", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/.catalog.json.tmp-99999"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/testville/testville-2.citypack.gz"))
        let catalog = CatalogWriter.catalog(outputDirectory: dir)
        #expect(catalog.packs.map(\.dataVersion) == [1])
        let r = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir)
        #expect(!r.changed)
        #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == [".lock", "catalog.json", "testville"])
        #expect(try fm.contentsOfDirectory(atPath: dir + "/testville").sorted() == [
            "manifest.json", "testville-1.citypack.gz", "testville-1.manifest.json", "web",
        ])
    }

    @Test func concurrentWritersAreSerialised() throws {
        let dir = try PackEmitterTests().temporary()
        // Eight cities released at once into one folder: every one ends up in the catalog.
        let errors = Errors()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            var input = T.input(pois: T.pois)
            input.city.id = "city\(i)"
            do { _ = try PackEmitter.emit(input, outputDirectory: dir) } catch { errors.add("\(error)") }
        }
        #expect(errors.all.isEmpty)
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/catalog.json")))
        #expect(catalog.packs.map(\.id) == (0..<8).map { "city\($0)" })
    }

    @Test func ioFailuresNameThePathAndErrno() throws {
        let dir = try PackEmitterTests().temporary()
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        do {
            _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: dir + "/file/out")
            Issue.record("expected an I/O error")
        } catch {
            #expect(error.path == dir + "/file")
            #expect(error.message.contains("EEXIST") || error.message.contains("ENOTDIR"), "\(error.message)")
        }
        do {
            _ = try PackEmitter.emit(T.input(pois: T.pois), outputDirectory: "/proc/citypack-out")
            Issue.record("expected an I/O error")
        } catch {
            #expect(error.path == "/proc/citypack-out")
        }
    }

    @Test func signingKeyFilesRoundTrip() throws {
        let dir = try PackEmitterTests().temporary()
        let key = SigningKey.generate()
        try key.write(to: dir + "/k")
        let loaded = try SigningKey.load(path: dir + "/k")
        #expect(loaded.keyID == key.keyID && loaded.publicKey == key.publicKey)
        let mode = (try FileManager.default.attributesOfItem(atPath: dir + "/k"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: EmitError.self) { try key.write(to: dir + "/k") }
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: dir + "/bad"))
        #expect(throws: SigningKeyError.self) { _ = try SigningKey.load(path: dir + "/bad") }
        #expect(throws: SigningKeyError.missing(path: dir + "/none")) { _ = try SigningKey.load(path: dir + "/none") }
    }
}

/// RFC 8785 canonical JSON: the bytes signatures cover.
@Suite struct CanonicalJSONTests {
    @Test(arguments: [
        // ECMAScript Number.prototype.toString, as RFC 8785 Appendix B lists.
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-1.5, "-1.5"), (7.4016897, "7.4016897"), (43.7543341, "43.7543341"),
        (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e-7, "1e-7"), (1e-6, "0.000001"), (0.0001, "0.0001"),
        (123456789012.0, "123456789012"), (333333333.3333333, "333333333.3333333"), (Double.leastNonzeroMagnitude, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (9007199254740992.0, "9007199254740992"),
        (295147905179352830000.0, "295147905179352830000"), (0.1 + 0.2, "0.30000000000000004"),
    ])
    func numbers(value: Double, expected: String) throws {
        #expect(try JSONValue.ecmaScriptNumber(value) == expected)
    }

    @Test func objectsSortByUTF16AndStringsUseMinimalEscapes() throws {
        let json = #"{"b": [1, 2.50, true, null], "a": "x\"\\\n\u0001/é€", "\u20ac": 1, "\ud83d\ude00": 2, "\u0080": 3}"#
        let canonical = try JSONValue.parse(Data(json.utf8)).canonicalData()
        #expect(String(decoding: canonical, as: UTF8.self) == "{\"a\":\"x\\\"\\\\\\n\\u0001/é€\",\"b\":[1,2.5,true,null],\"\u{80}\":3,\"€\":1,\"😀\":2}", "U+20AC sorts before the surrogate pair of U+1F600 (RFC 8785 §3.2.3)")
        #expect(throws: CanonicalJSONError.nonFiniteNumber) { _ = try JSONValue.number(.nan).canonicalData() }
    }

    @Test func signingBytesOmitOnlyTheSignature() throws {
        let doc = Data(#"{"z": 1, "keyId": "k", "signature": "AAAA", "extra": {"b": 1, "a": 2}}"#.utf8)
        let bytes = try DocumentSignature.signingBytes(of: doc)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"extra":{"a":2,"b":1},"keyId":"k","z":1}"#)
        #expect(try DocumentSignature.embedded(in: doc)?.keyID == "k")
        #expect(throws: SignatureFormatError.notAnObject) { _ = try DocumentSignature.signingBytes(of: Data("[1]".utf8)) }
    }
}

final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.withLock { list.append(s) } }
    var all: [String] { lock.withLock { list } }
}
