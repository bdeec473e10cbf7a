import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackKit
import CityPackModel
import Foundation
import Testing

/// What an app checks before it opens a downloaded pack: signature, hashes, rollback, mix-and-match.
@Suite struct PackVerifierTests {
    static func poi(_ id: Int64, _ lat: Double, _ lon: Double, _ category: String, _ name: String?, tags: [String: String] = [:]) -> POI {
        POI(
            ref: OSMRef(.node, id), coordinate: Coordinate(lat: lat, lon: lon), category: category, name: name,
            localizedNames: name.map { ["fr": $0 + " (fr)"] } ?? [:], tags: tags,
            location: SourceLocation(file: "x.osm", line: Int(id), column: 1))
    }

    static let pois = [
        poi(1, 43.50, 7.50, "toilet", "Public WC"), poi(2, 43.51, 7.51, "atm", "Bank"), poi(3, 43.70, 7.20, "toilet", "Beach WC"),
    ]

    static func release(_ pois: [POI], id: String = "kit", into dir: String, key: SigningKey?) throws -> EmitResult {
        let city = City(
            id: id, name: "Kit Town", names: [:], defaultLocale: "en", locales: ["en", "fr"],
            bbox: BoundingBox(minLon: 7.0, minLat: 43.0, maxLon: 8.0, maxLat: 44.0))
        let categories = [
            PackCategory(id: "toilet", priority: 1, labels: ["en": "Toilet"], synonyms: [:]),
            PackCategory(id: "atm", priority: 2, labels: ["en": "ATM"], synonyms: [:]),
        ]
        return try PackEmitter.emit(
            PackInput(city: city, pois: pois, categories: categories, createdAt: 1_700_000_000, generator: "t", sources: []),
            outputDirectory: dir, options: EmitOptions(signingKey: key))
    }

    func open(_ path: String, _ trust: PackTrust?) throws(PackError) -> PackReader {
        var options = PackReader.Options()
        options.trust = trust
        return try PackReader.open(manifest: URL(fileURLWithPath: path), options: options)
    }

    @Test func signedPackOpensWithItsKeyAndIsRefusedWithAnother() throws {
        let dir = try TestPack.directory().path
        let key = SigningKey.generate()
        let r = try Self.release(Self.pois, into: dir, key: key)
        let reader = try open(r.manifestPath, PackTrust(publicKeys: [key.publicKey], installedDataVersion: 1, cityID: "kit"))
        #expect(reader.poiCount == 3)
        reader.close()
        let other = SigningKey.generate()
        #expect(throws: PackError.untrustedKey(path: r.manifestPath, keyID: key.keyID)) {
            _ = try open(r.manifestPath, PackTrust(publicKeys: [other.publicKey]))
        }
        #expect(throws: PackError.wrongCity(expected: "nice", found: "kit")) {
            _ = try open(r.manifestPath, PackTrust(publicKeys: [key.publicKey], cityID: "nice"))
        }
        // A trust policy needs the manifest: opening the bare pack with one is refused.
        var options = PackReader.Options()
        options.trust = PackTrust(publicKeys: [key.publicKey])
        #expect(throws: PackError.signatureMissing(path: r.packPath)) { _ = try PackReader.open(URL(fileURLWithPath: r.packPath), options: options) }
    }

    /// `checkMemberFiles`: web parts and deltas as listed (a delta applied to the kept base pack gives the new
    /// database); a flipped byte, a truncated delta or a missing part is reported; without the base pack, the
    /// delta is checked but not applied.
    @Test func memberFilesAreCheckedAndDeltasApplied() throws {
        let dir = try TestPack.directory().path
        _ = try Self.release(Self.pois, into: dir, key: nil)
        let renamed = Array(Self.pois.dropLast()) + [Self.poi(3, 43.70, 7.20, "toilet", "Beach WC (north)")]
        let second = try Self.release(renamed, into: dir, key: nil)
        let folder = URL(fileURLWithPath: dir + "/kit")
        let delta = try #require(second.manifest.deltas?.first)
        var checks = PackVerifier.checkMemberFiles(of: second.manifest, folder: folder)
        #expect(checks.allSatisfy { $0.problem == nil }, "\(checks)")
        #expect(checks.contains { $0.kind == "delta 1→2" && $0.detail.contains("gives this release's database") })
        #expect(Set(checks.map(\.kind)).isSuperset(of: ["web part places", "web part search", "web part editorial"]))

        let places = try #require(second.manifest.web?.parts.first { $0.name == "places" })
        let placesURL = folder.appendingPathComponent(places.path)
        var bytes = try Data(contentsOf: placesURL)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: placesURL)
        let deltaURL = folder.appendingPathComponent(delta.path)
        try Data(try Data(contentsOf: deltaURL).dropLast()).write(to: deltaURL)
        checks = PackVerifier.checkMemberFiles(of: second.manifest, folder: folder)
        #expect(checks.first { $0.kind == "web part places" }?.problem?.contains("SHA-256") == true)
        #expect(checks.first { $0.kind == "delta 1→2" }?.problem?.contains("bytes") == true)

        // A fresh pair: the base pack gone, the delta is only checked; a missing web part is reported.
        let other = try TestPack.directory().path
        let first = try Self.release(Self.pois, into: other, key: nil)
        let again = try Self.release(renamed, into: other, key: nil)
        let otherFolder = URL(fileURLWithPath: other + "/kit")
        try FileManager.default.removeItem(at: otherFolder.appendingPathComponent(first.manifest.artifact.path))
        let search = try #require(again.manifest.web?.parts.first { $0.name == "search" })
        try FileManager.default.removeItem(at: otherFolder.appendingPathComponent(search.path))
        checks = PackVerifier.checkMemberFiles(of: again.manifest, folder: otherFolder)
        #expect(checks.first { $0.kind == "delta 1→2" }.map { $0.problem == nil && $0.detail.contains("not applied") } == true)
        #expect(checks.first { $0.kind == "web part search" }?.problem == "no such file")
    }

    @Test func unsignedManifestIsRefusedWhenAKeyIsRequired() throws {
        let dir = try TestPack.directory().path
        let r = try Self.release(Self.pois, into: dir, key: nil)
        #expect(throws: PackError.signatureMissing(path: r.manifestPath)) {
            _ = try open(r.manifestPath, PackTrust(publicKeys: [SigningKey.generate().publicKey]))
        }
        #expect(try open(r.manifestPath, nil).poiCount == 3)
    }

    /// Flipping any single byte — sampled over the whole pack and the whole manifest — is refused.
    @Test func everyTamperedByteIsRefused() throws {
        let dir = try TestPack.directory().path
        let key = SigningKey.generate()
        let r = try Self.release(Self.pois, into: dir, key: key)
        let trust = PackTrust(publicKeys: [key.publicKey])
        for path in [r.packPath, r.manifestPath] {
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let step = max(1, original.count / 40)
            var refused = 0, tried = 0
            for offset in stride(from: 0, to: original.count, by: step) {
                var bytes = original
                bytes[offset] ^= 0x20
                try bytes.write(to: URL(fileURLWithPath: path))
                tried += 1
                do {
                    let reader = try open(r.manifestPath, trust)
                    reader.close()
                    Issue.record("\(path): byte \(offset) flipped and the pack still opened")
                } catch {
                    refused += 1
                }
            }
            try original.write(to: URL(fileURLWithPath: path))
            #expect(refused == tried && tried >= 40)
        }
        #expect(try open(r.manifestPath, trust).poiCount == 3)
    }

    @Test func hashErrorsNameWhatDiffers() throws {
        let dir = try TestPack.directory().path
        let r = try Self.release(Self.pois, into: dir, key: nil)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: r.packPath))
        bytes[bytes.count - 10] ^= 1
        try bytes.write(to: URL(fileURLWithPath: r.packPath))
        do {
            _ = try open(r.manifestPath, nil)
            Issue.record("expected a hash mismatch")
        } catch {
            if case .hashMismatch(.compressed, let expected, _) = error { #expect(expected == r.manifest.artifact.sha256) } else {
                if case .corruptCompressedData = error {} else { Issue.record("unexpected \(error)") }
            }
        }
    }

    @Test func olderSignedReleaseIsRefusedAsRollback() throws {
        let dir = try TestPack.directory().path
        let key = SigningKey.generate()
        let v1 = try Self.release(Self.pois, into: dir, key: key)
        let v2 = try Self.release(Array(Self.pois.dropLast()), into: dir, key: key)
        #expect(v2.manifest.dataVersion == 2)
        let old = dir + "/kit/kit-1.manifest.json"
        // Properly signed and intact, but older than what is installed.
        #expect(try open(old, PackTrust(publicKeys: [key.publicKey])).meta.dataVersion == 1)
        #expect(throws: PackError.rollback(city: "kit", offered: 1, installed: 2)) {
            _ = try open(old, PackTrust(publicKeys: [key.publicKey], installedDataVersion: 2))
        }
        #expect(try open(v2.manifestPath, PackTrust(publicKeys: [key.publicKey], installedDataVersion: 2)).meta.dataVersion == 2)
        _ = v1
    }

    @Test func packFromAnotherReleaseIsRefusedAsMixAndMatch() throws {
        let dir = try TestPack.directory().path
        let r = try Self.release(Self.pois, into: dir, key: nil)
        // An unsigned manifest edited to claim another data version, hashes left intact.
        var manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: r.manifestPath)))
        manifest.dataVersion = 7
        let edited = dir + "/kit/edited.json"
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: edited))
        #expect(throws: PackError.manifestMismatch(field: "data version", manifest: "7", pack: "1")) { _ = try open(edited, nil) }
        // Another city's pack under this manifest's hashes.
        let other = try Self.release(Self.pois, id: "other", into: dir, key: nil)
        manifest = other.manifest
        manifest.city.id = "kit"
        manifest.artifact.path = "../other/" + other.manifest.artifact.path
        manifest.artifact.path = other.manifest.artifact.path
        try FileManager.default.copyItem(atPath: other.packPath, toPath: dir + "/kit/" + other.manifest.artifact.path)
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: edited))
        #expect(throws: PackError.manifestMismatch(field: "city id", manifest: "kit", pack: "other")) { _ = try open(edited, nil) }
    }
}

/// `PackDiff`: records matched by stable keys, each change classified.
@Suite struct PackDiffTests {
    @Test func classifiesEveryKindOfPOIChange() throws {
        let dir = try TestPack.directory().path
        typealias V = PackVerifierTests
        let old = [
            V.poi(1, 43.50, 7.50, "toilet", "Public WC"), V.poi(2, 43.51, 7.51, "atm", "Bank"),
            V.poi(3, 43.70, 7.20, "toilet", "Beach WC"), V.poi(4, 43.60, 7.30, "atm", "Old ATM"),
            V.poi(5, 43.61, 7.31, "toilet", "Nudged", tags: ["fee": "no"]),
        ]
        let new = [
            V.poi(1, 43.5003, 7.50, "toilet", "Public WC"),  // moved ~33 m
            V.poi(2, 43.51, 7.51, "atm", "Bank Central"),  // renamed
            V.poi(3, 43.70, 7.20, "atm", "Beach WC"),  // recategorised
            V.poi(5, 43.61002, 7.31, "toilet", "Nudged", tags: ["fee": "yes"]),  // 2 m and a tag: changed
            V.poi(6, 43.62, 7.32, "toilet", "New WC"),  // added; 4 removed
        ]
        let a = try PackVerifierTests.release(old, into: dir, key: nil)
        let b = try PackVerifierTests.release(new, into: dir, key: nil)
        let before = try PackReader.open(URL(fileURLWithPath: dir + "/kit/kit-1.citypack.gz"))
        let after = try PackReader.open(manifest: URL(fileURLWithPath: b.manifestPath))
        let diff = try PackDiff.between(before, after)
        _ = a
        #expect(diff.old.dataVersion == 1 && diff.new.dataVersion == 2)
        let pois = try #require(diff.entities.first { $0.entity == "pois" })
        #expect(pois.counts == ["added": 1, "removed": 1, "moved": 1, "renamed": 1, "recategorised": 1, "changed": 1])
        let byKey = Dictionary(uniqueKeysWithValues: pois.changes.map { ($0.key, $0) })
        #expect(byKey["n6"]?.change == .added && byKey["n4"]?.change == .removed)
        #expect(byKey["n1"]?.aspects == ["moved"] && abs((byKey["n1"]?.distanceMetres ?? 0) - 33.4) < 1)
        #expect(byKey["n2"]?.aspects == ["renamed"])
        #expect(byKey["n2"]?.fields.contains { $0.field == "names.fr" && $0.new == "Bank Central (fr)" } == true)
        #expect(byKey["n3"]?.aspects == ["recategorised"])
        #expect(byKey["n5"]?.aspects == ["changed"] && byKey["n5"]?.fields.contains { $0.field == "tags.fee" } == true)
        #expect(try PackDiff.between(after, after).isEmpty)
        #expect(diff.entities.map(\.entity) == ["pois", "stops", "lines", "trips", "routes", "cards", "situations", "strings"])
    }
}

/// Catalog helpers an app uses for "update available".
@Suite struct CatalogUpdatesTests {
    static func entry(_ id: String, _ version: Int, minReader: Int? = 1) -> Catalog.Entry {
        Catalog.Entry(
            id: id, name: id, formatVersion: 1, minReaderVersion: minReader, dataVersion: version, createdAt: "",
            updatedAt: nil, manifest: "\(id)/\(id)-\(version).manifest.json", manifestSha256: nil, path: "", bytes: 1,
            sha256: "", etag: "", bbox: [], pois: 0, locales: [], keyId: nil)
    }

    @Test func onlyNewerReadableVersionsOfInstalledCitiesAreUpdates() {
        let catalog = Catalog(
            formatVersion: 1, updatedAt: nil,
            packs: [Self.entry("a", 3), Self.entry("b", 2), Self.entry("c", 5), Self.entry("d", 9, minReader: Int(PackSchema.formatVersion) + 1), Self.entry("e", 1)])
        let updates = catalog.updates(installed: ["a": 2, "b": 2, "c": 7, "d": 1])
        #expect(updates.map(\.id) == ["a"], "b is current, c would be a downgrade, d needs a newer reader, e is not installed")
        #expect(catalog.readable.map(\.id) == ["a", "b", "c", "e"])
    }
}
