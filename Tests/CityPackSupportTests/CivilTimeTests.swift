import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

@Suite struct CivilTimeTests {
    /// Day numbers agree with Foundation's Gregorian calendar in UTC (which is Julian before October 1582, so only
    /// later days are compared), both ways, across leap years and centuries.
    @Test func dayNumbersMatchFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var rng = SplitMix64(seed: 42)
        for k in 0..<2000 {
            let day = k < 10 ? [-141_427, -1, 0, 1, 59, 60, 11_016, 10_957, 2_932_896, -25_567][k] : Int.random(in: -141_427...800_000, using: &rng)
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let date = CivilDate.date(dayNumber: day)
            #expect(date.year == parts.year && date.month == parts.month && date.day == parts.day, "day \(day)")
            #expect(CivilDate.dayNumber(year: date.year, month: date.month, day: date.day) == day)
            #expect(CivilDate.weekday(dayNumber: day) == (calendar.component(.weekday, from: Date(timeIntervalSince1970: Double(day) * 86_400)) + 5) % 7)
        }
        #expect(CivilDate.date(dayNumber: -141_427) == (1582, 10, 15))
        #expect(CivilDate.date(dayNumber: -719_468) == (0, 3, 1))
        #expect(CivilDate.dayNumber(year: -1, month: 12, day: 31) == -719_529)
        #expect(CivilDate.daysInMonth(year: 2000, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 1900, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2024, month: 4) == 30)
        // Month 13 counts on into January of the next year.
        #expect(CivilDate.dayNumber(year: 2023, month: 13, day: 1) == CivilDate.dayNumber(year: 2024, month: 1, day: 1))
    }

    @Test func iso8601RoundTrips() {
        #expect(iso8601UTC(0) == "1970-01-01T00:00:00Z")
        #expect(iso8601UTC(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(iso8601UTC(1_700_000_000) == "2023-11-14T22:13:20Z")
        #expect(iso8601UTC(-1) == "1969-12-31T23:59:59Z")
        for seconds: Int64 in [0, -1, -86_400, 951_782_400, 1_700_000_000, 4_102_444_799, -2_208_988_800] {
            #expect(parseISO8601UTC(iso8601UTC(seconds)) == seconds)
        }
        #expect(parseISO8601UTC("2024-01-02 03:04:05") == parseISO8601UTC("20240102T030405Z"))
        #expect(parseISO8601UTC("2024-13-02T03:04:05Z") == nil)
        #expect(parseISO8601UTC("2024-01-02") == nil)
        #expect(CivilDate.utc(secondsSince1970: 951_868_799) == (2000, 2, 29))
        #expect(CivilDate.utc(secondsSince1970: -1) == (1969, 12, 31))
    }

    @Test func clockText() {
        #expect(ClockTime.text(seconds: 0) == "00:00:00")
        #expect(ClockTime.text(seconds: 90_600) == "25:10:00")
        #expect(ClockTime.text(seconds: 7 * 3600 + 5 * 60 + 9, withSeconds: false) == "07:05")
    }
}
