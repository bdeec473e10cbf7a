import Foundation

extension OpeningHours {
    /// The state at an instant in a time zone (the city's): ``state(at:)`` of the local wall-clock minute, and the
    /// next change as an instant. A local time a daylight-saving jump skips maps to the instant after the jump.
    public func state(at date: Date, timeZone: TimeZone) -> (state: OpenState, nextChange: Date?) {
        let local = LocalTime(date, timeZone: timeZone)
        let (state, next) = state(at: local)
        return (state, next.map { $0.date(in: timeZone) })
    }

    /// ISO 8601 local date-time with the zone's offset at that instant, to the minute (`2026-11-28T19:00+01:00`), as
    /// both readers and `query --format json` write `next_change`.
    public static func iso8601(_ date: Date, timeZone: TimeZone) -> String {
        let local = LocalTime(date, timeZone: timeZone)
        let offset = timeZone.secondsFromGMT(for: date) / 60
        func pad(_ n: Int, _ width: Int = 2) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(local.year, 4))-\(pad(local.month))-\(pad(local.day))T\(pad(local.minute / 60)):\(pad(local.minute % 60))"
            + "\(offset < 0 ? "-" : "+")\(pad(abs(offset) / 60)):\(pad(abs(offset) % 60))"
    }
}

extension OpeningHours.LocalTime {
    /// The wall-clock minute of an instant in a zone.
    public init(_ date: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        self.init(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1, minute: (c.hour ?? 0) * 60 + (c.minute ?? 0))
    }

    /// The instant of this wall-clock minute in a zone (the first, when a fall-back repeats it; the minute after a
    /// spring-forward gap, when it skips it).
    public func date(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = DateComponents(year: year, month: month, day: day, hour: minute / 60, minute: minute % 60)
        return calendar.date(from: c) ?? Date(timeIntervalSince1970: 0)
    }
}
