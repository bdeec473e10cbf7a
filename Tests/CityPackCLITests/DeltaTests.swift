import CityPackFormat
import CityPackKit
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// Deltas between data versions (issue 15): `build` writes `<city>-<from>-<to>.delta` for each kept previous
/// version, lists it in the manifest and catalog, and `PackInstaller.applyDelta` turns the installed previous
/// database into the new one byte for byte, or refuses and leaves it alone.
@Suite struct DeltaTests {
    /// A city copied to a temporary folder, built, one POI renamed in its OSM file, built again.
    struct Renamed {
        var root: URL
        var output: URL
        var cityID: String
        var old: Manifest
        var new: Manifest
        var cityDir: URL { output.appendingPathComponent(cityID) }

        /// The decompressed database of a version, as an app keeps it installed.
        func installed(_ manifest: Manifest, name: String) throws -> URL {
            let url = root.appendingPathComponent(name)
            try PackOpener.decompress(
                cityDir.appendingPathComponent(manifest.artifact.path), to: url, verifying: manifest)
            return url
        }
    }

    static func renameOnePOI(
        cityFolder: URL, osmFile: String, cityFileOSM: String? = nil, from: String, to: String
    ) throws -> Renamed {
        let root = try TestPaths.temporaryDirectory("delta")
        let city = root.appendingPathComponent("inputs/city")
        try FileManager.default.createDirectory(at: city.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: cityFolder, to: city)
        let osm = city.appendingPathComponent(osmFile)
        if let cityFileOSM {  // a city file pointing elsewhere: copy the OSM file in and point at the copy
            try FileManager.default.copyItem(at: URL(fileURLWithPath: cityFileOSM), to: osm)
            let yaml = city.appendingPathComponent("city.yaml")
            let text = try String(contentsOf: yaml, encoding: .utf8).replacingOccurrences(of: cityFileOSM, with: osmFile)
            try text.write(to: yaml, atomically: true, encoding: .utf8)
        }
        let output = root.appendingPathComponent("outputs")
        let args = [
            "build", city.path, "--output", output.path, "--templates",
            TestPaths.root.appendingPathComponent("templates").path, "--quiet",
        ]
        let env = ["SOURCE_DATE_EPOCH": "1780272000"]
        let first = try CLIRunner.run(args, environment: env)
        try #require(first.status == 0, "\(first.stderr)")
        let cityID = try #require(
            try FileManager.default.contentsOfDirectory(atPath: output.path).first { !$0.hasPrefix(".") && $0 != "catalog.json" })
        let old = try PackOpener.readManifest(output.appendingPathComponent("\(cityID)/manifest.json"))

        let xml = try gunzipIfNeeded(osm)
        let renamed = xml.replacingOccurrences(of: "v=\"\(from)\"", with: "v=\"\(to)\"")
        try #require(renamed != xml, "no POI named \(from)")
        try gzip(renamed, to: osm)
        let second = try CLIRunner.run(args, environment: env)
        try #require(second.status == 0, "\(second.stderr)")
        let new = try PackOpener.readManifest(output.appendingPathComponent("\(cityID)/manifest.json"))
        return Renamed(root: root, output: output, cityID: cityID, old: old, new: new)
    }

    static func gunzipIfNeeded(_ url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dcf", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func gzip(_ text: String, to url: URL) throws {
        let plain = url.deletingPathExtension().appendingPathExtension("tmp-plain")
        try text.write(to: plain, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-nc", plain.path]
        let out = try FileHandle(forWritingTo: { _ = FileManager.default.createFile(atPath: url.path, contents: nil); return url }())
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        try out.close()
        try FileManager.default.removeItem(at: plain)
    }

    /// Checks the delta of a one-POI rename: listed with the right fields, small, and applied by CityPackKit it
    /// gives the new pack's database byte for byte.
    static func checkRenameDelta(_ r: Renamed) throws -> (delta: Int, full: Int) {
        #expect(r.new.dataVersion == r.old.dataVersion + 1)
        let delta = try #require(r.new.deltas?.first)
        #expect(r.new.deltas?.count == 1)
        #expect(delta.from == r.old.dataVersion && delta.to == r.new.dataVersion)
        #expect(delta.path == "\(r.cityID)-\(delta.from)-\(delta.to).delta")
        #expect(delta.baseSha256 == r.old.artifact.uncompressedSha256)
        #expect(delta.resultSha256 == r.new.artifact.uncompressedSha256)
        #expect(Double(delta.bytes) < 0.5 * Double(r.new.artifact.bytes))
        let file = r.cityDir.appendingPathComponent(delta.path)
        let digest = try FileDigest(path: file.path)
        #expect(digest == FileDigest(bytes: delta.bytes, sha256: delta.sha256))

        // The catalog offers it to an app that has the old version installed.
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: r.output.appendingPathComponent("catalog.json")))
        let download = try #require(catalog.download(city: r.cityID, installedVersion: r.old.dataVersion))
        #expect(download.delta?.from == r.old.dataVersion)
        #expect(download.path == "\(r.cityID)/\(delta.path)" && download.bytes == delta.bytes)
        #expect(catalog.download(city: r.cityID, installedVersion: nil)?.delta == nil)
        #expect(catalog.download(city: r.cityID, installedVersion: r.new.dataVersion) == nil)
        // The catalog entry's deltas are the manifest's; a changed size is a mismatch.
        let entry = try #require(catalog.packs.first { $0.id == r.cityID })
        let manifestBytes = try Data(contentsOf: r.cityDir.appendingPathComponent("manifest.json"))
        try PackVerifier.checkCatalogEntry(entry, manifest: r.new, manifestBytes: manifestBytes)
        var tampered = entry
        tampered.deltas?[0].bytes += 1
        #expect(throws: PackError.self) {
            try PackVerifier.checkCatalogEntry(tampered, manifest: r.new, manifestBytes: manifestBytes)
        }

        let installed = try r.installed(r.old, name: "installed.sqlite")
        let result = try PackInstaller.applyDelta(installedPack: installed, delta: file, expected: delta)
        #expect(result.sha256 == r.new.artifact.uncompressedSha256)
        let fresh = try r.installed(r.new, name: "fresh.sqlite")
        #expect(try Data(contentsOf: installed) == Data(contentsOf: fresh))
        // The updated database opens as the new release.
        let reader = try PackReader.open(installed)
        #expect(reader.meta.values[PackSchema.MetaKey.dataVersion] == String(r.new.dataVersion))
        reader.close()
        return (delta.bytes, r.new.artifact.bytes)
    }

    @Test func monacoOnePOIRenameDeltaRebuildsTheNewPackExactly() throws {
        let r = try Self.renameOnePOI(
            cityFolder: TestPaths.root.appendingPathComponent("inputs/monaco"), osmFile: "monaco-2021.osm.gz",
            from: "Pharmacie des Moulins", to: "Pharmacie des Moulins Neuve")
        defer { try? FileManager.default.removeItem(at: r.root) }
        let sizes = try Self.checkRenameDelta(r)
        print("monaco one-POI rename: delta \(sizes.delta) bytes, full pack \(sizes.full) bytes")
    }

    @Test(.needsSharedData) func liechtensteinOnePOIRenameDeltaRebuildsTheNewPackExactly() throws {
        let data = try #require(TestPaths.sharedData)
        let source = data.appendingPathComponent("osm/liechtenstein-2024.osm.gz")
        let root = try TestPaths.temporaryDirectory("delta-li-city")
        defer { try? FileManager.default.removeItem(at: root) }
        let city = root.appendingPathComponent("li")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        try """
            id: li
            name: "Liechtenstein"
            locales: [de, en]
            bbox: [9.3977818, 46.8232622, 9.6803433, 47.5258072]
            sources:
              osm: ["li.osm.gz"]
            attribution: "© OpenStreetMap contributors, ODbL 1.0"
            rules: { osm.poi_missing_name: off }

            """.write(to: city.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: source, to: city.appendingPathComponent("li.osm.gz"))
        let r = try Self.renameOnePOI(
            cityFolder: city, osmFile: "li.osm.gz", from: "Kunstmuseum Liechtenstein", to: "Kunstmuseum Liechtenstein Vaduz")
        defer { try? FileManager.default.removeItem(at: r.root) }
        let sizes = try Self.checkRenameDelta(r)
        print("liechtenstein one-POI rename: delta \(sizes.delta) bytes, full pack \(sizes.full) bytes")
    }

    @Test func damagedDeltaAndWrongBaseAreRefusedAndLeaveTheInstalledPackAlone() throws {
        let r = try Self.renameOnePOI(
            cityFolder: TestPaths.root.appendingPathComponent("inputs/monaco"), osmFile: "monaco-2021.osm.gz",
            from: "Pharmacie du Rocher", to: "Pharmacie du Rocher Bis")
        defer { try? FileManager.default.removeItem(at: r.root) }
        let delta = try #require(r.new.deltas?.first)
        let file = r.cityDir.appendingPathComponent(delta.path)
        let installed = try r.installed(r.old, name: "installed.sqlite")
        let before = try Data(contentsOf: installed)

        // A damaged download: one byte flipped in the middle of the delta.
        var damaged = try Data(contentsOf: file)
        damaged[damaged.count / 2] ^= 0x5A
        let damagedURL = r.root.appendingPathComponent("damaged.delta")
        try damaged.write(to: damagedURL)
        #expect(throws: PackError.self) {
            try PackInstaller.applyDelta(installedPack: installed, delta: damagedURL, expected: delta)
        }
        // Even when the entry is made to match the damaged file, the stream or the result check refuses it.
        var forged = delta
        forged.sha256 = FileDigest.sha256(of: damaged)
        #expect(throws: PackError.self) {
            try PackInstaller.applyDelta(installedPack: installed, delta: damagedURL, expected: forged)
        }
        // A truncated download.
        let truncatedURL = r.root.appendingPathComponent("truncated.delta")
        try damaged.prefix(damaged.count - 10).write(to: truncatedURL)
        #expect(throws: PackError.self) {
            try PackInstaller.applyDelta(installedPack: installed, delta: truncatedURL, expected: delta)
        }
        #expect(try Data(contentsOf: installed) == before)

        // A wrong base: the new version installed instead of the old one.
        let wrong = try r.installed(r.new, name: "wrong.sqlite")
        let wrongBefore = try Data(contentsOf: wrong)
        do {
            try PackInstaller.applyDelta(installedPack: wrong, delta: file, expected: delta)
            Issue.record("a wrong base was accepted")
        } catch {
            guard case .hashMismatch(.uncompressed, let expected, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(expected == delta.baseSha256)
        }
        #expect(try Data(contentsOf: wrong) == wrongBefore)
        // No temporary files left beside the installed pack.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: r.root.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
        // The genuine delta still applies afterwards.
        try PackInstaller.applyDelta(installedPack: installed, delta: file, expected: delta)
        #expect(try FileDigest(path: installed.path).sha256 == r.new.artifact.uncompressedSha256)
    }

    @Test func aDeltaOfHalfThePackOrMoreIsSkippedAndPrunedVersionsTakeTheirDeltas() throws {
        let fixture = try ReleaseFixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        try #require(try CLIRunner.run(fixture.buildArguments(["--keep", "1"])).status == 0)
        // Version 2: every POI replaced by 600 others; the delta would be about as large as the pack (600 since the
        // category words and labels of issue 32 made the fixed part of a pack larger).
        let amenities = ["toilets", "atm", "pharmacy", "cafe"]
        var many: [ReleaseFixture.Place] = []
        for i in 0..<600 {
            let lat: Double = 43.721 + Double(i % 30) * 0.001
            let lon: Double = 7.401 + Double(i / 30) * 0.0015
            let name = "Place \((i * 7919) % 1000) \(i)"
            many.append(ReleaseFixture.Place(id: Int64(5000 + i), lat: lat, lon: lon, amenity: amenities[i % 4], name: name))
        }
        try fixture.write(many)
        try #require(try CLIRunner.run(fixture.buildArguments(["--keep", "1"])).status == 0)
        let v2 = try PackOpener.readManifest(fixture.manifest)
        #expect(v2.dataVersion == 2)
        #expect(v2.deltas == nil)
        #expect(!FileManager.default.fileExists(atPath: fixture.cityDir.appendingPathComponent("release-1-2.delta").path))

        // Versions 3 and 4: one rename each; deltas 2→3 and 3→4 are written, and once version 2 is pruned
        // (keep 1) nothing older than the kept manifests remains.
        var renamed = many
        renamed[0].name = "Renamed Once"
        try fixture.write(renamed)
        try #require(try CLIRunner.run(fixture.buildArguments(["--keep", "1"])).status == 0)
        #expect(try PackOpener.readManifest(fixture.manifest).deltas?.map(\.from) == [2])
        renamed[1].name = "Renamed Twice"
        try fixture.write(renamed)
        try #require(try CLIRunner.run(fixture.buildArguments(["--keep", "1"])).status == 0)
        let v4 = try PackOpener.readManifest(fixture.manifest)
        #expect(v4.deltas?.map(\.from) == [3])
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: fixture.cityDir.path).filter { $0.hasPrefix("release-") })
        #expect(files == [
            "release-3.citypack.gz", "release-3.manifest.json", "release-4.citypack.gz", "release-4.manifest.json",
            "release-2-3.delta", "release-3-4.delta", "release-2-3.manifest-patch.json", "release-3-4.manifest-patch.json",
        ])
        let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: fixture.catalog))
        #expect(catalog.packs.first?.manifestPatches?.map(\.path) == ["release/release-3-4.manifest-patch.json"])
        #expect(catalog.packs.first?.deltas?.map(\.path) == ["release/release-3-4.delta"])
    }
}
