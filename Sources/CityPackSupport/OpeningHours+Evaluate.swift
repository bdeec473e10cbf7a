/// Evaluation of ``OpeningHours`` at a local time (semantics in the type's documentation). Plain civil-date arithmetic,
/// no Foundation calendars, so the answer never depends on the machine's zone or locale. `clients/web/opening-hours.js`
/// mirrors this file line for line.
extension OpeningHours {
    /// The state at `time` and the first later minute where it differs; nil when it does not change within 8 days
    /// (366 days when a rule has year, date or week selectors).
    public func state(at time: LocalTime) -> (state: OpenState, nextChange: LocalTime?) {
        state(at: time, holidaysKnownAbsent: false)
    }

    /// `holidaysKnownAbsent`: evaluate as if no day were a public or school holiday (for the agreement check with
    /// evaluators that assume so without a region).
    func state(at time: LocalTime, holidaysKnownAbsent: Bool) -> (state: OpenState, nextChange: LocalTime?) {
        let start = Self.daysFromCivil(time.year, time.month, time.day)
        let minute = min(max(time.minute, 0), 1439)
        let horizon = rules.contains { !$0.years.isEmpty || !$0.dates.isEmpty || !$0.weeks.isEmpty } ? 366 : 8
        let first = combinedDay(start, holidaysKnownAbsent)
        let current = first[minute]
        for offset in 0...horizon {
            let schedule = offset == 0 ? first : combinedDay(start + offset, holidaysKnownAbsent)
            for m in (offset == 0 ? minute + 1 : 0)..<1440 where schedule[m] != current {
                let (y, mo, d) = Self.civilFromDays(start + offset)
                return (Self.stateNames[Int(current)], LocalTime(year: y, month: mo, day: d, minute: m))
            }
        }
        return (Self.stateNames[Int(current)], nil)
    }

    static let closedCode: UInt8 = 0, openCode: UInt8 = 1, unknownCode: UInt8 = 2
    static let stateNames: [OpenState] = [.closed, .open, .unknown]

    static func code(_ state: OpenState) -> UInt8 {
        switch state {
        case .closed: closedCode
        case .open: openCode
        case .unknown: unknownCode
        }
    }

    /// The day's 1440 minute states, `unknown` where the holiday possibilities disagree.
    func combinedDay(_ days: Int, _ holidaysKnownAbsent: Bool = false) -> [UInt8] {
        let usesPH = rules.contains { $0.dayMask & Self.publicHoliday != 0 }
        let usesSH = rules.contains { $0.dayMask & Self.schoolHoliday != 0 }
        // World bits: 1 PH yesterday, 2 SH yesterday, 4 PH today, 8 SH today; only the flags some rule reads vary.
        let used = holidaysKnownAbsent ? 0 : (usesPH ? 5 : 0) | (usesSH ? 10 : 0)
        var result: [UInt8]?
        for world in 0..<16 where world & ~used == 0 {
            let schedule = daySchedule(days, world: world)
            guard var combined = result else {
                result = schedule
                continue
            }
            for m in 0..<1440 where combined[m] != schedule[m] { combined[m] = Self.unknownCode }
            result = combined
        }
        return result!
    }

    /// The day's minute states when the holidays are as `world` says.
    func daySchedule(_ days: Int, world: Int) -> [UInt8] {
        var schedule = [UInt8](repeating: Self.closedCode, count: 1440)
        let today = DayFacts(days), yesterday = DayFacts(days - 1)
        var anyToday = false, anyYesterday = false
        for rule in rules {
            let matchesToday = Self.matches(rule, today, ph: world & 4 != 0, sh: world & 8 != 0)
            let matchesYesterday = Self.matches(rule, yesterday, ph: world & 1 != 0, sh: world & 2 != 0)
            var appliesToday = matchesToday, appliesYesterday = matchesYesterday
            if rule.combinator == .fallback {
                appliesToday = matchesToday && !anyToday
                appliesYesterday = matchesYesterday && !anyYesterday
            }
            anyToday = anyToday || matchesToday
            anyYesterday = anyYesterday || matchesYesterday
            let state = Self.code(rule.state)
            if appliesToday {
                if rule.combinator != .additional && !(rule.state == .closed && !rule.spans.isEmpty) {
                    Self.fill(&schedule, 0, 1440, Self.closedCode)
                }
                if rule.spans.isEmpty {
                    Self.fill(&schedule, 0, 1440, state)
                }
                for span in rule.spans {
                    Self.fill(&schedule, span.start, min(span.end, 1440), state)
                    if span.openEnd { Self.fill(&schedule, span.end, 1440, Self.unknownCode) }
                }
            }
            if appliesYesterday {
                for span in rule.spans where span.end > 1440 {
                    Self.fill(&schedule, 0, span.end - 1440, state)
                }
            }
        }
        return schedule
    }

    static func fill(_ schedule: inout [UInt8], _ from: Int, _ to: Int, _ value: UInt8) {
        var m = from
        while m < to {
            schedule[m] = value
            m += 1
        }
    }

    struct DayFacts {
        let year: Int, month: Int, day: Int, weekday: Int, week: Int
        init(_ days: Int) {
            (year, month, day) = OpeningHours.civilFromDays(days)
            weekday = OpeningHours.weekday(days)
            week = OpeningHours.isoWeek(days)
        }
    }

    static func matches(_ rule: Rule, _ day: DayFacts, ph: Bool, sh: Bool) -> Bool {
        if !rule.years.isEmpty && !rule.years.contains(where: { $0.from <= day.year && day.year <= $0.to }) { return false }
        if !rule.dates.isEmpty {
            let key = day.month * 100 + day.day
            let hit = rule.dates.contains { range in
                let from = range.fromMonth * 100 + range.fromDay, to = range.toMonth * 100 + range.toDay
                return from <= to ? (from <= key && key <= to) : (key >= from || key <= to)
            }
            if !hit { return false }
        }
        if !rule.weeks.isEmpty {
            let w = day.week
            let hit = rule.weeks.contains { range in
                let inside = range.from <= range.to ? (range.from <= w && w <= range.to) : (w >= range.from || w <= range.to)
                return inside && ((w - range.from + 53) % 53) % range.step == 0
            }
            if !hit { return false }
        }
        let mask = rule.dayMask
        if mask == 0 { return true }
        let weekdayHit = mask & (1 << day.weekday) != 0
        let holidayHit = (ph && mask & publicHoliday != 0) || (sh && mask & schoolHoliday != 0)
        return mask & holidaysAndWeekdays != 0 ? (weekdayHit && holidayHit) : (weekdayHit || holidayHit)
    }

    // MARK: Civil dates (proleptic Gregorian; day 0 is 1970-01-01): ``CivilDate``'s day numbers.

    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        CivilDate.dayNumber(year: year, month: month, day: day)
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let date = CivilDate.date(dayNumber: days)
        return (date.year, date.month, date.day)
    }

    /// 0 Monday … 6 Sunday.
    static func weekday(_ days: Int) -> Int { CivilDate.weekday(dayNumber: days) }

    /// ISO 8601 week number: the week of the year that holds its Thursday.
    static func isoWeek(_ days: Int) -> Int {
        let thursday = days - weekday(days) + 3
        let (year, _, _) = civilFromDays(thursday)
        return (thursday - daysFromCivil(year, 1, 1)) / 7 + 1
    }
}
