import CityPackCache
import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: unit tests of the build cache's internal codec and entry format (CacheCodec, StageCache).
@testable import CityPackCompiler

/// The build cache's binary codec and entry checks, below the CLI (BuildCacheTests covers whole builds).
@Suite struct StageCacheTests {
    static let example = TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base")

    static func encoded(_ body: (inout CacheWriter) -> Void) -> [UInt8] {
        var w = CacheWriter()
        body(&w)
        return w.bytes
    }

    static func decode<T>(_ bytes: [UInt8], _ read: (inout CacheReader) throws(CacheReader.Malformed) -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var r = CacheReader(raw)
            let value = try read(&r)
            #expect(r.atEnd)
            return value
        }
    }

    /// A feed read from the example city's GTFS folder comes back field for field (its encoding, which writes
    /// every field, is the same after a round trip), and POIs and findings come back equal.
    @Test func roundTrips() throws {
        let bag = DiagnosticBag()
        let feed = try #require(
            try GTFSReader.read(path: Self.example.appendingPathComponent("gtfs").path, displayPath: "gtfs", bag: bag, options: GTFSReadOptions(limits: InputLimits())))
        #expect(feed.stopTimes.count > 0 && !feed.stops.isEmpty)
        let bytes = Self.encoded { $0.feed(feed) }
        let back = try Self.decode(bytes) { r throws(CacheReader.Malformed) in try r.feed() }
        #expect(Self.encoded { $0.feed(back) } == bytes)
        #expect(back.stops == feed.stops && back.trips == feed.trips && back.stopTimes.arrival == feed.stopTimes.arrival)
        #expect(back.stopTimes.tripRanges == feed.stopTimes.tripRanges && back.shapes.lat == feed.shapes.lat)

        var poi = POI(
            ref: OSMRef(.way, 42), coordinate: .init(lat: 43.7, lon: 7.42), category: "toilet", name: "WC",
            localizedNames: ["fr": "Toilettes", "de": "Toilette"], tags: ["wheelchair": "yes"],
            location: SourceLocation(file: "map.osm", line: 3, column: 2))
        poi.alsoCategories = ["drinking_water"]
        var osm = OSMIngestResult(pois: [poi, poi], nodes: 7, ways: 2, newestTimestamp: "2021-01-01T00:00:00Z")
        osm.multipolygonPOIs = 1
        let decoded = try Self.decode(Self.encoded { $0.osm(osm) }) { r throws(CacheReader.Malformed) in try r.osm() }
        #expect(decoded.pois == osm.pois && decoded.nodes == 7 && decoded.newestTimestamp == osm.newestTimestamp)

        let events: [DiagnosticBag.Event] = [
            .report(Diagnostic(.warning, code: "osm.poi_missing_name", message: "no name", at: SourceLocation(file: "a", line: 1, column: 2, field: "name"),
                entity: "n1", notes: [.init("see", at: SourceLocation(file: "b"))])),
            .relocate([SourceLocation(file: "gtfs/stops.txt", line: 3): SourceLocation(file: "gtfs/stops.txt", line: 3, column: 9)]),
            .report(Diagnostic(.error, code: "x.y", message: "é ✓", at: nil)),
        ]
        #expect(try Self.decode(Self.encoded { $0.events(events) }) { r throws(CacheReader.Malformed) in try r.events() } == events)
    }

    /// Every truncation of an encoded feed, and flipped bytes, throw or decode to something; none traps (the
    /// payload hash is checked first, so this is the last line of defence).
    @Test func malformedPayloadsNeverTrap() throws {
        let feed = try #require(
            try GTFSReader.read(path: Self.example.appendingPathComponent("gtfs").path, displayPath: "gtfs", bag: DiagnosticBag(), options: GTFSReadOptions(limits: InputLimits())))
        let bytes = Self.encoded { $0.feed(feed) }
        var failures = 0
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
            do { _ = try Self.decode(Array(bytes.prefix(cut))) { r throws(CacheReader.Malformed) in try r.feed() } } catch { failures += 1 }
        }
        #expect(failures > 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            _ = try? damaged.withUnsafeBytes { raw in
                var r = CacheReader(raw)
                return try r.feed()
            }
        }
    }

    /// Replaying recorded events into a fresh bag gives the findings the stage gave, under the bag's own settings.
    @Test func recordedEventsReplayThroughTheBagsSettings() {
        let first = DiagnosticBag(overrides: ["a.b": .error])
        first.startRecording()
        first.report(Diagnostic(.warning, code: "a.b", message: "one", at: SourceLocation(file: "f", line: 2)))
        first.report(Diagnostic(.note, code: "c.d", message: "two", at: SourceLocation(file: "f", line: 1)))
        first.relocate(where: { $0.line == 2 }) { picked in Dictionary(uniqueKeysWithValues: picked.map { ($0, SourceLocation(file: "f", line: 2, column: 5)) }) }
        let events = first.stopRecording()
        #expect(events.count == 3)
        let second = DiagnosticBag(overrides: ["a.b": .error])
        second.replay(events)
        #expect(second.diagnostics == first.diagnostics && second.errorCount == 1)
        #expect(second.diagnostics.first { $0.code == "a.b" }?.location?.column == 5)
    }

    /// Entries are checked before use: another key is a silent miss, damage a note, and a stored entry loads.
    @Test func entriesAreCheckedOnLoad() throws {
        let out = try TestPaths.temporaryDirectory("stage-cache")
        defer { try? FileManager.default.removeItem(at: out) }
        let bag = DiagnosticBag()
        let cache = StageCache(outputDirectory: out.path, cityID: "c", bag: bag)
        var key = CacheKey("ingestOSM")
        key.add("file", "x")
        #expect(cache.store("ingestOSM", key: key, payload: Self.encoded { $0.string("hello") }))
        #expect(cache.load("ingestOSM", key: key) { r throws(CacheReader.Malformed) in try r.string() } == "hello")
        var other = key
        other.add("more")
        #expect(cache.load("ingestOSM", key: other) { r throws(CacheReader.Malformed) in try r.string() } == nil)
        #expect(bag.diagnostics.isEmpty)
        // Another stage's entry under this name.
        let path = cache.path("ingestOSM")
        try FileManager.default.copyItem(atPath: path, toPath: cache.path("emit"))
        #expect(cache.load("emit", key: key) { r throws(CacheReader.Malformed) in try r.string() } == nil)
        #expect(bag.diagnostics.map(\.code) == ["pack.cache_ignored"] && bag.diagnostics.first?.severity == .note)
        // No temporary file is left beside the entries.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory).sorted() == ["emit.entry", "ingestOSM.entry"])
    }

    /// The digest memo of a rebuild loop: a file just written is hashed again every time (a rewrite of the same
    /// size in the same clock tick must change its key); a settled file is remembered until it changes.
    @Test func digestMemoNeverKeepsAFreshFile() throws {
        let dir = try TestPaths.temporaryDirectory("digest-memo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("source.csv").path
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: file))
        let first = DigestMemo.sha256(file)
        #expect(!DigestMemo.remembers(file))
        try Data("a,b\n1,3\n".utf8).write(to: URL(fileURLWithPath: file))
        let second = DigestMemo.sha256(file)
        #expect(first != nil && second != nil && first != second)
        // Settled: remembered, and used while the file is as it was.
        Thread.sleep(forTimeInterval: Double(DigestMemo.settledSeconds) + 0.2)
        #expect(DigestMemo.sha256(file) == second)
        #expect(DigestMemo.remembers(file))
        #expect(DigestMemo.sha256(file) == second)
        // Any write moves the status-change time: the memo no longer applies.
        try Data("a,b\n1,4\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(!DigestMemo.remembers(file))
        #expect(DigestMemo.sha256(file) != second)
    }
}
