@testable import CityPackEmit
import CityPackFormat
import CityPackKit
import CityPackSQLite
import CityPackTestSupport
import Foundation
import Testing

/// What ``PlaceMerge`` merges and nearly merges on real cities, as a committed listing
/// (`Fixtures/place-merge/<city>.txt`, re-recorded with `RECORD_GOLDENS=1`), so that a change in merging shows up
/// in review: Monaco's OSM stops with a small hand-written feed named as feeds write names (always), and Milan with
/// the ATM feed (with ../shared/data). The listing is made from the pack the CLI wrote (its transit POIs, stops and
/// stop modes), and its merged pairs must be the pack's `place_links`.
@Suite(.serialized) struct PlaceMergeListingTests {
    static let fixtures = TestPaths.root.appendingPathComponent("Tests/CityPackCLITests/Fixtures/place-merge")

    /// A feed for Monaco, hand-written: stops named as feeds abbreviate them next to the OSM bus stops and the
    /// station, a railway stop beside a bus stop of the same name (kept apart by modes), and names that differ.
    static let monacoFeed: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nCAM,Autobus,https://example.org,Europe/Monaco\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\n1,CAM,1,3\nR,CAM,TER,2\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nW,1,1,1,1,1,1,1,20210101,20211231\n",
        "trips.txt": "route_id,service_id,trip_id\n1,W,t1\nR,W,r1\n",
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon
            B1,BELGIQUE,43.737420,7.418730
            B2,Monte Carlo - Casino,43.739920,7.425230
            B3,Fontvieille C. Commercial,43.730615,7.417600
            B4,Pl. d'Armes,43.732050,7.418450
            B5,Kennedy Port,43.737060,7.424060
            B6,Hopital Princesse Grace,43.730770,7.412880
            B7,Place Ste-Devote Gare,43.736720,7.421050
            R1,Monaco Monte-Carlo,43.737100,7.421200
            R2,Ostende,43.737300,7.423800

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            t1,08:00:00,08:00:00,B1,1
            t1,08:02:00,08:02:00,B2,2
            t1,08:04:00,08:04:00,B3,3
            t1,08:06:00,08:06:00,B4,4
            t1,08:08:00,08:08:00,B5,5
            t1,08:10:00,08:10:00,B6,6
            t1,08:12:00,08:12:00,B7,7
            r1,09:00:00,09:00:00,R1,1
            r1,09:03:00,09:03:00,R2,2

            """,
    ]

    @Test func monacoWithAHandWrittenFeed() throws {
        let tmp = try TestPaths.temporaryDirectory("place-merge-monaco")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feed = tmp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        for (name, text) in Self.monacoFeed { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        let city = tmp.appendingPathComponent("monaco")
        let osm = TestPaths.root.appendingPathComponent("inputs/monaco/monaco-2021.osm.gz").path
        let made = try CLIRunner.run(["init", city.path, "--osm", osm, "--gtfs", feed.path, "--locales", "fr,en", "--id", "monaco"])
        try #require(made.status == 0, "\(made.stderr)")
        try check(city: city, output: tmp.appendingPathComponent("out"), listing: "monaco.txt")
    }

    @Test(.needsSharedData) func milanWithTheATMFeed() throws {
        let data = try #require(TestPaths.sharedData)
        let tmp = try TestPaths.temporaryDirectory("place-merge-milan")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let city = tmp.appendingPathComponent("milan")
        let made = try CLIRunner.run([
            "init", city.path, "--osm", data.appendingPathComponent("osm/milan-2015.osm.gz").path,
            "--gtfs", data.appendingPathComponent("gtfs/milan-atm-2015.zip").path, "--locales", "it,en", "--id", "milan",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        try check(city: city, output: tmp.appendingPathComponent("out"), listing: "milan.txt")
    }

    /// Builds the city, makes the listing from its pack, checks its pairs against `place_links` and compares it
    /// with the committed listing.
    func check(city: URL, output: URL, listing name: String) throws {
        let build = try CLIRunner.run(["build", city.path, "--output", output.path, "--quiet", "--no-cache"])
        try #require(build.status == 0, "\(build.stderr)")
        let reader = try PackReader.open(manifest: output.appendingPathComponent("\(city.lastPathComponent)/manifest.json"))
        defer { reader.close() }
        let (features, stops, links) = try Self.mergeInputs(reader.databasePath)
        let listing = PlaceMerge.listing(features: features, stops: stops)
        #expect(PlaceMerge.pairs(features: features, stops: stops).map { "\($0.poi),\($0.stop)" } == links, "the pack's place_links")
        let file = Self.fixtures.appendingPathComponent(name)
        if RecordMode.isOn(RecordMode.goldens) {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try Data(listing.utf8).write(to: file)
            RecordMode.recorded(name, by: RecordMode.goldens)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(listing == expected, "the merge listing changed: review, then RECORD_GOLDENS=1")
    }

    /// The transit POIs, the stops (with the modes the pack files them under) and `place_links` of a pack.
    static func mergeInputs(_ path: String) throws -> ([PlaceMerge.Feature], [PlaceMerge.Stop], [String]) {
        let db = try SQLiteDatabase<ListingFailure>(path: path, mode: .readOnly)
        defer { db.close() }
        var codes: [String] = []
        let categories = try db.prepare(PackSchema.categoryCodesQuery)
        while try categories.step() { codes.append(categories.text(0) ?? "") }
        func category(_ code: Int64) -> String { code >= 0 && code < codes.count ? codes[Int(code)] : "" }
        var names: [Int64: [String: String]] = [:]
        let nameRows = try db.prepare("SELECT poi, locale, name FROM \(PackSchema.POIName.table)")
        while try nameRows.step() { names[nameRows.int64(0), default: [:]][nameRows.text(1) ?? ""] = nameRows.text(2) ?? "" }
        var features: [PlaceMerge.Feature] = []
        let pois = try db.prepare(
            "SELECT id, \(PackSchema.degreesSQL("lat")), \(PackSchema.degreesSQL("lon")), category, name FROM \(PackSchema.POI.table) ORDER BY id")
        while try pois.step() {
            let c = category(pois.int64(3))
            guard PlaceMerge.maxDistance[c] != nil else { continue }
            features.append(PlaceMerge.Feature(
                id: pois.int64(0), name: pois.text(4), names: names[pois.int64(0)] ?? [:], category: c,
                lat: pois.double(1), lon: pois.double(2)))
        }
        var modes: [Int64: [String]] = [:]
        let also = try db.prepare("SELECT poi, category FROM \(PackSchema.POICategory.table) ORDER BY 1, 2")
        while try also.step() {
            guard PackSchema.isStopID(also.int64(0)) else { continue }
            modes[also.int64(0), default: []].append(category(also.int64(1)))
        }
        var stops: [PlaceMerge.Stop] = []
        let stopRows = try db.prepare("SELECT id, name, lat, lon, location_type, parent FROM \(PackSchema.Stop.table) ORDER BY id")
        while try stopRows.step() {
            let id = stopRows.int64(0)
            stops.append(PlaceMerge.Stop(
                id: id, name: stopRows.text(1), lat: stopRows.double(2), lon: stopRows.double(3),
                locationType: Int(stopRows.int64(4)), parent: nil, modes: (modes[id] ?? []).sorted()))
        }
        var links: [String] = []
        let meta = try db.prepare("SELECT value FROM meta WHERE key = '\(PackSchema.MetaKey.placeLinks)'")
        if try meta.step() { links = (meta.text(0) ?? "").split(separator: ";").map(String.init) }
        return (features, stops, links)
    }
}

/// The SQLite wrapper's failure for these tests.
struct ListingFailure: SQLiteFailure, CustomStringConvertible {
    var error: SQLiteError
    init(_ error: SQLiteError) { self.error = error }
    var description: String { "\(error)" }
}
