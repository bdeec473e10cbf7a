import Testing

/// Rules on agency.txt, stops.txt and routes.txt (`GTFSValidator+Stops.swift`).
@Suite struct GTFSStopsRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        // Keys.
        Case(code: "gtfs.duplicate_key", files: ["stops.txt": stops("S1,Again,45.46,9.19,0,\n")], at: "feed/stops.txt:5"),
        // References from stops and routes.
        Case(code: "gtfs.dangling_parent_station", files: ["stops.txt": stops("S4,Four,45.46,9.19,0,NOPE\n")],
            at: "feed/stops.txt:5"),
        Case(code: "gtfs.foreign_key_violation", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,B,1,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.missing_agency_id",
            files: [
                "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://a.example,Europe/Rome\nB,Bgency,https://b.example,Europe/Rome\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,,1,3\n",
            ], at: "feed/routes.txt:2"),
        // Stops.
        Case(code: "gtfs.coordinate_out_of_range", files: ["stops.txt": stops("S4,Four,-100,9.2,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.point_near_origin", files: ["stops.txt": stops("S4,Four,0.0,0.0,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.point_near_pole", files: ["stops.txt": stops("S4,Four,89.5,9.2,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.point_outside_pack_bbox", files: ["stops.txt": stops("S4,Four,41.9,12.5,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.stop_without_location", files: ["stops.txt": stops("S4,Four,,,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.missing_stop_name", files: ["stops.txt": stops("S4,,45.46,9.19,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.invalid_parent_station", files: ["stops.txt": stops("S4,Four,45.46,9.19,0,S1\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.stop_without_stop_time", files: ["stops.txt": stops("S4,Four,45.46,9.19,0,\n")], at: "feed/stops.txt:5"),
        // Routes.
        Case(code: "gtfs.route_name_missing", files: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,,,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.route_short_name_too_long", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,Express Line 12,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.route_short_long_name_equal",
            files: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,Uno,UNO,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.duplicate_route_name",
            files: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Line One,3\nR2,A,1,line one,3\n"],
            at: "feed/routes.txt:3"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }
}
