import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// GTFSReader: model contents, located parse diagnostics, and real feeds' table sizes.
@Suite struct GTFSReaderTests {
    static func feed(_ files: [String: String]) throws -> (GTFSFeed?, [Diagnostic]) {
        let dir = try TestPaths.temporaryDirectory("gtfs-reader")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        let bag = DiagnosticBag()
        let feed = try GTFSReader.read(path: dir.path, displayPath: "g", bag: bag)
        return (feed, bag.diagnostics)
    }

    static let minimal: [String: String] = [
        "agency.txt": "agency_name,agency_url,agency_timezone\nAg,http://a.example,America/New_York\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,zone_id\n"
            + "ST,Station,40.7,-74.0,1,,\nP1,\"Platform \"\"A\"\"\",40.7001,-74.0001,0,ST,Z1\n",
        "routes.txt": "route_id,route_short_name,route_long_name,route_type,route_color,route_text_color\n"
            + "R,A,Eighth Avenue,1,0039A6,FFFFFF\n",
        "trips.txt": "route_id,service_id,trip_id,direction_id,shape_id\nR,S,T,1,\n",
        "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,23:59:00,24:01:30,P1,5\nT,,,P1,7\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "S,1,0,0,0,0,0,1,20250101,20251231\n",
        "calendar_dates.txt": "service_id,date,exception_type\nS,20250704,2\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nT,06:00:00,09:00:00,300,1\n",
        "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang,feed_end_date\nPub,https://p.example,en,20251231\n",
    ]

    @Test func readsEveryTableIntoTheModel() throws {
        let (feed, diagnostics) = try Self.feed(Self.minimal)
        #expect(diagnostics.isEmpty, "\(diagnostics.map { "\($0.location!) \($0.code)" })")
        let f = try #require(feed)
        #expect(f.agencies == [TransitAgency(id: nil, name: "Ag", url: "http://a.example", timezone: "America/New_York", line: 2)])
        #expect(f.stops[1] == TransitStop(id: "P1", name: "Platform \"A\"", coordinate: Coordinate(lat: 40.7001, lon: -74.0001),
            locationType: 0, parentStation: "ST", zoneID: "Z1", line: 3))
        #expect(f.routes[0].color == "0039A6" && f.routes[0].type == 1 && f.routes[0].agencyID == nil)
        #expect(f.trips[0].directionID == 1 && f.trips[0].shapeID == nil)
        #expect(f.stopTimes.arrival == [86340, -1] && f.stopTimes.departure == [86490, -1])
        #expect(f.stopTimes.stop == [1, 1] && f.stopTimes.trip == [0, 0] && f.stopTimes.line == [2, 3])
        #expect(f.calendars == [TransitCalendar(serviceID: "S", days: 0b1000001, startDate: 20250101, endDate: 20251231, line: 2)])
        #expect(f.calendarDates == [TransitCalendarDate(serviceID: "S", date: 20250704, exceptionType: 2, line: 2)])
        #expect(f.frequencies.first?.headwaySecs == 300 && f.frequencies.first?.exactTimes == true)
        #expect(f.feedInfo?.endDate == 20251231)
        #expect(f.path("stops") == "g/stops.txt")
        #expect(f.headerLines["stops"] == 1)
    }

    @Test func parseProblemsAreLocatedWithFieldAndEntity() throws {
        var files = Self.minimal
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nP1,Platform,40.7,west\n"
        let (_, diagnostics) = try Self.feed(files)
        let bad = try #require(diagnostics.first { $0.code == "csv.invalid_value" })
        #expect(bad.location == SourceLocation(file: "g/stops.txt", line: 2, column: 18, field: "stop_lon"))
        #expect(bad.entity == "stop_id=P1")
    }

    @Test func unknownTripsAndStopsAreKeptForValidation() throws {
        var files = Self.minimal
        files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nX,08:00:00,08:00:00,Q,1\n"
        let (feed, _) = try Self.feed(files)
        let st = try #require(feed).stopTimes
        #expect(st.trip == [-1] && st.stop == [-1])
        #expect(st.unknownTripIDs == [0: "X"] && st.unknownStopIDs == [0: "Q"])
    }

    @Test func notAZipIsReportedNotThrown() throws {
        let dir = try TestPaths.temporaryDirectory("gtfs-reader")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("feed.zip")
        try Data("not a zip file".utf8).write(to: file)
        let bag = DiagnosticBag()
        #expect(try GTFSReader.read(path: file.path, displayPath: "feed.zip", bag: bag) == nil)
        #expect(bag.diagnostics.map(\.code) == ["gtfs.invalid_archive"])
    }

    static let realFeeds: [(String, Int)] = [
        ("milan-atm-2015.zip", 248_555), ("wmata-dc-2026.zip", 352_668), ("hart-tampa-2018.zip", 435_507),
        ("trimet-portland-2routes-2021.zip", 43_813), ("nyc-subway-2025.zip", 86_150), ("cairns-2014.zip", 37_790),
        ("google-sample-feed.zip", 28),
    ]

    @Test(.needsSharedData, arguments: realFeeds.map(\.0))
    func realFeedStopTimeCounts(_ name: String) throws {
        let data = try #require(TestPaths.sharedData)
        let bag = DiagnosticBag()
        let feed = try #require(try GTFSReader.read(path: data.appendingPathComponent("gtfs/\(name)").path, bag: bag))
        let expected = Self.realFeeds.first { $0.0 == name }!.1
        #expect(feed.stopTimes.count == expected)
        #expect(feed.stopTimes.byTrip.count == feed.stopTimes.trip.filter { $0 >= 0 }.count)
    }
}
