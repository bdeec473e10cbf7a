import CityPackTestSupport
import Foundation
import Testing

/// Fleet builds (`citypack build DIR DIR …`, `--fleet`, `--shard`) and `citypack catalog --merge`, through the
/// binary, on copies of the rule-example city (small and fast) and on PBF made from it with osmium.
@Suite(.serialized) struct FleetTests {
    static let base = TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base")

    /// A copy of the example city in `dir/name` with id `id`, optionally another bbox and OSM source.
    @discardableResult
    static func city(_ dir: URL, _ name: String, id: String, bbox: String? = nil, osm: String? = nil) throws -> URL {
        let target = dir.appendingPathComponent(name)
        try FileManager.default.copyItem(at: base, to: target)
        var text = try String(contentsOf: target.appendingPathComponent("city.yaml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "id: example", with: "id: \(id)")
        if let bbox { text = text.replacingOccurrences(of: "[7.40, 43.72, 7.44, 43.76]", with: bbox) }
        if let osm { text = text.replacingOccurrences(of: "osm: [map.osm]", with: "osm: [\(osm)]") }
        try text.write(to: target.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        return target
    }

    static let env = ["SOURCE_DATE_EPOCH": "1780000000"]

    static func run(_ arguments: [String], in dir: URL) throws -> CLIRunner.Result {
        try CLIRunner.runBinary(arguments, environment: env, cwd: dir)
    }

    static func bytes(_ url: URL) -> Data? { FileManager.default.contents(atPath: url.path) }

    /// Every regular file under `folder` (relative paths), except the reports, which hold timings.
    static func releaseFiles(_ folder: URL) -> [String] {
        let reports: Set<String> = ["report.json", "report.html", "build-stats.json"]
        var out: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            let name = (path as NSString).lastPathComponent
            if !isDirectory.boolValue && !name.hasPrefix(".") && !reports.contains(name) { out.append(path) }
        }
        return out.sorted()
    }

    @Test func fleetBuildsEachCityAsASingleBuildDoes() throws {
        let dir = try TestPaths.temporaryDirectory("fleet-same")
        for id in ["alpha", "beta", "gamma"] { try Self.city(dir, id, id: id) }
        let fleet = try Self.run(["build", "alpha", "beta", "gamma", "-o", "fleet", "--format", "json"], in: dir)
        #expect(fleet.status == 0, "\(fleet.stderr)")
        let summary = try CLIRunner.json(fleet.stdout)
        let cities = summary["cities"] as? [[String: Any]] ?? []
        #expect(cities.map { $0["id"] as? String } == ["alpha", "beta", "gamma"])
        for city in cities {
            #expect(city["status"] as? String == "built")
            #expect((city["pois"] as? Int ?? 0) > 0 && (city["stops"] as? Int ?? 0) > 0 && (city["bytes"] as? Int ?? 0) > 0)
            #expect(city["errors"] as? Int == 0 && city["seconds"] is Double && city["warnings"] is Int)
        }
        #expect(summary["failed"] as? Int == 0)
        let catalog = try CLIRunner.json(String(decoding: Self.bytes(dir.appendingPathComponent("fleet/catalog.json")) ?? Data(), as: UTF8.self))
        #expect((catalog["packs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["alpha", "beta", "gamma"])
        for id in ["alpha", "beta", "gamma"] {
            let single = try Self.run(["build", id, "-o", "single-\(id)", "--quiet"], in: dir)
            #expect(single.status == 0, "\(single.stderr)")
            for file in Self.releaseFiles(dir.appendingPathComponent("single-\(id)/\(id)")) {
                #expect(Self.bytes(dir.appendingPathComponent("fleet/\(id)/\(file)")) == Self.bytes(dir.appendingPathComponent("single-\(id)/\(id)/\(file)")), "\(id)/\(file)")
            }
        }
        // The human summary: a line for the fleet and a row per city.
        let human = try Self.run(["build", "alpha", "beta", "gamma", "-o", "fleet"], in: dir)
        #expect(human.status == 0)
        #expect(human.stderr.contains("fleet: 3 cities, 3 built, 0 failed"))
        #expect(human.stderr.contains("built alpha:") && human.stderr.contains("built gamma:"))
    }

    /// A city cut from a PBF with a box smaller than the data holds what `osmium extract --strategy
    /// complete_ways` of that box holds: the same pack database. Ways crossing the box edge need nodes from
    /// outside it, which the second pass fetches.
    @Test(.needs(OutsideTools.osmium)) func pbfCityMatchesOsmiumExtractOfItsBox() throws {
        let osmium = try OutsideTools.osmium.require()
        let dir = try TestPaths.temporaryDirectory("fleet-osmium")
        _ = try ProcessRun.run(URL(fileURLWithPath: osmium), ["cat", Self.base.appendingPathComponent("map.osm").path, "-o", dir.appendingPathComponent("whole.osm.pbf").path], cwd: dir)
        let box = (7.4155, 43.725, 7.43, 43.745)  // cuts the museum way: two of its nodes lie outside
        let boxText = "[\(box.0), \(box.1), \(box.2), \(box.3)]"
        let extract = try ProcessRun.run(
            URL(fileURLWithPath: osmium),
            ["extract", "-b", "\(box.0),\(box.1),\(box.2),\(box.3)", "-s", "complete_ways", "whole.osm.pbf", "-o", "cut.osm.pbf"], cwd: dir)
        try #require(extract.status == 0, "\(extract.stderr)")
        try Self.city(dir, "fromwhole", id: "mid", bbox: boxText, osm: "../whole.osm.pbf")
        try Self.city(dir, "fromcut", id: "mid", bbox: boxText, osm: "../cut.osm.pbf")
        try Self.city(dir, "other", id: "other", osm: "../whole.osm.pbf")
        let fleet = try Self.run(["build", "fromwhole", "other", "-o", "a", "--format", "json"], in: dir)
        #expect(fleet.status == 0, "\(fleet.stderr)")
        let reads = try CLIRunner.json(fleet.stdout)["sharedReads"] as? [[String: Any]] ?? []
        #expect(reads.count == 1 && (reads.first?["cities"] as? [String]) == ["mid", "other"], "one read of whole.osm.pbf")
        // The museum way needs nodes from outside the box, which a fleet fetches in a second pass (one city alone
        // keeps them in the first: OSMRegionReaderTests compares both).
        #expect((reads.first?["secondPassBlobs"] as? Int ?? 0) >= 1)
        let cut = try Self.run(["build", "fromcut", "-o", "b", "--quiet"], in: dir)
        #expect(cut.status == 0, "\(cut.stderr)")
        let m1 = try CLIRunner.json(String(decoding: Self.bytes(dir.appendingPathComponent("a/mid/manifest.json")) ?? Data(), as: UTF8.self))
        let m2 = try CLIRunner.json(String(decoding: Self.bytes(dir.appendingPathComponent("b/mid/manifest.json")) ?? Data(), as: UTF8.self))
        let a1 = m1["artifact"] as? [String: Any], a2 = m2["artifact"] as? [String: Any]
        #expect(a1?["uncompressedSha256"] as? String == a2?["uncompressedSha256"] as? String, "same pack database")
        #expect(((m1["counts"] as? [String: Any])?["pois"] as? Int ?? 0) > 0)
        // Nothing outside the box is the city's problem: no osm.poi_outside_bbox for the nodes beyond it.
        let report = String(decoding: Self.bytes(dir.appendingPathComponent("a/mid/report.json")) ?? Data(), as: UTF8.self)
        #expect(!report.contains("osm.poi_outside_bbox\",\n      \"entity\" : \"n"))
    }

    @Test func duplicateCityIDsAreRefused() throws {
        let dir = try TestPaths.temporaryDirectory("fleet-dup")
        try Self.city(dir, "one", id: "same")
        try Self.city(dir, "two", id: "same")
        try Self.city(dir, "three", id: "three")
        let r = try Self.run(["build", "one", "two", "three", "-o", "out"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("one/city.yaml:2:1: error: city id 'same' is also the id of two/city.yaml"), "\(r.stderr)")
        #expect(r.stderr.contains("[city.duplicate_id]"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/same/manifest.json").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/three/manifest.json").path))
        #expect(r.stderr.contains("fleet: 3 cities, 1 built, 2 failed"))
    }

    @Test(.needs(OutsideTools.osmium)) func bboxOutsideSourceIsLocatedError() throws {
        let osmium = try OutsideTools.osmium.require()
        let dir = try TestPaths.temporaryDirectory("fleet-outside")
        _ = try ProcessRun.run(URL(fileURLWithPath: osmium), ["cat", Self.base.appendingPathComponent("map.osm").path, "-o", dir.appendingPathComponent("map.osm.pbf").path], cwd: dir)
        try Self.city(dir, "far", id: "far", bbox: "[2.30, 48.80, 2.40, 48.90]", osm: "../map.osm.pbf")
        try Self.city(dir, "near", id: "near", osm: "../map.osm.pbf")
        let r = try Self.run(["build", "far", "near", "-o", "out"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("far/city.yaml:6:1: error: the city bbox [2.3, 48.8, 2.4, 48.9] does not overlap"), "\(r.stderr)")
        #expect(r.stderr.contains("[osm.bbox_outside_source]"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/far/manifest.json").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/near/manifest.json").path))
        // One city alone says the same.
        let single = try Self.run(["build", "far", "-o", "out2"], in: dir)
        #expect(single.status == 1 && single.stderr.contains("[osm.bbox_outside_source]"))
        // A box that overlaps the data does not trigger it.
        #expect(!r.stderr.contains("near/city.yaml:6:1: error"))
    }

    @Test func fleetFileProblemsAreLocated() throws {
        let dir = try TestPaths.temporaryDirectory("fleet-file")
        try Self.city(dir, "a", id: "a")
        try "cities:\n  - a\n  - nowhere\ndefaults:\n  outputs: x\nextra: 1\n".write(
            to: dir.appendingPathComponent("fleet.yaml"), atomically: true, encoding: .utf8)
        let r = try Self.run(["build", "--fleet", "fleet.yaml"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("fleet.yaml:3:5: error: no such city folder: 'nowhere'"), "\(r.stderr)")
        #expect(r.stderr.contains("fleet.yaml:5:3: error: unknown key 'defaults.outputs'"))
        #expect(r.stderr.contains("fleet.yaml:6:1: error: unknown key 'extra'"))
        #expect(r.stderr.contains("[city.fleet_invalid]"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("outputs").path))
        // A valid fleet file builds, its defaults applied.
        try "cities: [a]\ndefaults: { output: built, keep: 1 }\n".write(
            to: dir.appendingPathComponent("fleet.yaml"), atomically: true, encoding: .utf8)
        let ok = try Self.run(["build", "--fleet", "fleet.yaml", "--quiet"], in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("built/catalog.json").path))
        // Shard out of range, malformed: usage errors.
        for bad in ["2/2", "1", "a/b", "0/0", "3/-1"] {
            let u = try Self.run(["build", "--fleet", "fleet.yaml", "--shard", bad], in: dir)
            #expect(u.status == 64 && u.stderr.contains("--shard \(bad): expected i/n with 0 ≤ i < n"), "\(bad): \(u.stderr)")
        }
        let missing = try Self.run(["build", "--fleet", "nofleet.yaml"], in: dir)
        #expect(missing.status == 66)
    }

    /// Shards built by separate processes into their own folders and merged give the bytes of a one-machine
    /// build; a shard killed before it finished is refused by the merge, which then writes nothing.
    @Test func shardsMergedEqualOneMachineBuild() throws {
        let dir = try TestPaths.temporaryDirectory("fleet-shards")
        let ids = ["c1", "c2", "c3", "c4", "c5"]
        for id in ids { try Self.city(dir, id, id: id) }
        try ("cities:\n" + ids.map { "  - \($0)\n" }.joined()).write(to: dir.appendingPathComponent("fleet.yaml"), atomically: true, encoding: .utf8)
        let one = try Self.run(["build", "--fleet", "fleet.yaml", "-o", "one", "--quiet"], in: dir)
        #expect(one.status == 0, "\(one.stderr)")
        var shardCities: [[String]] = []
        for i in 0..<3 {
            let s = try Self.run(["build", "--fleet", "fleet.yaml", "--shard", "\(i)/3", "-o", "shard\(i)", "--format", "json"], in: dir)
            #expect(s.status == 0, "\(s.stderr)")
            shardCities.append((try CLIRunner.json(s.stdout)["cities"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        #expect(shardCities.flatMap { $0 }.sorted() == ids, "the shards split the fleet: \(shardCities)")
        #expect(shardCities.allSatisfy { !$0.isEmpty && $0.count <= 2 }, "balanced: \(shardCities)")
        // The same split every time.
        let again = try Self.run(["build", "--fleet", "fleet.yaml", "--shard", "1/3", "-o", "shard1", "--format", "json"], in: dir)
        #expect((try CLIRunner.json(again.stdout)["cities"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } == shardCities[1])

        let merge = try Self.run(["catalog", "--merge", "shard0", "shard1", "shard2", "--output", "merged"], in: dir)
        #expect(merge.status == 0, "\(merge.stderr)")
        let oneFiles = Self.releaseFiles(dir.appendingPathComponent("one"))
        #expect(oneFiles.contains("catalog.json") && oneFiles.count > 10)
        #expect(Self.releaseFiles(dir.appendingPathComponent("merged")) == oneFiles)
        for file in oneFiles {
            #expect(Self.bytes(dir.appendingPathComponent("merged/\(file)")) == Self.bytes(dir.appendingPathComponent("one/\(file)")), "\(file)")
        }
        // Merging again changes nothing.
        #expect(try Self.run(["catalog", "--merge", "shard0", "shard1", "shard2", "--output", "merged"], in: dir).status == 0)

        // A shard killed mid-build: no catalog, and the merge refuses it.
        let p = Process()
        p.executableURL = CLIRunner.binary
        p.arguments = ["build", "--fleet", "fleet.yaml", "--shard", "0/1", "-o", "killed", "--quiet", "--jobs", "1", "--test-step-delay-us", "100000"]
        p.currentDirectoryURL = dir
        p.environment = ProcessInfo.processInfo.environment.merging(Self.env) { _, new in new }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning && Date() < deadline
            && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("killed/c1/manifest.json").path)
        {
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal, "killed before it finished")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("killed/catalog.json").path))
        let refused = try Self.run(["catalog", "--merge", "shard0", "killed", "--output", "merged2"], in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("killed has no catalog.json: its build did not finish"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged2/catalog.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged2/c1").path))
    }

    @Test func mergeRefusesTwoPacksOfOneCityVersion() throws {
        let dir = try TestPaths.temporaryDirectory("fleet-conflict")
        try Self.city(dir, "x", id: "x")
        try Self.city(dir, "y", id: "x", bbox: "[7.40, 43.72, 7.43, 43.75]")
        #expect(try Self.run(["build", "x", "-o", "s0", "--quiet"], in: dir).status == 0)
        #expect(try Self.run(["build", "y", "-o", "s1", "--quiet"], in: dir).status == 0)
        let r = try Self.run(["catalog", "--merge", "s0", "s1", "--output", "out"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("two different packs of x data version 1"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/catalog.json").path))
        // The same pack twice merges.
        #expect(try Self.run(["catalog", "--merge", "s0", "s0", "--output", "out"], in: dir).status == 0)
    }
}
