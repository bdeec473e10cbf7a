import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsNoServiceDates = RuleDescription(
        "gtfs.no_service_dates", .gtfs, .error, "No service of the feed runs on any date",
        title: "No service on any date",
        rationale: "Every trip belongs to a service; when no service has a single active day (weekday flags all "
            + "0, ranges that hold none of their weekdays, every added date removed again), no departure can be "
            + "shown on any day.",
        example: RuleExample(
            file: "gtfs/calendar.txt",
            triggering: Base.edit(Base.calendar, "WK,1,1,1,1,1,0,0", "WK,0,0,0,0,0,0,0"),
            passing: Base.calendar))
}

/// No service has an active date: the union over calendar.txt (weekdays within each range) and the dates
/// calendar_dates.txt adds, less the dates it removes, is empty. Reported once, at the first calendar row (or
/// calendar_dates row) of the feed; not when the feed has no calendar rows at all (`gtfs.missing_calendar` and the
/// reader report that).
enum NoServiceDatesRule {
    static func check(_ c: GTFSValidationContext) {
        let feed = c.feed
        guard !feed.calendars.isEmpty || !feed.calendarDates.isEmpty else { return }
        guard c.canResolve("calendar") && c.canResolve("calendar_dates") else { return }
        var removed: [String: Set<Int32>] = [:]
        for d in feed.calendarDates where d.exceptionType == 2 { removed[d.serviceID, default: []].insert(d.date) }
        for d in feed.calendarDates where d.exceptionType == 1 && removed[d.serviceID]?.contains(d.date) != true {
            return
        }
        for cal in feed.calendars where cal.days != 0 && cal.startDate <= cal.endDate {
            if hasActiveDay(cal, removed: removed[cal.serviceID] ?? []) { return }
        }
        let services = Set(feed.calendars.map(\.serviceID)).union(feed.calendarDates.map(\.serviceID)).count
        if let first = feed.calendars.first {
            c.report(Rules.gtfsNoServiceDates, .none(services), "calendar", first.line, entity: "feed")
        } else if let first = feed.calendarDates.first {
            c.report(Rules.gtfsNoServiceDates, .none(services), "calendar_dates", first.line, entity: "feed")
        }
    }

    /// Whether a calendar row runs on some day of its range that calendar_dates does not remove (`removed`: the
    /// service's removed dates). A range holds each weekday within 7 days, so the walk stops after 7 days past as
    /// many weeks as dates are removed.
    static func hasActiveDay(_ cal: TransitCalendar, removed: Set<Int32>) -> Bool {
        let first = GTFSDate.dayNumber(cal.startDate), last = GTFSDate.dayNumber(cal.endDate)
        var day = first
        while day <= last && day <= first + 7 + removed.count * 7 {
            // 1970-01-01 (day 0) was a Thursday: Monday is bit 0.
            let weekday = ((day % 7) + 7 + 3) % 7
            if cal.days & (1 << weekday) != 0 && !removed.contains(GTFSDate.yyyymmdd(day)) { return true }
            day += 1
        }
        return false
    }
}

extension String {
    fileprivate static func none(_ services: Int) -> String {
        "none of the feed's \(services) service\(services == 1 ? "" : "s") runs on any date (calendar weekdays within "
            + "their ranges, plus the dates calendar_dates.txt adds, less those it removes): no departure can be shown"
    }
}
