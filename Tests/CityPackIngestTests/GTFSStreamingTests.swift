import CityPackDiagnostics
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: tests ZipReader, the GTFS reader's internal archive reader, directly.
@testable import CityPackIngest

/// GTFS tables are streamed from folders and zips: the feed and the diagnostics do not depend on how the bytes
/// are cut, a zip entry is trusted only once it proved sound (rows read before a failure are dropped), and a
/// zip bomb is refused after a few megabytes of output instead of after inflating it.
@Suite struct GTFSStreamingTests {
    /// The model read from a feed, in comparable form (NaN distances compared by bits).
    struct Fingerprint: Equatable {
        var tables: [String] = []
        var stopTimeColumns: [[Int32]] = []
        var stopTimeCount = 0
        var stopCount = 0
        var distances: [[UInt32]] = []
        var shapes: [[Int32]] = []
        var coordinates: [[Double]] = []

        init(_ feed: GTFSFeed) {
            tables = [
                "\(feed.files.sorted { $0.key < $1.key })", "\(feed.headerLines.sorted { $0.key < $1.key })",
                "\(feed.agencies)", "\(feed.stops)", "\(feed.routes)", "\(feed.trips)", "\(feed.calendars)",
                "\(feed.calendarDates)", "\(feed.frequencies)", "\(feed.transfers)", "\(String(describing: feed.feedInfo))",
                "\(feed.shapes.ids)", "\(feed.stopTimes.unknownTripIDs.sorted { $0.key < $1.key })",
                "\(feed.stopTimes.unknownStopIDs.sorted { $0.key < $1.key })",
                "\(feed.extraTables.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.columns) \($0.value.rows) \($0.value.lines)" })",
                "\(feed.stopTimes.tripRanges)",
            ]
            let st = feed.stopTimes
            stopTimeColumns = [st.trip, st.stop, st.sequence, st.arrival, st.departure, st.line, st.byTrip]
            stopTimeCount = st.count
            stopCount = feed.stops.count
            distances = [st.distance.map(\.bitPattern), feed.shapes.distance.map(\.bitPattern)]
            shapes = [feed.shapes.shape, feed.shapes.sequence, feed.shapes.line]
            coordinates = [feed.shapes.lat, feed.shapes.lon]
        }
    }

    static func read(_ path: String, display: String, options: GTFSReadOptions = GTFSReadOptions()) throws
        -> (Fingerprint?, [String], DiagnosticBag)
    {
        let bag = DiagnosticBag()
        let feed = try GTFSReader.read(path: path, displayPath: display, bag: bag, options: options)
        let diagnostics = bag.diagnostics.map { "\($0.severity) \($0.code) \($0.location.map { "\($0) \($0.field ?? "")" } ?? "-") \($0.entity ?? "") \($0.message)" }
        return (feed.map(Fingerprint.init), diagnostics + ["counts \(bag.errorCount) \(bag.warningCount) \(bag.infoCount) \(bag.suppressed.sorted { $0.key < $1.key })"], bag)
    }

    static func tiny(chunk: Int, recordBuffer: Int) -> GTFSReadOptions {
        var options = GTFSReadOptions()
        options.readChunkSize = chunk
        options.recordBufferSize = recordBuffer
        return options
    }

    /// Every shared feed (zips and folders, real and broken) read in 1 MiB pieces, and cut into 7-byte pieces (a
    /// feed over 256 KiB: 4 093-byte ones) with every record that reaches a piece's end and is longer than 16
    /// bytes scanned in place: the same feed and the same diagnostics.
    @Test(.needsSharedData) func sharedFeedsReadTheSameHoweverCut() throws {
        let root = TestPaths.sharedData!.appendingPathComponent("gtfs")
        var feeds: [String] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "zip" { feeds.append(url.path) }
            if url.lastPathComponent == "agency.txt" { feeds.append(url.deletingLastPathComponent().path) }
        }
        #expect(feeds.count > 30)
        for path in feeds.sorted() {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let (reference, expected, _) = try Self.read(path, display: "feed")
            let cut = size > 1 << 18 ? Self.tiny(chunk: 4_093, recordBuffer: 16) : Self.tiny(chunk: 7, recordBuffer: 16)
            let (got, diagnostics, _) = try Self.read(path, display: "feed", options: cut)
            #expect(got == reference, "\(path)")
            #expect(diagnostics == expected, "\(path): \(diagnostics.difference(from: expected))")
        }
    }

    static let tables = HostileGTFSTests.tables

    static func zip(_ entries: [TestZip.Entry], in dir: URL) throws -> String {
        let url = dir.appendingPathComponent("feed.zip")
        try TestZip.make(entries).write(to: url)
        return url.path
    }

    /// 100 MiB of one stop_times row deflates to about 250 KiB (a ratio near 400): refused with `gtfs.zip_bomb`
    /// at the entry once the output passes 200 × the compressed bytes read so far plus 1 MiB, that is after
    /// about 2 MiB, not after 100 MiB; the rows read before are dropped.
    @Test func zipBombOfRowsIsRefusedEarly() throws {
        let dir = try TestPaths.temporaryDirectory("gtfs-bomb")
        defer { try? FileManager.default.removeItem(at: dir) }
        let row = Array("T,08:00:00,08:00:00,S1,1\n".utf8)
        var left = 100 << 20
        var first = true
        let bomb = TestZip.Entry("stop_times.txt") {
            guard left > 0 else { return nil }
            var chunk: [UInt8] = first ? Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n".utf8) : []
            first = false
            while chunk.count < 1 << 20 { chunk += row }
            left -= chunk.count
            return chunk
        }
        let path = try Self.zip(Self.tables.filter { $0.0 != "stop_times.txt" }.map { TestZip.Entry($0.0, $0.1) } + [bomb], in: dir)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(size < 1 << 20, "the bomb is small: \(size) bytes")

        let bag = DiagnosticBag()
        let feed = try #require(try GTFSReader.read(path: path, displayPath: "feed.zip", bag: bag))
        let errors = bag.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == ["gtfs.zip_bomb"], "\(bag.diagnostics)")
        let bombError = try #require(errors.first)
        #expect(bombError.location == CityPackDiagnostics.SourceLocation(file: "feed.zip/stop_times.txt"))
        // "… (stopped after N inflated bytes from M compressed)"
        let words = bombError.message.split(separator: " ")
        let produced = try #require(words.firstIndex(of: "after").flatMap { Int(words[$0 + 1]) })
        #expect(produced > 1 << 20 && produced < 4 << 20, "\(bombError.message)")
        #expect(feed.stopTimes.count == 0, "rows read before the refusal are dropped")
        #expect(feed.stops.count == 2, "the other tables are read")

        // The reader itself: a bounded number of bytes handed out, in pieces.
        let archive = try ZipReader(path: path, maxEntries: 100)
        let entry = try #require(archive.entries.first { $0.path == "stop_times.txt" })
        var handedOut = 0
        #expect(throws: ZipReader.Failure.self) {
            try archive.forEachChunk(entry, maxBytes: 1 << 30, maxRatio: 200) { handedOut += $0.count }
        }
        #expect(handedOut > 1 << 20 && handedOut < 4 << 20, "\(handedOut)")
        // A generous ratio lets it through, still in pieces: the size limit then stops it.
        handedOut = 0
        #expect(throws: ZipReader.Failure.self) {
            try archive.forEachChunk(entry, maxBytes: 8 << 20, maxRatio: 10_000) { handedOut += $0.count }
        }
        #expect(handedOut == 8 << 20)
    }

    /// A stop_times entry whose last byte is damaged: its rows are parsed while it inflates, but the CRC-32
    /// fails at the end, so they are all dropped and only `gtfs.invalid_archive` is reported, as when entries
    /// were checked before parsing. The same table intact is read.
    @Test func rowsOfAnEntryThatFailsLateAreDropped() throws {
        let dir = try TestPaths.temporaryDirectory("gtfs-late")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<5_000 { text += "T, 08:00:00,08:00:00,S\(i % 2 + 1),\(i + 1)\n" }  // a whitespace warning per row
        let others = Self.tables.filter { $0.0 != "stop_times.txt" }.map { TestZip.Entry($0.0, $0.1) }
        var zip = TestZip.make([TestZip.Entry("stop_times.txt", text, deflate: false)] + others)
        let path = dir.appendingPathComponent("feed.zip").path
        try zip.write(to: URL(fileURLWithPath: path))
        let (intact, _, intactBag) = try Self.read(path, display: "feed.zip")
        #expect(intact?.stopTimeCount == 5_000)
        #expect(intactBag.diagnostics.contains { $0.code == "csv.leading_or_trailing_whitespace" })

        zip[30 + "stop_times.txt".utf8.count + text.utf8.count - 2] ^= 0x01  // the last row's sequence digit
        try zip.write(to: URL(fileURLWithPath: path))
        for options in [GTFSReadOptions(), Self.tiny(chunk: 4_096, recordBuffer: 64)] {
            let (damaged, _, bag) = try Self.read(path, display: "feed.zip", options: options)
            #expect(damaged?.stopTimeCount == 0)
            #expect(damaged?.stopCount == 2)
            #expect(bag.diagnostics.filter { $0.location?.file == "feed.zip/stop_times.txt" }.map(\.code) == ["gtfs.invalid_archive"])
            #expect(bag.diagnostics.contains { $0.message.contains("CRC-32") })
        }
    }

    /// More findings than the reader holds for one entry (20 000): the entry is checked whole, then read again
    /// reporting directly; the result is the folder's. Damaged, it is refused before any row is reported.
    @Test func entryWithManyFindingsIsCheckedThenRead() throws {
        let dir = try TestPaths.temporaryDirectory("gtfs-many")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<12_000 { text += "T, 08:00:00 , 08:00:00,S\(i % 2 + 1),\(i + 1)\n" }  // two warnings per row
        let others = Self.tables.filter { $0.0 != "stop_times.txt" }
        let folder = dir.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, body) in others + [("stop_times.txt", text)] {
            try Data(body.utf8).write(to: folder.appendingPathComponent(name))
        }
        var zip = TestZip.make([TestZip.Entry("stop_times.txt", text, deflate: false)] + others.map { TestZip.Entry($0.0, $0.1) })
        let path = dir.appendingPathComponent("feed.zip").path
        try zip.write(to: URL(fileURLWithPath: path))
        let (fromFolder, expected, folderBag) = try Self.read(folder.path, display: "feed")
        #expect(folderBag.warningCount >= 24_000)
        let (fromZip, diagnostics, _) = try Self.read(path, display: "feed")
        #expect(fromZip == fromFolder)
        #expect(diagnostics == expected, "\(diagnostics.difference(from: expected))")

        zip[30 + "stop_times.txt".utf8.count + text.utf8.count - 2] ^= 0x01
        try zip.write(to: URL(fileURLWithPath: path))
        let (damaged, _, bag) = try Self.read(path, display: "feed")
        #expect(damaged?.stopTimeCount == 0)
        #expect(bag.diagnostics.filter { $0.location?.file == "feed/stop_times.txt" }.map(\.code) == ["gtfs.invalid_archive"])
    }

    /// Row progress of a zip entry: the total is estimated from the bytes inflated so far (an entry cannot be
    /// counted without inflating it twice); the last call is exact.
    @Test func zipProgressEstimatesThenCounts() throws {
        let dir = try TestPaths.temporaryDirectory("gtfs-zip-progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<40_000 { text += "T,08:00:00,08:00:00,S\(i % 2 + 1),\(i + 1)\n" }
        let path = try Self.zip(
            Self.tables.filter { $0.0 != "stop_times.txt" }.map { TestZip.Entry($0.0, $0.1) } + [TestZip.Entry("stop_times.txt", text)],
            in: dir)
        let calls = GTFSProgressTests.Calls()
        var options = Self.tiny(chunk: 65_536, recordBuffer: 1 << 20)
        options.progress = { file, done, total in calls.add(file, done, total) }
        _ = try GTFSReader.read(path: path, displayPath: "g.zip", bag: DiagnosticBag(), options: options)
        let stopTimes = calls.items.filter { $0.0 == "g.zip/stop_times.txt" }
        #expect(stopTimes.map(\.1) == [16_384, 32_768, 40_000])
        #expect(stopTimes.last?.2 == 40_000)
        #expect(stopTimes.dropLast().allSatisfy { abs(Double($0.2) - 40_000) / 40_000 < 0.05 }, "\(stopTimes)")
    }
}

extension Array where Element == String {
    /// The first line that differs, for failure messages.
    fileprivate func difference(from other: [String]) -> String {
        for k in 0..<Swift.max(count, other.count) where k >= count || k >= other.count || self[k] != other[k] {
            return "[\(k)] \(k < count ? self[k] : "—") ≠ \(k < other.count ? other[k] : "—")"
        }
        return "none"
    }
}
