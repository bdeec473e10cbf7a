/// Calendar arithmetic on proleptic Gregorian dates as day numbers (days since 1970-01-01), without Foundation
/// calendars, so every module gets the same answer in every locale and time zone: GTFS service days, feed expiry,
/// build dates and the manifest's times.
package enum CivilDate {
    /// Days since 1970-01-01 of a date (negative before it).
    ///
    /// Counts from March 1 in 400-year eras (146 097 days each), so leap days fall at the end of a year. Month and
    /// day are not checked: month 0 or 13 and day 0 or 32 count on into the neighbouring month or year.
    /// - Parameters:
    ///   - year: Any year (0 = 1 BC).
    ///   - month: 1…12.
    ///   - day: 1…31.
    package static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number; the inverse of ``dayNumber(year:month:day:)``.
    /// - Parameter dayNumber: Days since 1970-01-01.
    /// - Returns: Year, month 1…12 and day 1…31.
    package static func date(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Monday … 6 = Sunday (the bit of GTFS calendar's weekday mask) of a day number.
    package static func weekday(dayNumber: Int) -> Int { ((dayNumber + 3) % 7 + 7) % 7 }

    /// Days in a month of a year (February 29 in leap years).
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The UTC calendar date of a time.
    /// - Parameter secondsSince1970: Seconds since 1970-01-01T00:00:00Z (negative before it).
    package static func utc(secondsSince1970 seconds: Int64) -> (year: Int, month: Int, day: Int) {
        date(dayNumber: Int(floorDiv(seconds, 86_400)))
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
}

/// Times of day as text, from seconds: `HH:MM` or `HH:MM:SS`, every field at least two digits.
package enum ClockTime {
    /// Text of a time of day.
    /// - Parameters:
    ///   - seconds: Seconds since midnight, ≥ 0; hours are not wrapped (GTFS's 25:10:00 stays `25:10:00`).
    ///   - withSeconds: `HH:MM:SS` when true, else `HH:MM`.
    package static func text(seconds: Int, withSeconds: Bool = true) -> String {
        let hhmm = "\(twoDigits(seconds / 3600)):\(twoDigits(seconds % 3600 / 60))"
        return withSeconds ? "\(hhmm):\(twoDigits(seconds % 60))" : hhmm
    }

    /// A number with a leading zero below 10.
    package static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// `1970-01-01T00:00:00Z`-style UTC text for seconds since 1970 (the manifest's and `meta`'s times),
/// independent of locale and time zone.
/// - Parameter seconds: Seconds since 1970-01-01T00:00:00Z.
package func iso8601UTC(_ seconds: Int64) -> String {
    let days = CivilDate.floorDiv(seconds, 86_400)
    let (year, month, day) = CivilDate.date(dayNumber: Int(days))
    let time = ClockTime.text(seconds: Int(seconds - days * 86_400))
    return "\(year)-\(ClockTime.twoDigits(month))-\(ClockTime.twoDigits(day))T\(time)Z"
}

/// Seconds since 1970 of `YYYY-MM-DDTHH:MM:SSZ` UTC text (the inverse of ``iso8601UTC(_:)``; OSM timestamps),
/// without Foundation formatters.
///
/// Reads the first 14 ASCII digits whatever separates them, so `2024-01-02 03:04:05` and `20240102T030405Z`
/// parse too; the time zone is always UTC.
/// - Returns: nil with fewer than 14 digits, or a month outside 1…12 or a day outside 1…31.
package func parseISO8601UTC(_ text: String) -> Int64? {
    var digits: [Int] = []
    for byte in text.utf8 where (48...57).contains(byte) {
        digits.append(Int(byte) - 48)
        if digits.count == 14 { break }
    }
    guard digits.count == 14 else { return nil }
    func number(_ from: Int, _ count: Int) -> Int { digits[from..<(from + count)].reduce(0) { $0 * 10 + $1 } }
    let (year, month, day) = (number(0, 4), number(4, 2), number(6, 2))
    guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    let days = Int64(CivilDate.dayNumber(year: year, month: month, day: day))
    return days * 86_400 + Int64(number(8, 2) * 3600 + number(10, 2) * 60 + number(12, 2))
}
