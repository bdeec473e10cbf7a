import Testing

/// Rules on trips.txt and frequencies.txt (`GTFSValidator+Trips.swift`).
@Suite struct GTFSTripsRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        Case(code: "gtfs.foreign_key_violation", files: ["trips.txt": "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\nR9,WK,T2,B1,SH1\n"],
            at: "feed/trips.txt:3"),
        Case(code: "gtfs.foreign_key_violation", files: ["trips.txt": "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\nR1,XX,T2,B1,SH1\n"],
            at: "feed/trips.txt:3"),
        Case(code: "gtfs.unused_trip", files: ["trips.txt": "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\nR1,WK,T2,B1,SH1\nR1,WK,T3,,SH1\n"],
            at: "feed/trips.txt:4"),
        Case(code: "gtfs.unusable_trip", files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\n")], at: "feed/trips.txt:2"),
        Case(code: "gtfs.block_overlap",
            files: ["stop_times.txt": t1("T1,24:58:00,24:58:00,S1,1,0\nT1,25:05:00,25:06:00,S2,2,1.3\nT1,25:10:00,25:10:00,S3,3,2.6\n")],
            at: "feed/trips.txt:3"),
        // Frequencies.
        Case(code: "gtfs.invalid_headway", files: ["frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,08:00:00,09:00:00,0\n"],
            at: "feed/frequencies.txt:2"),
        Case(code: "gtfs.overlapping_frequency",
            files: ["frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,08:00:00,09:00:00,600\nT1,08:30:00,10:00:00,600\n"],
            at: "feed/frequencies.txt:3"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }
}
