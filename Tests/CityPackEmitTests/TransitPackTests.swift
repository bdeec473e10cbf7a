import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackKit
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: writes bare databases with PackWriter, the emitter's internal database writer (no manifest, no signing).
@testable import CityPackEmit

/// Transit in the pack: GTFS feeds written by Emit, read back by CityPackKit.
@Suite struct TransitPackTests {
    /// A tiny feed: a station with two platforms, weekday and Saturday services with calendar_dates removing and
    /// adding a Monday, a calendar_dates-only service, a night trip past 24:00 and a frequency trip.
    static let tinyFeed: [String: String] = [
        "agency.txt": """
            agency_id,agency_name,agency_url,agency_timezone
            A,Agency,http://a.example,Europe/Rome
            """,
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            STA,Duomo,45.4642,9.1900,1,
            P1,Duomo M1,45.4641,9.1901,0,STA
            P2,Duomo tram,45.4643,9.1899,0,STA
            B,Cordusio,45.4655,9.1865,0,
            C,Cairoli,45.4680,9.1820,0,
            FAR,Far Away,46.5,10.5,0,
            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color
            M1,A,M1,Red line,1,EE1C25,FFFFFF
            T2,A,2,Tram two,0,,
            N9,A,N9,Night,3,112233,
            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20240101,20241231
            SAT,0,0,0,0,0,1,0,20240101,20241231
            """,
        "calendar_dates.txt": """
            service_id,date,exception_type
            WK,20240325,2
            SAT,20240325,1
            EXTRA,20240326,1
            """,
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id
            M1,WK,m1a,Sesto,0
            M1,SAT,m1s,Sesto Sat,0
            T2,WK,t2a,Piazza,1
            N9,WK,n9late,Night Terminal,0
            M1,EXTRA,m1x,Extra,0
            T2,WK,t2f,Frequent,0
            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            m1a,08:00:00,08:00:00,P1,1
            m1a,08:05:00,08:05:00,B,2
            m1a,08:10:00,08:10:00,C,3
            m1s,09:00:00,09:00:00,P1,1
            m1s,09:05:00,09:05:00,B,2
            m1s,09:10:00,09:10:00,C,3
            t2a,08:07:00,08:07:00,B,2
            t2a,08:00:00,08:00:00,P2,1
            t2a,08:12:00,08:12:00,C,3
            n9late,25:30:00,25:30:00,P1,1
            n9late,25:40:00,25:40:00,B,2
            n9late,25:50:00,25:50:00,C,3
            m1x,12:00:00,12:00:00,P1,1
            m1x,12:10:00,12:10:00,C,2
            t2f,06:00:00,06:00:00,P2,1
            t2f,06:03:00,06:03:00,B,2
            t2f,06:06:00,06:06:00,C,3
            """,
        "frequencies.txt": """
            trip_id,start_time,end_time,headway_secs,exact_times
            t2f,06:00:00,07:00:00,900,1
            """,
    ]

    static let tinyCity = City(
        id: "tiny", name: "Tiny", bbox: BoundingBox(minLon: 9.0, minLat: 45.3, maxLon: 9.3, maxLat: 45.6))

    static func readFeed(_ files: [String: String]) throws -> GTFSFeed {
        let dir = try TestPaths.temporaryDirectory("transit-feed")
        for (name, text) in files { try (text + "\n").write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let bag = DiagnosticBag()
        let feed = try #require(try GTFSReader.read(path: dir.path, bag: bag))
        #expect(!bag.hasErrors, "\(bag.diagnostics)")
        return feed
    }

    static func writePack(_ feeds: [GTFSFeed], city: City, pois: [POI] = []) throws -> PackReader {
        let path = try TestPaths.temporaryDirectory("transit-pack").appendingPathComponent("pack.sqlite").path
        try PackWriter.write(
            PackInput(city: city, pois: pois, categories: [], createdAt: 0, generator: "test", sources: [], transit: feeds),
            to: path)
        return try PackReader.open(URL(fileURLWithPath: path))
    }

    /// (service date, HH:MM, line, trip, stop) of each departure.
    static func board(_ departures: [Departure]) -> [String] {
        departures.map { "\($0.serviceDate) \($0.displayTime) \($0.lineName) \($0.tripID) \($0.stopID)" }
    }

    static func day(_ text: String) throws -> ServiceDate { try #require(ServiceDate(text)) }

    @Test func tinyFeedDepartures() throws {
        let reader = try Self.writePack([Self.readFeed(Self.tinyFeed)], city: Self.tinyCity)
        defer { reader.close() }
        // Tuesday at the station: both platforms; tie at 08:00 ordered by line name ("2" < "M1"); the
        // calendar_dates-only EXTRA service runs; the 25:30 night trip belongs to the 26th; then Wednesday.
        #expect(
            Self.board(try reader.transit.departures(stop: "STA", date: Self.day("2024-03-26"), seconds: 7 * 3600 + 55 * 60, limit: 6))
                == [
                    "2024-03-26 08:00 2 t2a P2", "2024-03-26 08:00 M1 m1a P1", "2024-03-26 12:00 M1 m1x P1",
                    "2024-03-26 01:30 N9 n9late P1", "2024-03-27 06:00 2 t2f P2", "2024-03-27 06:15 2 t2f P2",
                ])
        // Monday 25th: WK removed, SAT added.
        #expect(
            Self.board(try reader.transit.departures(stop: "P1", date: Self.day("2024-03-25"), seconds: 8 * 3600 + 30 * 60, limit: 3))
                == ["2024-03-25 09:00 M1 m1s P1", "2024-03-26 08:00 M1 m1a P1", "2024-03-26 12:00 M1 m1x P1"])
        // After midnight: the 25:30 departure of the 26th is shown on the 27th from 01:10 …
        let night = try reader.transit.departures(stop: "P1", date: Self.day("2024-03-27"), seconds: 4200, limit: 1)
        #expect(Self.board(night) == ["2024-03-26 01:30 N9 n9late P1"])
        #expect(night.first?.seconds == 91_800)
        #expect(night.first?.secondsFromQueryDate == 5400)
        #expect(night.first?.colour == "112233")
        #expect(night.first?.routeType == 3)
        // The app-facing form with local date components gives the same board.
        let components = DateComponents(year: 2024, month: 3, day: 27, hour: 1, minute: 10)
        #expect(Self.board(try reader.transit.departures(stop: "P1", at: components, limit: 1)) == Self.board(night))
        #expect(try reader.transit.departures(stop: "P1", at: DateComponents(hour: 1), limit: 1).isEmpty, "no date, no board")
        #expect(night.first?.headsign == "Night Terminal")
        // … and at 01:30 exactly, but not at 01:31.
        #expect(Self.board(try reader.transit.departures(stop: "P1", date: Self.day("2024-03-27"), seconds: 5400, limit: 1))
            == ["2024-03-26 01:30 N9 n9late P1"])
        #expect(Self.board(try reader.transit.departures(stop: "P1", date: Self.day("2024-03-27"), seconds: 5460, limit: 1))
            == ["2024-03-27 08:00 M1 m1a P1"])
        // Frequencies at the second stop (offset 3 min): 06:15 + 3, 06:30 + 3, 06:45 + 3; 07:00 is excluded.
        #expect(
            Self.board(try reader.transit.departures(stop: "B", date: Self.day("2024-03-26"), seconds: 6 * 3600 + 10 * 60, limit: 5))
                == [
                    "2024-03-26 06:18 2 t2f B", "2024-03-26 06:33 2 t2f B", "2024-03-26 06:48 2 t2f B",
                    "2024-03-26 08:05 M1 m1a B", "2024-03-26 08:07 2 t2a B",
                ])
        // Saturday: Friday's night trip at 01:30, then only SAT; Sunday: nothing that day, then Monday's WK.
        #expect(Self.board(try reader.transit.departures(stop: "P1", date: Self.day("2024-03-23"), seconds: 0, limit: 3))
            == ["2024-03-22 01:30 N9 n9late P1", "2024-03-23 09:00 M1 m1s P1", "2024-03-25 09:00 M1 m1s P1"].prefix(2).map { $0 })
        #expect(Self.board(try reader.transit.departures(stop: "B", date: Self.day("2024-03-31"), seconds: 0, limit: 2))
            == ["2024-04-01 06:03 2 t2f B", "2024-04-01 06:18 2 t2f B"])
        // A terminus has arrivals only; an unknown stop has nothing.
        #expect(try reader.transit.departures(stop: "C", date: Self.day("2024-03-26"), seconds: 0, limit: 5).isEmpty)
        #expect(try reader.transit.departures(stop: "nope", date: Self.day("2024-03-26"), seconds: 0).isEmpty)
        #expect(try reader.transit.stop(id: "nope") == nil)
        // Outside the calendar's range.
        #expect(try reader.transit.departures(stop: "P1", date: Self.day("2025-06-03"), seconds: 0).isEmpty)
    }

    @Test func stopsInNearbySearchAndManifest() throws {
        let poi = POI(
            ref: OSMRef(.node, 1), coordinate: Coordinate(lat: 45.4642, lon: 9.1901), category: "cafe", name: "Duomo Café",
            localizedNames: [:], tags: [:], location: SourceLocation(file: "x.osm", line: 1, column: 1))
        let feed = try Self.readFeed(Self.tinyFeed)
        let reader = try Self.writePack([feed], city: Self.tinyCity, pois: [poi])
        defer { reader.close() }
        let near = try reader.nearby(lat: 45.4642, lon: 9.1900, radius: 30)
        #expect(Set(near.map { "\($0.kind.rawValue):\($0.stopID ?? $0.osm)" }) == ["poi:n1", "stop:STA", "stop:P1", "stop:P2"])
        #expect(near.filter { $0.kind == .stop }.allSatisfy { PackSchema.isStopID($0.id) && $0.osm.isEmpty })
        #expect(near.first { $0.stopID == "STA" }?.category == "transit_station")
        // Outside the bbox: left out of the pack by default (issue 21)…
        #expect(try reader.nearby(lat: 46.5, lon: 10.5, radius: 100).isEmpty)
        #expect(try reader.transit.stop(id: "FAR") == nil)
        // … and, when the city file keeps such stops, in the stop table but not in the buckets.
        var keeping = Self.tinyCity
        keeping.keepStopsOutsideBBox = true
        let kept = try Self.writePack([feed], city: keeping, pois: [poi])
        defer { kept.close() }
        #expect(try kept.nearby(lat: 46.5, lon: 10.5, radius: 100).isEmpty)
        #expect(try kept.transit.stop(id: "FAR")?.name == "Far Away")
        let found = try reader.search("Duomo")
        #expect(Set(found.map(\.kind)) == [.poi, .stop])
        #expect(Set(found.compactMap(\.stopID)) == ["STA", "P1", "P2"])
        #expect(try reader.place(id: found.first { $0.kind == .stop }!.id)?.kind == .stop)
        #expect(try reader.allPOIs().map(\.osm) == ["n1"])

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transit-emit-\(UUID().uuidString)").path
        let result = try PackEmitter.emit(
            PackInput(city: Self.tinyCity, pois: [poi], categories: [], createdAt: 0, generator: "t", sources: [], transit: [feed]),
            outputDirectory: dir)
        let manifest = try PackOpener.readManifest(URL(fileURLWithPath: result.manifestPath))
        #expect(manifest.counts.stops == 5, "FAR is outside the box")
        #expect(manifest.counts.lines == 3)
        // Manifests from before transit still decode.
        let old = #"{"pois": 2, "categories": {"cafe": 2}}"#
        let counts = try JSONDecoder().decode(Manifest.Counts.self, from: Data(old.utf8))
        #expect(counts.stops == nil && counts.pois == 2)
    }

    @Test func sameFeedSameBytes() throws {
        let feed = try Self.readFeed(Self.tinyFeed)
        var hashes: [Data] = []
        for _ in 0..<2 {
            let path = try TestPaths.temporaryDirectory("transit-det").appendingPathComponent("p.sqlite").path
            try PackWriter.write(
                PackInput(city: Self.tinyCity, pois: [], categories: [], createdAt: 0, generator: "t", sources: [], transit: [feed]),
                to: path)
            hashes.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(hashes[0] == hashes[1])
    }

    @Test func serviceDates() throws {
        #expect(try Self.day("2024-03-25").weekday == 0)
        #expect(try Self.day("2024-03-31").weekday == 6)
        #expect(try Self.day("2024-02-28").adding(days: 1).description == "2024-02-29")
        #expect(try Self.day("2024-12-31").adding(days: 1).description == "2025-01-01")
        #expect(try Self.day("20141019").description == "2014-10-19")
        #expect(ServiceDate("2023-02-29") == nil)
        #expect(ServiceDate("2024-1-01") == nil)
    }
}
