import CityPackCache
import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: the codec (CacheCodable, CacheWriter) and StageCache.formatVersion are internal.
@testable import CityPackCompiler

/// Pins the build cache's layout: one sample of every ``CacheCodable`` type, its bytes recorded in
/// `CacheCodecGoldens.swift` with the ``StageCache/formatVersion`` they were recorded at. A layout change without a
/// version bump fails here (a cache written by the old layout would be misread, not ignored); a bump asks for the
/// goldens to be re-recorded (`RECORD_GOLDENS=1 swift test --filter CacheCodecGoldenTests`).
@Suite struct CacheCodecGoldenTests {
    /// A sample value of each type, by type name: every field set, optionals both ways where cheap.
    static var samples: [(name: String, value: any CacheCodable)] {
        let location = SourceLocation(file: "a/b.osm", line: 3, column: 7, field: "name")
        let diagnostic = Diagnostic(
            .warning, code: "osm.example", message: "a message", at: location, entity: "n1",
            notes: [Diagnostic.Note("a note", at: SourceLocation(file: "c.txt", line: 1)), Diagnostic.Note("no place")])
        var poi = POI(
            ref: OSMRef(.way, 42), coordinate: Coordinate(lat: 43.7384, lon: 7.4246), category: "toilet", name: "WC",
            localizedNames: ["fr": "Toilettes", "de": "Toilette"], tags: ["wheelchair": "yes", "fee": "no"], location: location)
        poi.alsoCategories = ["drinking_water"]
        var osm = OSMIngestResult()
        osm.pois = [poi]
        osm.nodes = 10
        osm.ways = 2
        osm.relations = 1
        osm.bytesRead = 1234
        osm.newestTimestamp = "2021-01-01T00:00:00Z"
        osm.declaredBounds = BoundingBox(minLon: 7.4, minLat: 43.7, maxLon: 7.5, maxLat: 43.8)
        osm.multipolygonPOIs = 1
        let stop = TransitStop(
            id: "S1", name: "Stop", coordinate: Coordinate(lat: 43.7, lon: 7.4), locationType: 0, parentStation: "P1",
            zoneID: nil, timezone: "Europe/Monaco", wheelchairBoarding: 1, line: 2)
        let route = TransitRoute(
            id: "R1", agencyID: "A", shortName: "1", longName: nil, type: 3, color: "FF0000", textColor: nil,
            networkID: nil, line: 2)
        let trip = TransitTrip(
            id: "T1", routeID: "R1", serviceID: "WK", headsign: "Port", directionID: 1, blockID: nil, shapeID: "SH",
            wheelchairAccessible: 2, line: 2)
        var stopTimes = TransitStopTimes()
        stopTimes.trip = [0, 0]
        stopTimes.stop = [0, 1]
        stopTimes.sequence = [1, 2]
        stopTimes.arrival = [3600, 3700]
        stopTimes.departure = [3610, 3700]
        stopTimes.distance = [0, 1.5]
        stopTimes.timepoint = [1, -1]
        stopTimes.line = [2, 3]
        stopTimes.unknownTripIDs = [5: "T9"]
        stopTimes.byTrip = [0, 1]
        stopTimes.tripRanges = [0..<2]
        var shapes = TransitShapePoints()
        shapes.ids = ["SH"]
        shapes.shape = [0]
        shapes.lat = [43.7]
        shapes.lon = [7.4]
        shapes.sequence = [1]
        shapes.distance = [.nan]
        shapes.line = [2]
        let calendar = TransitCalendar(serviceID: "WK", days: 0b0011111, startDate: 20240101, endDate: 20241231, line: 2)
        let date = TransitCalendarDate(serviceID: "WK", date: 20240501, exceptionType: 2, line: 2)
        let frequency = TransitFrequency(tripID: "T1", startTime: 21600, endTime: 36000, headwaySecs: 600, exactTimes: true, line: 2)
        let transfer = TransitTransfer(
            fromStopID: "S1", toStopID: "S2", fromRouteID: nil, toRouteID: nil, fromTripID: nil, toTripID: nil,
            transferType: 2, minTransferTime: 120, line: 2)
        let info = TransitFeedInfo(
            publisherName: "P", publisherURL: "https://p.example", lang: "fr", startDate: 20240101, endDate: nil,
            version: "v1", line: 2)
        let extra = TransitExtraTable(columns: ["a", "b"], rows: [["1", nil]], lines: [2])
        var feed = GTFSFeed(displayPath: "gtfs", files: ["stops.txt": "gtfs/stops.txt"], allFileNames: ["stops.txt"])
        feed.headerLines = ["stops.txt": 1]
        feed.agencies = [TransitAgency(id: "A", name: "Agency", url: "https://a.example", timezone: "Europe/Monaco", line: 2)]
        feed.stops = [stop]
        feed.routes = [route]
        feed.trips = [trip]
        feed.stopTimes = stopTimes
        feed.calendars = [calendar]
        feed.calendarDates = [date]
        feed.shapes = shapes
        feed.frequencies = [frequency]
        feed.transfers = [transfer]
        feed.feedInfo = info
        feed.archiveTime = 1_700_000_000
        feed.extraTables = ["levels.txt": extra]
        return [
            ("SourceLocation", location), ("Diagnostic", diagnostic),
            ("DiagnosticBag.Event.report", DiagnosticBag.Event.report(diagnostic)),
            ("DiagnosticBag.Event.relocate", DiagnosticBag.Event.relocate([location: SourceLocation(file: "moved")])),
            ("Coordinate", Coordinate(lat: -33.5, lon: 151.25)), ("BoundingBox", osm.declaredBounds!), ("POI", poi),
            ("OSMIngestResult", osm), ("TransitAgency", feed.agencies[0]), ("TransitStop", stop), ("TransitRoute", route),
            ("TransitTrip", trip), ("TransitStopTimes", stopTimes), ("TransitCalendar", calendar),
            ("TransitCalendarDate", date), ("TransitShapePoints", shapes), ("TransitFrequency", frequency),
            ("TransitTransfer", transfer), ("TransitFeedInfo", info), ("TransitExtraTable", extra), ("GTFSFeed", feed),
        ]
    }

    static func hex(_ value: any CacheCodable) -> String {
        var w = CacheWriter()
        value.encode(to: &w)
        return w.bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Decoding the bytes and encoding again gives the same bytes (encode and decode agree).
    static func roundTrips(_ value: some CacheCodable) throws -> Bool {
        var w = CacheWriter()
        value.encode(to: &w)
        let bytes = w.bytes
        let again: [UInt8] = try bytes.withUnsafeBytes { raw in
            var r = CacheReader(raw)
            let decoded = try type(of: value).init(from: &r)
            #expect(r.atEnd)
            var w2 = CacheWriter()
            decoded.encode(to: &w2)
            return w2.bytes
        }
        return again == bytes
    }

    @Test func everySampleRoundTrips() throws {
        for (name, value) in Self.samples { #expect(try Self.roundTrips(value), "\(name)") }
    }

    @Test func layoutsMatchTheGoldensOfThisFormatVersion() throws {
        let now = Dictionary(uniqueKeysWithValues: Self.samples.map { ($0.name, Self.hex($0.value)) })
        if RecordMode.isOn(RecordMode.goldens) {
            try Self.record(now)
            RecordMode.recorded("cache codec layouts at format \(StageCache.formatVersion)", by: RecordMode.goldens)
            return
        }
        let version = StageCache.formatVersion
        for (name, bytes) in now.sorted(by: { $0.key < $1.key }) {
            let recorded = Self.recorded[name]
            if version == Self.recordedVersion {
                #expect(
                    recorded == bytes,
                    """
                    the build cache's layout of \(name) changed while StageCache.formatVersion is still \(version): \
                    bump StageCache.formatVersion (caches of the old layout would be misread), then re-record with \
                    RECORD_GOLDENS=1 swift test --filter CacheCodecGoldenTests
                    """)
            }
        }
        #expect(
            version == Self.recordedVersion,
            """
            StageCache.formatVersion is \(version) but the codec goldens were recorded at \(Self.recordedVersion): \
            re-record them with RECORD_GOLDENS=1 swift test --filter CacheCodecGoldenTests
            """)
        #expect(Set(Self.recorded.keys) == Set(now.keys), "samples and goldens differ: re-record")
    }

    /// Rewrites `CacheCodecGoldens.swift`.
    static func record(_ layouts: [String: String]) throws {
        var text = """
            // Generated by CacheCodecGoldenTests (RECORD_GOLDENS=1 swift test --filter CacheCodecGoldenTests); do not edit.
            // Each sample's encoding in hex, recorded at StageCache.formatVersion \(StageCache.formatVersion).

            extension CacheCodecGoldenTests {
                static let recordedVersion: UInt32 = \(StageCache.formatVersion)
                static let recorded: [String: String] = [

            """
        for (name, bytes) in layouts.sorted(by: { $0.key < $1.key }) {
            text += "        \"\(name)\":\n            \"\(bytes)\",\n"
        }
        text += "    ]\n}\n"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("CacheCodecGoldens.swift")
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
