import Testing

/// Rules on calendar.txt and calendar_dates.txt (`GTFSValidator+Calendars.swift`).
@Suite struct GTFSCalendarsRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        Case(code: "gtfs.calendar_range_out_of_order", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20261231,20260101\n"],
            at: "feed/calendar.txt:2"),
        Case(code: "gtfs.service_no_active_day",
            files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20260101,20261231\nXX,0,0,0,0,0,0,0,20260101,20261231\n"],
            at: "feed/calendar.txt:3"),
        Case(code: "gtfs.expired_calendar", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20250101,20251231\n"],
            at: "feed/calendar.txt:2"),
        Case(code: "gtfs.feed_expires_soon", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20260101,20260605\n"],
            at: "feed/calendar.txt:2"),
        Case(code: "gtfs.duplicate_key",
            files: ["calendar_dates.txt": "service_id,date,exception_type\nWK,20260601,2\nWK,20260601,2\n"],
            at: "feed/calendar_dates.txt:3"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }
}
