import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsExpiredCalendar = RuleDescription(
        "gtfs.expired_calendar", .gtfs, .warning, "A service ends before the build date",
        title: "Expired calendar",
        rationale: "Expired services show riders departures that no longer exist. Counted as gtfs-validator counts "
            + "(expired_calendar): when calendar.txt has rows, each of its services that has ended; services dated "
            + "only by calendar_dates.txt are then not reported one by one, since feeds that publish service day by "
            + "day keep days just past. A feed dated by calendar_dates.txt alone gets one warning per service once "
            + "every service has ended, and none while any still runs.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20250101,20251231"),
            passing: Base.calendar))
}

/// A service whose last active day is before the build date shows riders departures that no longer exist.
/// Reported at the row that dates the service, in service_id order, counted as gtfs-validator does (see the
/// rationale): calendar.txt services when it has rows, else every service once all have ended.
enum ExpiredCalendarRule {
    static func check(_ lastDays: [String: GTFSValidator.ServiceEnd], _ c: GTFSValidationContext) {
        let ended = lastDays.filter { GTFSDate.dayNumber($0.value.day) < c.buildDay }
        let reported: [String: GTFSValidator.ServiceEnd]
        if c.feed.calendars.isEmpty {
            reported = ended.count == lastDays.count ? ended : [:]
        } else {
            let calendarServices = Set(c.feed.calendars.lazy.map(\.serviceID))
            reported = ended.filter { calendarServices.contains($0.key) }
        }
        for (service, last) in reported.sorted(by: { $0.key < $1.key }) {
            c.report(Rules.gtfsExpiredCalendar, .ended(service, last.day), last.table, last.line,
                field: last.table == "calendar" ? "end_date" : "date", entity: "service_id=\(service)")
        }
    }
}

extension String {
    fileprivate static func ended(_ service: String, _ day: Int32) -> String {
        "service `\(service)` ended on \(GTFSDate.text(day))"
    }
}
