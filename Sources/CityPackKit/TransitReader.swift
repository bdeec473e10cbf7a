import CityPackFormat
import Foundation

/// The transit side of a pack (GTFS): stops by stop_id, departure boards and journeys. Reached through
/// ``PackReader/transit``; shares the reader's database and lock, so it is `Sendable` and its calls are
/// serialised with the reader's. The timetable (``Timetable``) is read on first use and kept until the reader
/// closes; departure boards and the journey planner both scan it.
public final class TransitReader: @unchecked Sendable {
    private let connection: PackConnection
    private let places: PlaceLookup
    private let meta: [String: String]
    private var loaded: Timetable?
    private var routing: RoutingData?

    init(connection: PackConnection, places: PlaceLookup, meta: [String: String]) {
        self.connection = connection
        self.places = places
        self.meta = meta
    }

    /// Drops the timetable (the reader is closing; its lock is held).
    func release() {
        loaded = nil
        routing = nil
    }

    /// Each feed's time zone (GTFS agency_timezone, an IANA name such as `Europe/Rome`), in feed order; empty for
    /// a pack without transit. Times in departures and journeys are local times of this zone.
    public var timezones: [String] {
        (meta[PackSchema.MetaKey.transitTimezones] ?? "").split(separator: ",").map(String.init)
    }

    /// The dates the timetable covers: from the first date any service may run to the last (calendar ranges and
    /// added dates); nil for a pack without transit. A departure board or journey for a date outside it is empty
    /// because the data does not reach that date, not because nothing runs: say so (``TimetableCoverage/position(of:)``).
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func coverage() throws(PackError) -> TimetableCoverage? {
        try withTimetable { table, _ throws(PackError) in
            guard let range = table.serviceRange, let first = ServiceDate(String(range.first)), let last = ServiceDate(String(range.last))
            else { return nil }
            return TimetableCoverage(first: first, last: last)
        }
    }

    /// The timetable, loaded on first use (lock held by the caller's `withDatabase`).
    func timetable(_ db: PackConnection.Database) throws(PackError) -> Timetable {
        if let loaded { return loaded }
        let table = try Timetable.load(db, meta: meta)
        loaded = table
        return table
    }

    /// Runs `body` with the routing data, built from the timetable on first use (lock held).
    func withRouting<T>(_ body: (RoutingData) throws(PackError) -> T) throws(PackError) -> T {
        try connection.withDatabase { db throws(PackError) in
            if let routing { return try body(routing) }
            let built = RoutingData(try timetable(db))
            routing = built
            return try body(built)
        }
    }

    /// Runs `body` with the loaded timetable (lock held).
    func withTimetable<T>(_ body: (Timetable, PlaceLookup) throws(PackError) -> T) throws(PackError) -> T {
        try connection.withDatabase { db throws(PackError) in try body(try timetable(db), places) }
    }

    /// A GTFS stop by its stop_id (the first feed's when several feeds use the same id), or nil.
    /// - Parameters:
    ///   - id: GTFS stop_id.
    ///   - locale: Unused for stops (GTFS has one name); kept for symmetry with ``PackReader/poi(id:locale:)``.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func stop(id: String, locale: String? = nil) throws(PackError) -> PlaceResult? {
        try withTimetable { table, places throws(PackError) in
            guard let first = table.stopsByCode[id]?.first else { return nil }
            return try places.result(table.stopPackID[Int(first)], locale: locale)
        }
    }

    /// The next departures from a stop at or after a time, as a departure board shows them.
    ///
    /// A trip runs on service date D when calendar_dates adds D for its service, or when its calendar covers D
    /// (start ≤ D ≤ end and D's weekday set) and calendar_dates does not remove D. Departures past 24:00 belong
    /// to the previous service date(s): a 25:10 departure on D − 1 is found by a query for D at 01:10 or earlier
    /// that day. Frequency trips depart from their first stop at start, start + headway, … (< end), each shifted
    /// by the stop's offset within the trip. A station (location_type 1) includes its child platforms. Service
    /// dates from D − ⌊latest departure / 24 h⌋ to D + 1 are considered. Times are local service-day times
    /// (no daylight-saving adjustment). A trip's last stop is an arrival, not a departure, and is not listed.
    /// - Parameters:
    ///   - stop: GTFS stop_id (every feed's stop with that id).
    ///   - date: The query date.
    ///   - seconds: Seconds since midnight of `date` (0 ..< 86 400 for a wall-clock time).
    ///   - limit: At most this many departures (default 10); ≤ 0 yields `[]`.
    /// - Returns: Departures at or after the time, sorted by actual time, then line name, then trip_id; `[]` for
    ///   an unknown stop.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func departures(stop: String, date: ServiceDate, seconds: Int, limit: Int = ReaderDefaults.departuresLimit) throws(PackError)
        -> [Departure]
    {
        guard limit > 0 else { return [] }
        return try withTimetable { table, _ in Self.departures(table, stop: stop, date: date, seconds: seconds, limit: limit) }
    }

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
    public func departures(stop: String, at: DateComponents, limit: Int = ReaderDefaults.departuresLimit) throws(PackError) -> [Departure] {
        guard let year = at.year, let month = at.month, let day = at.day,
            let date = ServiceDate(year: year, month: month, day: day)
        else { return [] }
        let seconds = (at.hour ?? 0) * 3600 + (at.minute ?? 0) * 60 + (at.second ?? 0)
        return try departures(stop: stop, date: date, seconds: seconds, limit: limit)
    }

    // MARK: - Internals

    /// The departure board from the timetable: for each serving stop and service date, each pattern's column at
    /// the stop is binary-searched; up to `limit` running trips per pattern are taken, then all are sorted.
    static func departures(_ table: Timetable, stop: String, date: ServiceDate, seconds: Int, limit: Int) -> [Departure] {
        var serving: [Int32] = []
        for row in table.stopsByCode[stop] ?? [] {
            serving.append(row)
            serving += table.children[row] ?? []
        }
        guard !serving.isEmpty else { return [] }
        var found: [Departure] = []
        var seen: Set<[Int]> = []
        var runs: [Int: Bool] = [:]
        func running(_ trip: Int32, _ day: ServiceDate) -> Bool {
            let service = table.tripService[Int(trip)]
            let key = Int(service) << 32 | day.yyyymmdd
            if let known = runs[key] { return known }
            let value = table.serviceRuns(service, on: day)
            runs[key] = value
            return value
        }
        func add(_ trip: Int32, _ stop: Int32, _ day: ServiceDate, _ time: Int, _ shift: Int) {
            guard seen.insert([Int(trip), Int(stop), day.yyyymmdd, time]).inserted else { return }
            let line = Int(table.tripLine[Int(trip)])
            found.append(Departure(
                stopID: table.stopCode[Int(stop)], routeID: table.lineRouteID[line],
                lineShortName: table.lineShortName[line], lineLongName: table.lineLongName[line],
                routeType: table.lineType[line], colour: table.lineColour[line], textColour: table.lineTextColour[line],
                headsign: table.tripHeadsign[Int(trip)], tripID: table.tripCode[Int(trip)], serviceDate: day,
                seconds: time, secondsFromQueryDate: time + shift))
        }
        let daysBack = table.maxSeconds / 86_400
        for dayOffset in stride(from: -daysBack, through: 1, by: 1) {
            let day = date.adding(days: dayOffset)
            let shift = dayOffset * 86_400
            let threshold = max(0, seconds - shift)
            if dayOffset < 0 && threshold > table.maxSeconds { continue }
            for stop in serving {
                for (p, position) in table.stopPatterns[Int(stop)] {
                    let pattern = table.patterns[Int(p)]
                    let i = Int(position)
                    guard i < pattern.stops.count - 1 || pattern.through else { continue }
                    let m = pattern.tripCount
                    if pattern.frequency {
                        let offset = Int(pattern.departures[i * m])
                        let trip = pattern.trips[0]
                        guard trip >= 0 else { continue }
                        for w in table.frequencies[trip] ?? [] where w.headway > 0 {
                            let earliest = max(w.start, threshold - offset)
                            var t = w.start + (earliest - w.start + w.headway - 1) / w.headway * w.headway
                            guard t < w.end, running(trip, day) else { continue }
                            var produced = 0
                            while t < w.end && produced < limit {
                                add(trip, stop, day, t + offset, shift)
                                produced += 1
                                t += w.headway
                            }
                        }
                        continue
                    }
                    // First trip departing at or after the threshold (the column is ascending).
                    var lo = 0, hi = m
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if Int(pattern.departures[i * m + mid]) < threshold { lo = mid + 1 } else { hi = mid }
                    }
                    var accepted = 0
                    var lastTime = Int.min
                    for k in lo..<m {
                        let time = Int(pattern.departures[i * m + k])
                        if accepted >= limit && time > lastTime { break }
                        let trip = pattern.trips[k]
                        guard trip >= 0, running(trip, day) else { continue }
                        add(trip, stop, day, time, shift)
                        accepted += 1
                        lastTime = time
                    }
                }
            }
        }
        found.sort {
            ($0.secondsFromQueryDate, $0.lineName, $0.tripID, $0.stopID)
                < ($1.secondsFromQueryDate, $1.lineName, $1.tripID, $1.stopID)
        }
        return Array(found.prefix(limit))
    }
}
