import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// A city pack holds the city (issue 21 points 2 and 4): `init` boxes the places a pack serves (POIs, stops with
/// departures) and leaves far outliers out with one note; `build` leaves stops outside the box (and trips with no
/// stop inside) out of the pack with one warning, unless the city file keeps them; boxes may cross the
/// antimeridian, in the city file, `init --bbox`, the derived box, the outside-bbox rules, the pack and the reader.
@Suite struct CityExtentTests {
    /// The rule-example feed (three Monaco stops, one route) plus five unused stops in Paris (≈ 690 km away) and a
    /// served trip between two stops in Lyon.
    static func feedFiles() -> [(String, String)] {
        var files: [String: String] = [:]
        for (path, text) in RuleExampleCity.files where path.hasPrefix("gtfs/") { files[String(path.dropFirst(5))] = text }
        var stops = files["stops.txt"]!
        for i in 1...5 { stops += "P\(i),Paris \(i),48.85\(i),2.35\(i),0,\n" }
        stops += "L1,Lyon Part-Dieu,45.7606,4.8594,0,\nL2,Lyon Perrache,45.7485,4.8270,0,\n"
        files["stops.txt"] = stops
        files["routes.txt"]! += "R9,A,9,Lyon Shuttle,3\n"
        files["trips.txt"]! += "R9,WK,T9,,\n"
        files["stop_times.txt"]! += "T9,10:00:00,10:00:00,L1,1,\nT9,10:10:00,10:10:00,L2,2,\n"
        return files.sorted { $0.key < $1.key }
    }

    static func writeFeed(in tmp: URL) throws -> URL {
        let feed = tmp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        for (name, text) in feedFiles() { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        return feed
    }

    /// `bbox: [a, b, c, d]` of a city file.
    static func bbox(_ cityFile: URL) throws -> [Double] {
        let text = try String(contentsOf: cityFile, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("bbox:") })
        return line.dropFirst(5).trimmingCharacters(in: CharacterSet(charactersIn: " []")).split(separator: ",")
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func results(_ r: CLIRunner.Result) throws -> [[String: Any]] {
        try CLIRunner.json(r.stdout)["results"] as? [[String: Any]] ?? []
    }

    @Test func initBoxesServedStopsAndLeavesOutliersOutWithOneNote() throws {
        let tmp = try TestPaths.temporaryDirectory("extent-init")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feed = try Self.writeFeed(in: tmp)
        let city = tmp.appendingPathComponent("city")
        let r = try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--id", "monaco-bus"])
        #expect(r.status == 0, "\(r.stderr)")
        let box = try Self.bbox(city.appendingPathComponent("city.yaml"))
        // The three Monaco stops (7.41…7.43, 43.73…43.75), padded by 0.001°; neither Paris nor Lyon.
        #expect(box.count == 4 && box[0] > 7.40 && box[2] < 7.44 && box[1] > 43.72 && box[3] < 43.76, "\(box)")
        // Unused Paris stops are not places the pack serves: only the two served Lyon stops are outliers.
        let notes = r.stderr.split(separator: "\n").filter { $0.contains("main cluster") }
        #expect(notes.count == 1, "\(r.stderr)")
        #expect(notes.first?.contains("2 served stops") == true && notes.first?.contains("[4.8270, 45.7485, 4.8594, 45.7606]") == true,
            "\(r.stderr)")
    }

    /// A line that serves the city keeps its terminus out of town in the box (issue 33, point 5): route R1 also
    /// runs from the Port to Cannes (≈ 45 km away); the Lyon shuttle, which does not serve Monaco, stays out. Then
    /// the terminus's departures are in the pack.
    @Test func initKeepsTheTerminiOfLinesThatServeTheCity() throws {
        let tmp = try TestPaths.temporaryDirectory("extent-termini")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feed = try Self.writeFeed(in: tmp)
        let stops = feed.appendingPathComponent("stops.txt"), trips = feed.appendingPathComponent("trips.txt")
        let times = feed.appendingPathComponent("stop_times.txt")
        try (String(contentsOf: stops, encoding: .utf8) + "C1,Cannes Gare,43.5530,7.0190,0,\n").write(to: stops, atomically: true, encoding: .utf8)
        try (String(contentsOf: trips, encoding: .utf8) + "R1,WK,T3,,\n").write(to: trips, atomically: true, encoding: .utf8)
        try (String(contentsOf: times, encoding: .utf8) + "T3,11:00:00,11:00:00,S1,1,\nT3,11:50:00,11:50:00,C1,2,\n")
            .write(to: times, atomically: true, encoding: .utf8)
        let city = tmp.appendingPathComponent("city")
        let r = try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--id", "monaco-bus"])
        #expect(r.status == 0, "\(r.stderr)")
        let box = try Self.bbox(city.appendingPathComponent("city.yaml"))
        #expect(box.count == 4 && box[0] < 7.019 && box[1] < 43.553 && box[2] < 7.44 && box[3] < 43.76, "\(box)")
        #expect(r.stderr.contains("note: the bbox also holds 1 stop outside the main cluster served by lines that serve it"), "\(r.stderr)")
        // Lyon is still left out, with its note.
        #expect(r.stderr.contains("2 served stops") && box[1] > 43.5, "\(r.stderr)")
        let out = tmp.appendingPathComponent("out")
        let build = try CLIRunner.runBinary(["build", city.path, "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1780000000"])
        #expect(build.status == 0, "\(build.stderr)")
        let departures = try CLIRunner.runBinary([
            "query", out.appendingPathComponent("monaco-bus/manifest.json").path, "--departures", "C1", "--at", "2026-06-01 11:00",
        ])
        #expect(departures.status == 0 && departures.stdout.contains("Cannes Gare"), "\(departures.stdout)\(departures.stderr)")
    }

    @Test func buildLeavesStopsOutsideOutWithOneWarningUnlessKept() throws {
        let tmp = try TestPaths.temporaryDirectory("extent-build")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feed = try Self.writeFeed(in: tmp)
        let city = tmp.appendingPathComponent("city")
        #expect(try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--id", "monaco-bus"]).status == 0)
        let output = tmp.appendingPathComponent("out")
        let built = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--format", "json"])
        #expect(built.status == 0, "\(built.stderr)")
        let outside = built.stdout.components(separatedBy: "\"gtfs.point_outside_pack_bbox\"").count - 1
        #expect(outside == 1, "one warning for the feed, not one per stop:\n\(built.stdout.prefix(3000))")
        #expect(built.stdout.contains("7 stops lie outside the city bounding box"), "\(built.stdout.prefix(3000))")
        #expect(built.stdout.contains("with 1 trip that stops nowhere inside"))
        let pack = output.appendingPathComponent("monaco-bus").path
        for word in ["Paris", "Lyon"] {
            #expect(try Self.results(CLIRunner.runBinary(["query", pack, "--search", word, "--format", "json"])).isEmpty, "\(word)")
        }
        #expect(try CLIRunner.runBinary(["query", pack, "--departures", "L1", "--at", "2026-06-01 09:00"]).status == 1)
        #expect(try Self.results(CLIRunner.runBinary(["query", pack, "--search", "Casino", "--format", "json"])).count == 1)
        let manifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("monaco-bus/manifest.json"), encoding: .utf8))
        #expect((manifest["counts"] as? [String: Any])?["stops"] as? Int == 3, "\(manifest["counts"] ?? "-")")

        // The city file keeps them: no warning, every stop in the pack and searchable.
        let cityFile = city.appendingPathComponent("city.yaml")
        try (String(contentsOf: cityFile, encoding: .utf8) + "stops_outside_bbox: keep\n").write(to: cityFile, atomically: true, encoding: .utf8)
        let kept = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--format", "json"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(!kept.stdout.contains("gtfs.point_outside_pack_bbox"))
        #expect(try Self.results(CLIRunner.runBinary(["query", pack, "--search", "Lyon", "--format", "json"])).count == 2)
        let keptManifest = try CLIRunner.json(String(contentsOf: output.appendingPathComponent("monaco-bus/manifest.json"), encoding: .utf8))
        #expect((keptManifest["counts"] as? [String: Any])?["stops"] as? Int == 10)

        try (String(contentsOf: cityFile, encoding: .utf8) + "stops_outside_bbox: sometimes\n").write(to: cityFile, atomically: true, encoding: .utf8)
        let bad = try CLIRunner.runBinary(["check", city.path])
        #expect(bad.status != 0 && bad.stderr.contains("stops_outside_bbox"), "\(bad.stderr)")
    }

    @Test func initAcceptsABoxAcrossTheAntimeridianAndRefusesSwappedOnes() throws {
        let tmp = try TestPaths.temporaryDirectory("extent-180")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feed = try Self.writeFeed(in: tmp)
        let city = tmp.appendingPathComponent("fiji")
        let ok = try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--bbox", "179.95,-16.9,-179.95,-16.7"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try Self.bbox(city.appendingPathComponent("city.yaml")) == [179.95, -16.9, -179.95, -16.7])
        #expect(try CLIRunner.runBinary(["check", city.path]).stderr.contains("city.invalid_bbox") == false)
        // Monaco's box with its longitudes swapped would be 359.96° wide: a mistake, not a box across ±180°.
        let swapped = try CLIRunner.runBinary(["init", tmp.appendingPathComponent("x").path, "--gtfs", feed.path, "--bbox", "7.44,43.72,7.40,43.76"])
        #expect(swapped.status == 64 && swapped.stderr.contains("antimeridian"), "\(swapped.stderr)")
    }

    /// On every ../shared feed, `init` derives a city-sized box (under 1.5° either way) holding the feed's served
    /// stops' main cluster. The Google sample feed (Beatty, Nevada) has two served stops 50–70 km out (Furnace Creek,
    /// Amargosa Valley) on lines that serve Beatty: kept, with one note; no feed loses a served stop.
    @Test(.needsSharedData) func sharedFeedsGetCitySizedBoxes() throws {
        let data = try #require(TestPaths.sharedData)
        let tmp = try TestPaths.temporaryDirectory("extent-shared")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feeds = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("gtfs").path)
            .filter { $0.hasSuffix(".zip") }.sorted()
        #expect(feeds.count >= 7)
        for feed in feeds {
            let city = tmp.appendingPathComponent(String(feed.dropLast(4)))
            let r = try CLIRunner.runBinary(["init", city.path, "--gtfs", data.appendingPathComponent("gtfs/\(feed)").path, "--id", "x"])
            #expect(r.status == 0, "\(feed): \(r.stderr)")
            let box = try Self.bbox(city.appendingPathComponent("city.yaml"))
            #expect(box.count == 4 && box[2] - box[0] < 1.5 && box[3] - box[1] < 1.5, "\(feed): \(box)")
            // Furnace Creek and Amargosa Valley are served by lines that serve Beatty: kept as termini (issue 33).
            #expect(!r.stderr.contains("far from it lie outside"), "\(feed): \(r.stderr)")
            let termini = r.stderr.contains("served by lines that serve it")
            #expect(termini == (feed == "google-sample-feed.zip"), "\(feed): \(r.stderr)")
            if feed == "google-sample-feed.zip" { #expect(r.stderr.contains("the bbox also holds 2 stops outside the main cluster")) }
        }
    }

    /// Taveuni (Tests/Fixtures/antimeridian): POIs and stops metres apart on both sides of 180°.
    @Test func aCityAcrossTheAntimeridianIsBoxedBuiltAndQueried() throws {
        let tmp = try TestPaths.temporaryDirectory("extent-taveuni")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let fixture = TestPaths.root.appendingPathComponent("Tests/Fixtures/antimeridian")
        let city = tmp.appendingPathComponent("taveuni")
        let initRun = try CLIRunner.runBinary([
            "init", city.path, "--osm", fixture.appendingPathComponent("map.osm").path,
            "--gtfs", fixture.appendingPathComponent("gtfs").path, "--id", "taveuni",
        ])
        #expect(initRun.status == 0, "\(initRun.stderr)")
        // Narrow and across 180° (minLon > maxLon), not 360° wide; the Suva trip's two stops are the outliers.
        let box = try Self.bbox(city.appendingPathComponent("city.yaml"))
        #expect(box.count == 4 && box[0] > 179.9 && box[2] < -179.9, "\(box)")
        #expect(initRun.stderr.contains("2 served stops far from it"), "\(initRun.stderr)")

        let output = tmp.appendingPathComponent("out")
        let built = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--format", "json"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(!built.stdout.contains("osm.poi_outside_bbox"), "POIs east of 180° are inside a box across it")
        #expect(built.stdout.contains("3 stops lie outside"), "\(built.stdout.prefix(2000))")
        let pack = output.appendingPathComponent("taveuni").path
        let names = ["Dateline East", "Dateline Toilets", "Dateline West", "Waiyevo ATM"]
        for near in ["-16.8,180", "-16.8,-180", "-16.8001,179.99995", "-16.8001,-179.99995"] {
            let found = try Self.results(CLIRunner.runBinary(["query", pack, "--near", near, "--radius", "60", "--format", "json"]))
            #expect(found.compactMap { $0["name"] as? String }.sorted() == names, "near \(near): \(found)")
        }
        #expect(try Self.results(CLIRunner.runBinary(["query", pack, "--search", "Suva", "--format", "json"])).isEmpty)
    }
}
