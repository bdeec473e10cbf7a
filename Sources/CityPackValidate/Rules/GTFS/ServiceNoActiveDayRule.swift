import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsServiceNoActiveDay = RuleDescription(
        "gtfs.service_no_active_day", .gtfs, .warning, "A calendar row has every weekday flag set to 0",
        title: "Service without active days",
        rationale: "It runs only through calendar_dates additions, which is usually a mistake.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "WK,1,1,1,1,1,0,0", "WK,0,0,0,0,0,0,0"),
            passing: Base.calendar))
}

/// A calendar row with every weekday flag 0 runs only through calendar_dates additions, which is usually a
/// mistake.
enum ServiceNoActiveDayRule {
    static func check(_ cal: TransitCalendar, _ c: GTFSValidationContext) {
        guard cal.days == 0 else { return }
        c.report(Rules.gtfsServiceNoActiveDay, .noDay, "calendar", cal.line, field: "monday",
            entity: "service_id=\(cal.serviceID)")
    }
}

extension String {
    fileprivate static let noDay = "service runs on no day of the week"
}
