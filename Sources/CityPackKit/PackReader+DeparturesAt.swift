import Foundation

extension PackReader {
    /// The next departures from a stop at a local date and time, as an app asks for them.
    ///
    /// `at` holds the wall-clock date and time in the feed's time zone (e.g.
    /// `Calendar.current.dateComponents(in: agencyTimeZone, from: Date())`); year, month and day are required,
    /// hour and minute default to 0, seconds are honoured when present. Semantics as
    /// ``departures(stop:date:seconds:limit:)``.
    /// - Parameters:
    ///   - stop: GTFS stop_id.
    ///   - at: Local date and time.
    ///   - limit: At most this many departures (default 10).
    /// - Returns: `[]` for an unknown stop or when `at` has no valid date.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func departures(stop: String, at: DateComponents, limit: Int = 10) throws(PackError) -> [Departure] {
        guard let year = at.year, let month = at.month, let day = at.day,
            let date = ServiceDate(year: year, month: month, day: day)
        else { return [] }
        let seconds = (at.hour ?? 0) * 3600 + (at.minute ?? 0) * 60 + (at.second ?? 0)
        return try departures(stop: stop, date: date, seconds: seconds, limit: limit)
    }
}
