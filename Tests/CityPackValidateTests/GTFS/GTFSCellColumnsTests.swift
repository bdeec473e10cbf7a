import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// Validation findings name their cell: line and byte column come from the reader's own scanner
/// (`GTFSCellFinder`), so a feed read from a zip gets the columns the same feed gets from a folder.
@Suite struct GTFSCellColumnsTests {
    /// The base feed with a dangling, quoted stop_id in stop_times and a route whose quoted short and long
    /// names are equal (commas inside quotes move the columns).
    static let files: [String: String] = {
        var files = GTFSFixture.base
        files["stop_times.txt"] = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,08:05:00,08:06:00,S2,2,1.3
            T1,08:10:00,08:10:00,"S9",3,2.6
            T2,25:00:00,25:00:00,S3,1,0
            T2,25:05:00,25:05:00,S2,2,1.3
            T2,25:10:00,25:10:00,S1,3,2.6

            """
        files["routes.txt"] = """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R1,A,"Line, One","Line, One",3

            """
        return files
    }()

    /// (file inside the feed, line, column, field, code) of every finding, in order.
    static func cells(_ diagnostics: [Diagnostic], feed: String) -> [String] {
        diagnostics.map { d in
            let l = d.location ?? SourceLocation(file: "")
            let file = l.file.hasPrefix(feed + "/") ? String(l.file.dropFirst(feed.count + 1)) : l.file
            return "\(file):\(l.line):\(l.column) \(l.field ?? "-") \(d.code)"
        }
    }

    @Test func zipFeedGetsTheColumnsOfTheFolderFeed() throws {
        let dir = try GTFSFixture.write(Self.files.mapValues { Optional($0) }, overBase: false)
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let zip = dir.deletingLastPathComponent().appendingPathComponent("feed.zip")
        try TestZip.make(Self.files.sorted { $0.key < $1.key }.map { TestZip.Entry($0.key, $0.value) }).write(to: zip)

        let folder = Self.cells(try GTFSFixture.runPath(dir.path, display: "feed", bbox: GTFSFixture.milan), feed: "feed")
        let zipped = Self.cells(try GTFSFixture.runPath(zip.path, display: "feed.zip", bbox: GTFSFixture.milan), feed: "feed.zip")
        #expect(folder.contains("stop_times.txt:4:22 stop_id gtfs.foreign_key_violation"), "\(folder)")
        #expect(folder.contains("routes.txt:2:18 route_long_name gtfs.route_short_long_name_equal"), "\(folder)")
        #expect(zipped == folder)
    }

    /// A zip whose stop_times rows lie behind many rows still gets the column, read in tiny pieces.
    @Test func zipColumnsSurviveSmallReads() throws {
        var files = Self.files
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
        for i in 0..<5_000 { stopTimes += "T1,08:00:00,08:00:00,S1,\(i + 1),0\n" }
        stopTimes += "T1,09:00:00,09:00:00,\"S9\",6000,0\n"
        files["stop_times.txt"] = stopTimes
        let dir = try TestPaths.temporaryDirectory("gtfs-zip-columns")
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("feed.zip")
        try TestZip.make(files.sorted { $0.key < $1.key }.map { TestZip.Entry($0.key, $0.value) }).write(to: zip)
        let bag = DiagnosticBag(maxPerCode: 100_000)
        var options = GTFSReadOptions()
        options.readChunkSize = 7
        let feed = try #require(try GTFSReader.read(path: zip.path, displayPath: "feed.zip", bag: bag, options: options))
        GTFSValidator.validate(feed, bbox: GTFSFixture.milan, buildDate: GTFSFixture.buildDate, bag: bag)
        let cells = Self.cells(bag.diagnostics, feed: "feed.zip")
        #expect(cells.contains("stop_times.txt:5002:22 stop_id gtfs.foreign_key_violation"), "\(cells)")
        #expect(!bag.diagnostics.contains { $0.location?.column == 0 }, "no location is left without its column")
    }

    /// Starting the rescan at the rows the first reading marked (every row, every third, none; big and tiny
    /// reads; folder and zip) gives the columns of a scan from the top, with a byte order mark, line breaks
    /// inside quoted values and findings spread over the file.
    @Test func rowIndexGivesTheColumnsOfAFullRescan() throws {
        var files = Self.files
        var stopTimes = "\u{FEFF}trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
        for i in 0..<60 {
            let stop = i % 7 == 3 ? "\"S9\"" : i % 11 == 5 ? "\"S\n9\"" : i % 13 == 0 ? "  S8" : "S1"
            stopTimes += "T1,08:00:00,08:00:00,\(stop),\(i + 1),0\n"
        }
        files["stop_times.txt"] = stopTimes
        let dir = try GTFSFixture.write(files.mapValues { Optional($0) }, overBase: false)
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let zip = dir.deletingLastPathComponent().appendingPathComponent("feed.zip")
        try TestZip.make(files.sorted { $0.key < $1.key }.map { TestZip.Entry($0.key, $0.value) }).write(to: zip)
        func cells(_ path: String, _ display: String, interval: Int, chunk: Int) throws -> [String] {
            let bag = DiagnosticBag(maxPerCode: 100_000)
            var options = GTFSReadOptions()
            options.rowIndexInterval = interval
            options.readChunkSize = chunk
            let feed = try #require(try GTFSReader.read(path: path, displayPath: display, bag: bag, options: options))
            GTFSValidator.validate(feed, bbox: GTFSFixture.milan, buildDate: GTFSFixture.buildDate, bag: bag)
            return Self.cells(bag.diagnostics, feed: display)
        }
        for (path, display) in [(dir.path, "feed"), (zip.path, "feed.zip")] {
            let full = try cells(path, display, interval: 0, chunk: 1 << 20)
            #expect(full.filter { $0.hasPrefix("stop_times.txt:") && $0.hasSuffix(" stop_id gtfs.foreign_key_violation") }.count > 10,
                "\(full)")
            for interval in [1, 3, 4096] {
                for chunk in [7, 1 << 20] {
                    #expect(try cells(path, display, interval: interval, chunk: chunk) == full, "\(display) \(interval) \(chunk)")
                }
            }
        }
    }
}
