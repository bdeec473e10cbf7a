import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsCalendarRangeOutOfOrder = RuleDescription(
        "gtfs.calendar_range_out_of_order", .gtfs, .error, "A calendar's start_date is after its end_date",
        title: "Calendar range out of order",
        rationale: "The service would never run.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "20260101,20351231", "20351231,20260101"),
            passing: Base.calendar))
}

/// A calendar row whose start_date is after its end_date never runs.
enum CalendarRangeOutOfOrderRule {
    static func check(_ cal: TransitCalendar, _ c: GTFSValidationContext) {
        guard cal.startDate > cal.endDate else { return }
        c.report(Rules.gtfsCalendarRangeOutOfOrder, .outOfOrder(cal), "calendar", cal.line, field: "start_date",
            entity: "service_id=\(cal.serviceID)")
    }
}

extension String {
    fileprivate static func outOfOrder(_ cal: TransitCalendar) -> String {
        "start_date \(GTFSDate.text(cal.startDate)) is after end_date \(GTFSDate.text(cal.endDate))"
    }
}
