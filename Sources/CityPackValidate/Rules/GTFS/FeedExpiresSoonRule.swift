import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsFeedExpiresSoon = RuleDescription(
        "gtfs.feed_expires_soon", .gtfs, .warning, "The feed's last service date is within 7 days of the build date",
        title: "Feed expires soon",
        rationale: "The pack will carry no timetable soon after it ships.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20260101,20260605"),
            passing: Base.calendar))
}

/// A feed whose last service date is within 7 days after the build date: the pack will carry no timetable
/// soon after it ships. The last date is feed_info's feed_end_date when given, else the latest last active day
/// of any service.
enum FeedExpiresSoonRule {
    /// How many days before the feed's end the rule fires.
    static let days = 7

    static func check(_ lastDays: [String: GTFSValidator.ServiceEnd], _ c: GTFSValidationContext) {
        var feedEnd: GTFSValidator.ServiceEnd?
        for (_, last) in lastDays.sorted(by: { $0.key < $1.key }) where last.day > (feedEnd?.day ?? 0) {
            feedEnd = last
        }
        if let info = c.feed.feedInfo, let end = info.endDate {
            feedEnd = GTFSValidator.ServiceEnd(day: end, table: "feed_info", line: info.line)
        }
        guard let end = feedEnd else { return }
        let remaining = GTFSDate.dayNumber(end.day) - c.buildDay
        guard remaining >= 0 && remaining < days else { return }
        c.report(Rules.gtfsFeedExpiresSoon, .expiresSoon(end.day, remaining), end.table, end.line,
            field: end.table == "feed_info" ? "feed_end_date" : end.table == "calendar" ? "end_date" : "date")
    }
}

extension String {
    fileprivate static func expiresSoon(_ day: Int32, _ remaining: Int) -> String {
        "the feed's last service date \(GTFSDate.text(day)) is \(remaining) day(s) after the build date"
    }
}
