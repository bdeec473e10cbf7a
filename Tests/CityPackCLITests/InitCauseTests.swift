import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// `init` and `build` name the real cause when a source holds no usable data (issue 33, point 2; gtfs.feed_not_found,
/// osm.not_osm), through the
/// binary: a zip inside the zip, a folder holding the feed's zip, files two folders deep, an empty PBF, an
/// xz-compressed extract; with `--bbox` too, instead of exiting silently into a build with five "missing file"
/// errors.
@Suite(.serialized) struct InitCauseTests {
    static func feedFiles() -> [(String, String)] {
        RuleExampleCity.files.filter { $0.0.hasPrefix("gtfs/") }.map { (String($0.0.dropFirst(5)), $0.1) }.sorted { $0.0 < $1.0 }
    }

    /// Makes each layout in `tmp`; returns (the argument, the expected cause).
    static func layouts(in tmp: URL) throws -> [([String], String)] {
        let fm = FileManager.default
        let inner = TestZip.make(feedFiles().map { TestZip.Entry($0.0, $0.1) })
        try TestZip.make([TestZip.Entry("feed.zip", Array(inner))]).write(to: tmp.appendingPathComponent("outer.zip"))
        try fm.createDirectory(at: tmp.appendingPathComponent("holder"), withIntermediateDirectories: true)
        try inner.write(to: tmp.appendingPathComponent("holder/feed.zip"))
        try fm.createDirectory(at: tmp.appendingPathComponent("deep/a/b"), withIntermediateDirectories: true)
        for (name, text) in feedFiles() { try Data(text.utf8).write(to: tmp.appendingPathComponent("deep/a/b/\(name)")) }
        try Data().write(to: tmp.appendingPathComponent("empty.osm.pbf"))
        try Data([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 1, 2, 3]).write(to: tmp.appendingPathComponent("x.osm.xz"))
        return [
            (["--gtfs", "outer.zip"], "outer.zip: error: the archive holds another zip, `feed.zip`, and no GTFS file: unzip it and pass the inner zip"),
            (["--gtfs", "holder"], "holder: error: the folder holds a zip, `feed.zip`, and no GTFS file: pass the zip itself (--gtfs holder/feed.zip)"),
            (["--gtfs", "deep"], "deep: error: no GTFS file at the folder's root: stops.txt is in `a/b/`, 2 folders down; pass that folder (--gtfs deep/a/b)"),
            (["--osm", "empty.osm.pbf"], "empty.osm.pbf: error: the file is empty (0 bytes): no OSM XML or PBF data [osm.not_osm]"),
            (["--osm", "x.osm.xz"], "x.osm.xz: error: the file is xz-compressed, which CityPack does not read"),
        ]
    }

    @Test func initAndBuildNameTheCause() throws {
        let tmp = try TestPaths.temporaryDirectory("init-cause")
        defer { try? FileManager.default.removeItem(at: tmp) }
        for (source, cause) in try Self.layouts(in: tmp) {
            try? FileManager.default.removeItem(at: tmp.appendingPathComponent("city"))
            let derived = try CLIRunner.runBinary(["init", "city"] + source, cwd: tmp)
            #expect(derived.status == 1, "\(source)")
            #expect(derived.stderr.contains(cause), "\(source): \(derived.stderr)")
            #expect(derived.stderr.contains("no bounding box could be derived from the sources (they hold no readable position: see the errors above)"),
                "\(source): \(derived.stderr)")
            let boxed = try CLIRunner.runBinary(["init", "city", "--bbox", "7.40,43.72,7.45,43.76"] + source, cwd: tmp)
            #expect(boxed.status == 0, "\(source): \(boxed.stderr)")
            #expect(boxed.stderr.contains(cause) && boxed.stderr.contains("every build fails until this is fixed"), "\(source): \(boxed.stderr)")
            let build = try CLIRunner.runBinary(["build", "city", "--output", "out"], cwd: tmp)
            #expect(build.status == 1, "\(source)")
            #expect(build.stderr.contains(cause), "\(source): \(build.stderr)")
            #expect(!build.stderr.contains("required file `stops.txt` is missing"), "\(source): \(build.stderr)")
        }
    }
}
