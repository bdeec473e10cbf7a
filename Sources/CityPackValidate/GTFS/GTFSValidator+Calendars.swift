import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// The last day a service runs and the row that says so.
    struct ServiceEnd {
        /// `yyyymmdd`.
        var day: Int32
        /// `calendar`, `calendar_dates` or `feed_info`.
        var table: String
        var line: Int32
    }

    /// calendar.txt and calendar_dates.txt: keys, ranges, weekday flags, expiry relative to the build date; and
    /// feed_info.txt's date range.
    static func checkCalendars(_ c: GTFSValidationContext) {
        let feed = c.feed
        DuplicateKeyRule.check(feed.calendars.lazy.map { (key: $0.serviceID, line: $0.line) }, table: "calendar",
            field: "service_id", c)
        DuplicateKeyRule.checkServiceExceptions(c)
        for cal in feed.calendars {
            CalendarRangeOutOfOrderRule.check(cal, c)
            ServiceNoActiveDayRule.check(cal, c)
        }
        let lastDays = lastServiceDays(feed)
        NoServiceDatesRule.check(c)
        FeedInfoRangeOutOfOrderRule.check(c)
        ExpiredCalendarRule.check(lastDays, c)
        FeedExpiresSoonRule.check(lastDays, c)
    }

    /// The last active day of each service: the latest end_date of its calendar rows that run on some weekday with
    /// an ordered range, or a later added date in calendar_dates. (Rows that never run do not date the service;
    /// the calendar rules report them.)
    static func lastServiceDays(_ feed: GTFSFeed) -> [String: ServiceEnd] {
        var lastDay: [String: ServiceEnd] = [:]
        for cal in feed.calendars
        where cal.days != 0 && cal.startDate <= cal.endDate && cal.endDate > (lastDay[cal.serviceID]?.day ?? 0) {
            lastDay[cal.serviceID] = ServiceEnd(day: cal.endDate, table: "calendar", line: cal.line)
        }
        for d in feed.calendarDates where d.exceptionType == 1 && d.date > (lastDay[d.serviceID]?.day ?? 0) {
            lastDay[d.serviceID] = ServiceEnd(day: d.date, table: "calendar_dates", line: d.line)
        }
        return lastDay
    }
}
