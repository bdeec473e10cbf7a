import Testing

/// Rules on transfers.txt and the fare tables (`GTFSValidator+OtherTables.swift`).
@Suite struct GTFSOtherTablesRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        // Transfers and fares.
        Case(code: "gtfs.foreign_key_violation", files: ["transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S8,0\n"],
            at: "feed/transfers.txt:2"),
        Case(code: "gtfs.foreign_key_violation", files: ["fare_rules.txt": "fare_id,route_id\nF1,R1\n"],
            at: "feed/fare_rules.txt:2"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }
}
