import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    public static let gtfsExpiredCalendar = RuleDescription(
        "gtfs.expired_calendar", .gtfs, .warning, "A service ends before the build date",
        title: "Expired calendar",
        rationale: "Expired services show riders departures that no longer exist.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20250101,20251231"),
            passing: Base.calendar))
}

/// A service whose last active day is before the build date shows riders departures that no longer exist.
/// Reported at the row that dates the service, in service_id order.
enum ExpiredCalendarRule {
    static func check(_ lastDays: [String: GTFSValidator.ServiceEnd], _ c: GTFSValidationContext) {
        for (service, last) in lastDays.sorted(by: { $0.key < $1.key }) where GTFSDate.dayNumber(last.day) < c.buildDay {
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
