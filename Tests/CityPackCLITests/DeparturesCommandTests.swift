import CityPackTestSupport
import Foundation
import Testing

/// `citypack build` of a city with a GTFS feed, then `query --departures` and `--near` on the result.
@Suite(.serialized) struct DeparturesCommandTests {
    static let files: [String: String] = [
        "city.yaml": """
            id: tiny
            name: "Tiny"
            locales: [en]
            bbox: [9.0, 45.3, 9.3, 45.6]
            sources:
              osm: ["tiny.osm"]
              gtfs: ["feed"]
            attribution: "test"
            rules: {}
            """,
        "tiny.osm": """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6"><node id="1" lat="45.4642" lon="9.1901" version="1" timestamp="2024-01-01T00:00:00Z">\
            <tag k="amenity" v="toilets"/><tag k="name" v="Duomo WC"/></node></osm>
            """,
        "feed/agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,http://a.example,Europe/Rome",
        "feed/stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            STA,Duomo,45.4642,9.1900,1,
            P1,Duomo M1,45.4641,9.1901,0,STA
            B,Cordusio,45.4655,9.1865,0,
            """,
        "feed/routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type,route_color\nM1,A,M1,Red line,1,EE1C25",
        "feed/calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WK,1,1,1,1,1,0,0,20240101,20301231
            """,
        "feed/trips.txt": "route_id,service_id,trip_id,trip_headsign,direction_id\nM1,WK,m1a,Sesto,0\nM1,WK,m1n,Sesto,0",
        "feed/stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            m1a,08:00:00,08:00:00,P1,1
            m1a,08:05:00,08:05:00,B,2
            m1n,25:30:00,25:30:00,P1,1
            m1n,25:35:00,25:35:00,B,2
            """,
    ]

    static func build() throws -> URL {
        let tmp = try TestPaths.temporaryDirectory("e2e-transit")
        let city = tmp.appendingPathComponent("inputs/tiny")
        try FileManager.default.createDirectory(at: city.appendingPathComponent("feed"), withIntermediateDirectories: true)
        for (name, text) in files { try (text + "\n").write(to: city.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let output = tmp.appendingPathComponent("outputs")
        let result = try CLIRunner.run(["build", city.path, "--output", output.path, "--quiet"])
        #expect(result.status == 0, "build failed: \(result.stderr)")
        return output.appendingPathComponent("tiny/manifest.json")
    }

    @Test func departuresNearbyAndExitCodes() throws {
        let manifest = try Self.build()
        let manifestJSON = try CLIRunner.json(String(decoding: Data(contentsOf: manifest), as: UTF8.self))
        let counts = manifestJSON["counts"] as? [String: Any]
        #expect(counts?["stops"] as? Int == 3)
        #expect(counts?["lines"] as? Int == 1)
        #expect(manifestJSON["timetable"] as? [String: String] == ["first": "2024-01-01", "last": "2030-12-31"])

        let query = try CLIRunner.run([
            "query", manifest.path, "--departures", "STA", "--at", "2024-03-26 07:30", "--limit", "3", "--format", "json",
        ])
        #expect(query.status == 0, "\(query.stderr)")
        let json = try CLIRunner.json(query.stdout)
        #expect((json["stop"] as? [String: Any])?["stop_id"] as? String == "STA")
        let rows = (json["departures"] as? [[String: Any]]) ?? []
        let board = rows.map { "\($0["date"] as? String ?? "") \($0["time"] as? String ?? "") \($0["seconds"] as? Int ?? -1) \($0["trip"] as? String ?? "")" }
        #expect(board == ["2024-03-26 08:00 28800 m1a", "2024-03-26 01:30 91800 m1n", "2024-03-27 08:00 28800 m1a"])
        #expect(rows.first?["line"] as? String == "M1")
        #expect(rows.first?["colour"] as? String == "EE1C25")
        #expect(rows.first?["route_type"] as? Int == 1)
        #expect(rows.first?["headsign"] as? String == "Sesto")
        #expect(json["timetable"] as? [String: String] == ["first": "2024-01-01", "last": "2030-12-31", "date": "2024-03-26", "position": "within"])

        let near = try CLIRunner.run(["query", manifest.path, "--near", "45.4642,9.1900", "--format", "json"])
        let results = (try CLIRunner.json(near.stdout)["results"] as? [[String: Any]]) ?? []
        #expect(Set(results.map { "\($0["kind"] as? String ?? "?") \($0["stop_id"] as? String ?? $0["osm"] as? String ?? "")" })
            == ["stop STA", "stop P1", "poi n1"])

        // After the timetable's last date (and before its first): nothing listed, and the output says why.
        for (at, position, note) in [
            ("2031-02-03 08:00", "after", "note: the timetable ends on 2030-12-31 and 2031-02-03 is after it: the pack has no trips that day (the data is old"),
            ("2023-12-30 08:00", "before", "note: the timetable starts on 2024-01-01 and 2023-12-30 is before it: the pack has no trips that day"),
        ] {
            let out = try CLIRunner.run(["query", manifest.path, "--departures", "STA", "--at", at, "--format", "json"])
            #expect(out.status == 0)
            let doc = try CLIRunner.json(out.stdout)
            #expect((doc["departures"] as? [Any])?.isEmpty == true)
            #expect((doc["timetable"] as? [String: String])?["position"] == position)
            let human = try CLIRunner.run(["query", manifest.path, "--departures", "STA", "--at", at])
            #expect(human.stdout.contains("no departures\n" + note), "\(human.stdout)")
            let journey = try CLIRunner.run(["query", manifest.path, "--journey", "STA", "--to", "B", "--at", at])
            // Walking is all there is.
            #expect(journey.status == 0 && journey.stdout.contains("walk 418 m"), "\(journey.stdout)")
            #expect(journey.stdout.contains(note), "\(journey.stdout)")
        }
        // Within it, no note.
        let within = try CLIRunner.run(["query", manifest.path, "--departures", "STA", "--at", "2024-03-26 07:30"])
        #expect(!within.stdout.contains("note:"))

        let unknown = try CLIRunner.run(["query", manifest.path, "--departures", "NOPE", "--at", "2024-03-26 07:30"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no stop with stop_id 'NOPE'"))
        for arguments in [
            ["--departures", "STA"], ["--departures", "STA", "--at", "2024-03-26 7:30"],
            ["--departures", "STA", "--at", "2024-02-30 07:30"], ["--departures", "STA", "--at", "2024-03-26 24:00"],
            ["--departures", "STA", "--search", "x", "--at", "2024-03-26 07:30"], ["--near", "45,9", "--at", "2024-03-26 07:30"],
        ] {
            let usage = try CLIRunner.run(["query", manifest.path] + arguments)
            #expect(usage.status == 64, "\(arguments): \(usage.stderr)")
        }
    }
}
