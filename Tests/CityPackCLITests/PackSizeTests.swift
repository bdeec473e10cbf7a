import CityPackBuild
import CityPackTestSupport
import Foundation
import Testing

/// Where a pack's bytes go (issue 15): `inspect --sizes`, `build-stats.json`'s `sizes`, `bench --pack-size`.
@Suite struct PackSizeTests {
    @Test func inspectSizesAndBuildStatsListEveryTableAndIndex() throws {
        let fixture = try ReleaseFixture()
        defer { try? FileManager.default.removeItem(at: fixture.root) }
        try #require(try CLIRunner.run(fixture.buildArguments()).status == 0)

        let json = try CLIRunner.run(["inspect", fixture.manifest.path, "--sizes", "--format", "json"])
        #expect(json.status == 0)
        let sizes = try CLIRunner.json(json.stdout)
        let objects = try #require(sizes["objects"] as? [[String: Any]])
        let names = Set(objects.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["poi", "meta", "category", "string"]))
        // Format 5: no search index (readers build it) and no empty tables (this city has no feed and no names in
        // other locales); format 2: no poi_bucket.
        #expect(!names.contains("poi_bucket") && !names.contains("search_data") && !names.contains("stop"))
        let pageSize = try #require(sizes["pageSize"] as? Int)
        let pages = objects.reduce(0) { $0 + ($1["pages"] as? Int ?? 0) }
        // Every page but the free ones belongs to some object: the sum is the file's size (VACUUMed, no free list).
        #expect(pages * pageSize == sizes["databaseBytes"] as? Int)
        #expect(objects.allSatisfy { ($0["gzipBytes"] as? Int ?? 0) > 0 })

        let text = try CLIRunner.run(["inspect", fixture.manifest.path, "--sizes"])
        #expect(text.status == 0 && text.stdout.contains("page size \(pageSize)") && text.stdout.contains("poi "))

        let stats = try CLIRunner.json(String(decoding: try Data(contentsOf: fixture.cityDir.appendingPathComponent("build-stats.json")), as: UTF8.self))
        let statsSizes = try #require(stats["sizes"] as? [String: Any])
        #expect((statsSizes["objects"] as? [[String: Any]])?.count == objects.count)
        let perPOI = try #require(stats["packBytesPerPOI"] as? Double)
        let manifest = try CLIRunner.json(String(decoding: try Data(contentsOf: fixture.manifest), as: UTF8.self))
        let artifact = try #require(manifest["artifact"] as? [String: Any])
        let bytes = try #require(artifact["bytes"] as? Int)
        #expect(abs(perPOI - Double(bytes) / Double(ReleaseFixture.base.count)) < 0.06)
    }

    @Test(.needs(OutsideTools.osmium))
    func benchPackSizeComparesWithTheGeoJSONSeqBaseline() throws {
        let osm = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz").path
        let result = try CLIRunner.run(["bench", "--pack-size", "--osm", osm])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("bytes per POI") && result.stdout.contains("bytes per feature"))
        #expect(result.stdout.contains("ratio "))
    }

    @Test func benchPackSizeSaysWhenOsmiumIsMissing() throws {
        // A PATH with the shell tools the bench needs (gzip for .osm.gz) but no osmium.
        let bin = try TestPaths.temporaryDirectory("no-osmium")
        defer { try? FileManager.default.removeItem(at: bin) }
        for tool in ["gzip", "sh"] {
            try FileManager.default.createSymbolicLink(
                atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "/bin/\(tool)")
        }
        let osm = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz").path
        let result = try CLIRunner.run(["bench", "--pack-size", "--osm", osm], environment: ["PATH": bin.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("bytes per POI") && result.stdout.contains("osmium not found"))
        #expect(!result.stdout.contains("ratio "))
    }
}
