import CityPackSupport

/// A calendar date as GTFS uses it for service days (proleptic Gregorian, no time zone).
public struct ServiceDate: Sendable, Hashable, Comparable, Encodable, CustomStringConvertible {
    /// Year, 1…9999.
    public let year: Int
    /// Month, 1…12.
    public let month: Int
    /// Day of the month, 1…31.
    public let day: Int

    /// A valid date (month 1–12, day within the month), else nil.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= CivilDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (or GTFS's `YYYYMMDD`); nil when malformed or not a real date.
    public init?(_ text: String) {
        let digits = text.count == 10 && Array(text)[4] == "-" && Array(text)[7] == "-"
            ? text.replacingDashes() : text
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else {
            return nil
        }
        self.init(year: value / 10_000, month: value / 100 % 100, day: value % 100)
    }

    /// The date of a day number (days since 1970-01-01).
    init(dayNumber: Int) {
        (year, month, day) = CivilDate.date(dayNumber: dayNumber)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The date as the GTFS integer `yyyymmdd`.
    public var yyyymmdd: Int { year * 10_000 + month * 100 + day }

    /// Days since 1970-01-01.
    var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> ServiceDate { ServiceDate(dayNumber: dayNumber + days) }

    /// 0 = Monday … 6 = Sunday (the bit of GTFS calendar's weekday mask).
    public var weekday: Int { CivilDate.weekday(dayNumber: dayNumber) }

    public static func < (a: ServiceDate, b: ServiceDate) -> Bool { a.yyyymmdd < b.yyyymmdd }
}

/// One departure from a stop, as a departure board shows it.
public struct Departure: Sendable, Encodable, Hashable {
    /// GTFS stop_id of the stop or platform it leaves from (a child platform when a station was asked for).
    public var stopID: String
    /// GTFS route_id of the line.
    public var routeID: String
    /// route_short_name, e.g. `M1`.
    public var lineShortName: String?
    /// route_long_name.
    public var lineLongName: String?
    /// GTFS route_type (0 tram, 1 subway, 2 rail, 3 bus, …; extended types 100–1700).
    public var routeType: Int
    /// route_color as `RRGGBB`, nil when the feed gives none.
    public var colour: String?
    /// route_text_color as `RRGGBB`, nil when the feed gives none.
    public var textColour: String?
    /// trip_headsign.
    public var headsign: String?
    /// GTFS trip_id.
    public var tripID: String
    /// The service date the trip runs on (may be the day before the query for times past 24:00).
    public var serviceDate: ServiceDate
    /// Seconds from the start of ``serviceDate``; may exceed 86 400 (25:10 = 90 600).
    public var seconds: Int
    /// Seconds from the start of the query date (``seconds`` plus whole days between the dates).
    public var secondsFromQueryDate: Int
    /// Wall-clock time `HH:MM` (``seconds`` modulo 24 h).
    public var displayTime: String

    package init(
        stopID: String, routeID: String, lineShortName: String?, lineLongName: String?, routeType: Int,
        colour: String?, textColour: String?, headsign: String?, tripID: String, serviceDate: ServiceDate,
        seconds: Int, secondsFromQueryDate: Int
    ) {
        self.stopID = stopID
        self.routeID = routeID
        self.lineShortName = lineShortName
        self.lineLongName = lineLongName
        self.routeType = routeType
        self.colour = colour
        self.textColour = textColour
        self.headsign = headsign
        self.tripID = tripID
        self.serviceDate = serviceDate
        self.seconds = seconds
        self.secondsFromQueryDate = secondsFromQueryDate
        displayTime = ClockTime.text(seconds: ((seconds % 86_400) + 86_400) % 86_400, withSeconds: false)
    }

    /// Line name shown and used for ordering: short name, else long name, else route_id.
    public var lineName: String { lineShortName ?? lineLongName ?? routeID }
}

extension String {
    fileprivate func replacingDashes() -> String { String(filter { $0 != "-" }) }
}

/// The dates a pack's timetable covers (``TransitReader/coverage()``): a date outside them has no departures
/// because the data ends (or starts) there.
public struct TimetableCoverage: Sendable, Hashable, Encodable {
    /// Where a date lies against the covered dates.
    public enum Position: String, Sendable, Encodable {
        /// Before the first date: the timetable has not started.
        case before
        case within
        /// After the last date: the timetable has ended (the data is old).
        case after
    }

    /// The first date any service may run.
    public let first: ServiceDate
    /// The last date any service may run.
    public let last: ServiceDate

    package init(first: ServiceDate, last: ServiceDate) {
        self.first = first
        self.last = last
    }

    /// Where `date` lies: before the first date, within, or after the last.
    public func position(of date: ServiceDate) -> Position {
        date < first ? .before : date > last ? .after : .within
    }
}
