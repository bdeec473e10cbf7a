import CityPackTestSupport
import Foundation
import Testing

/// Every input a cached stage reads has a test (issue 33, point 12): on a city made here (a PBF written by the
/// tests' own PBF writer, the rule examples' GTFS folder, editorial and copy folders, a templates copy; nothing
/// from ../shared), each edit below is followed by a build with the cache and one without, and their outputs must
/// be the same bytes (``BuildCacheTests/compareWithAndWithoutCache(_:edits:extra:setUp:)``). A stage key that
/// left out an input fails here: with the OSM stage's key ignoring the bbox, the grown box gave the cached build
/// the 2 POIs of the small box, the clean build 4.
@Suite(.serialized) struct CacheKeyInputTests {
    typealias Edit = BuildCacheTests.Edit

    /// Toilets (named) along 43.73° N at 7.41, 7.42, 7.43 and 7.44° E, and `more` further named ones beyond.
    static func pbf(more: Int = 0) -> [UInt8] {
        var strings = ["", "amenity", "toilets", "name"]
        var ids: [Int64] = [], lat: [Int64] = [], lon: [Int64] = [], kv: [UInt64] = []
        for i in 0..<(4 + more) {
            strings.append("WC \(i + 1)")
            ids.append(Int64(i + 1))
            lat.append(437_300_000 + Int64(i) * 10_000)
            lon.append(74_100_000 + Int64(i) * 100_000)
            kv += [1, 2, 3, UInt64(strings.count - 1), 0]
        }
        let block = PBFBuilder.denseBlock(strings: strings, ids: ids, latE7: lat, lonE7: lon, keysVals: kv)
        return PBFBuilder.header() + PBFBuilder.frame(blob: PBFBuilder.zlibBlob(block))
    }

    static let cityFile = """
        id: keys
        name: "Keys"
        locales: [en, fr]
        bbox: [7.405, 43.72, 7.425, 43.76]
        sources:
          osm: ["map.osm.pbf"]
          gtfs: ["gtfs"]
        attribution: "© OpenStreetMap contributors, ODbL 1.0"
        rules: {}

        """

    /// The city file's bbox line replaced.
    static func bbox(_ description: String, _ box: String) -> Edit {
        Edit(description: description) { try BuildCacheTests.replaceLine("city/city.yaml", prefix: "bbox:", with: "bbox: \(box)", in: $0) }
    }

    /// The extra command-line arguments of the builds from now on (read from `work/args`).
    static func arguments(_ description: String, _ text: String) -> Edit {
        Edit(description: description) { try text.write(to: $0.appendingPathComponent("args"), atomically: false, encoding: .utf8) }
    }

    static func edit(_ description: String, _ file: String, _ old: String, _ new: String) -> Edit {
        Edit(description: description) { try BuildCacheTests.replace(file, old, new, in: $0) }
    }

    static let edits: [Edit] = [
        BuildCacheTests.unchanged,
        // The bbox: a PBF is read for the box only, so every change of it must reach the OSM stage's key.
        bbox("bbox grown", "[7.405, 43.72, 7.445, 43.76]"),
        bbox("bbox shrunk", "[7.405, 43.72, 7.415, 43.76]"),
        bbox("bbox back to the first", "[7.405, 43.72, 7.425, 43.76]"),
        Edit(description: "PBF bytes (two more toilets)") { work in
            try Data(Self.pbf(more: 2)).write(to: work.appendingPathComponent("city/map.osm.pbf"))
        },
        bbox("bbox grown over the new toilets", "[7.405, 43.72, 7.465, 43.76]"),
        edit("GTFS bytes", "city/gtfs/stops.txt", "Casino", "Casino Square"),
        edit("city file limits (an error: every toilet has two tags)", "city/city.yaml", "rules: {}",
            "limits: { tags_per_element: 1 }\nrules: {}"),
        edit("city file limits back", "city/city.yaml", "limits: { tags_per_element: 1 }\n", ""),
        edit("city file rule setting", "city/city.yaml", "rules: {}", "rules: { osm.poi_missing_name: off }"),
        edit("city file locales", "city/city.yaml", "locales: [en, fr]", "locales: [en]"),
        edit("city file name", "city/city.yaml", "name: \"Keys\"", "name: \"Keys Town\""),
        edit("profile categories", "templates/categories.json", "\"amenity\": \"toilets\"", "\"amenity\": \"toilets_x\""),
        edit("profile categories back", "templates/categories.json", "\"amenity\": \"toilets_x\"", "\"amenity\": \"toilets\""),
        edit("profile synonyms", "templates/synonyms.json", "\"en\": [\"toilet\"", "\"en\": [\"potty\", \"toilet\""),
        edit("template copy", "templates/copy/en.yaml", "\"Download {city}", "\"Get {city}"),
        BuildCacheTests.copyString,
        BuildCacheTests.editorialRow,
        arguments("--rule option", "--rule osm.poi_missing_name=error"),
        arguments("--werror (an error: the feed has warnings)", "--werror"),
        arguments("--keep 2", "--keep 2"),
        arguments("--sign-key", "--sign-key keys/release"),
        arguments("another --templates folder", "--templates templates2"),
        arguments("no options", ""),
    ]

    @Test func everyKeyInputGivesTheUncachedOutputs() throws {
        let templates = TestPaths.root.appendingPathComponent("templates")
        // One key for both runs (a new key would change the signed files' keyId).
        let keys = try TestPaths.temporaryDirectory("cache-keys-key")
        defer { try? FileManager.default.removeItem(at: keys) }
        let key = try CLIRunner.runBinary(["keygen", "--output", keys.appendingPathComponent("release").path])
        #expect(key.status == 0, "\(key.stderr)")
        let verbose = try BuildCacheTests.compareWithAndWithoutCache(
            "keys", edits: Self.edits,
            extra: { work in
                let text = (try? String(contentsOf: work.appendingPathComponent("args"), encoding: .utf8)) ?? ""
                var args = text.split(separator: " ").map { arg in
                    // Paths in the arguments are relative to `work`.
                    ["keys/release", "templates2"].contains(String(arg)) ? work.appendingPathComponent(String(arg)).path : String(arg)
                }
                if !args.contains("--templates") { args += ["--templates", work.appendingPathComponent("templates").path] }
                return args
            }
        ) { work in
            let city = work.appendingPathComponent("city")
            try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
            try Self.cityFile.write(to: city.appendingPathComponent("city.yaml"), atomically: false, encoding: .utf8)
            try Data(Self.pbf()).write(to: city.appendingPathComponent("map.osm.pbf"))
            try FileManager.default.copyItem(
                at: TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base/gtfs"), to: city.appendingPathComponent("gtfs"))
            try BuildCacheTests.addEditorialAndCopy(work)
            try FileManager.default.copyItem(at: templates, to: work.appendingPathComponent("templates"))
            try FileManager.default.copyItem(at: templates, to: work.appendingPathComponent("templates2"))
            try BuildCacheTests.replace("templates2/copy/en.yaml", "\"Download {city}", "\"Fetch {city}", in: work)
            try FileManager.default.copyItem(at: keys, to: work.appendingPathComponent("keys"))
        }
        // The cache was used: the rebuild after nothing changed loaded every stage, and every build after an edit
        // that leaves the city without errors loaded the stages the edit does not reach (a build with errors
        // writes no cache, so one that stayed failing would leave the rest of the list untested).
        #expect(verbose[1].contains("(cached: ingestOSM)") && verbose[1].contains("(cached: emit)"), "\(verbose[1])")
        // Rule settings are part of every stage's key (they decide which findings are errors), so after an edit of
        // them, and after an error build when the settings changed meanwhile, every stage runs.
        let reachesEveryStage = ["city file rule setting", "--rule option", "--keep 2"]
        for (i, edit) in Self.edits.enumerated() where !edit.description.contains("(an error") && !reachesEveryStage.contains(edit.description) {
            #expect(verbose[i + 1].contains("(cached: "), "after \(edit): nothing was loaded from the cache")
        }
    }
}
