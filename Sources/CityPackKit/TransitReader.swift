import CityPackFormat
import Foundation

/// The transit side of a pack (GTFS): stops by stop_id and departure boards. Reached through
/// ``PackReader/transit``; shares the reader's database and lock, so it is `Sendable` and its calls are
/// serialised with the reader's. Its statements are prepared on first use and released when the reader closes.
public final class TransitReader: @unchecked Sendable {
    /// Prepared statements of the transit queries.
    private struct Statements {
        var stopsByCode: PackConnection.Statement
        var children: PackConnection.Statement
        var departures: PackConnection.Statement
        var frequencies: PackConnection.Statement
        var trip: PackConnection.Statement
        var service: PackConnection.Statement
        var exception: PackConnection.Statement
    }

    private let connection: PackConnection
    private let places: PlaceLookup
    /// Latest departure in seconds of its service day (meta `transit_max_seconds`), 0 without transit.
    private let maxSeconds: Int64
    private var statements: Statements?

    init(connection: PackConnection, places: PlaceLookup, maxSeconds: Int64) {
        self.connection = connection
        self.places = places
        self.maxSeconds = maxSeconds
    }

    /// Drops the prepared statements (the reader is closing; its lock is held).
    func release() { statements = nil }

    /// A GTFS stop by its stop_id (the first feed's when several feeds use the same id), or nil.
    /// - Parameters:
    ///   - id: GTFS stop_id.
    ///   - locale: Unused for stops (GTFS has one name); kept for symmetry with ``PackReader/poi(id:locale:)``.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func stop(id: String, locale: String? = nil) throws(PackError) -> PlaceResult? {
        try connection.withDatabase { db throws(PackError) in
            let statements = try prepared(db)
            guard let first = try stopRows(code: id, statements).first else { return nil }
            return try places.result(first.id, locale: locale)
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
    public func departures(stop: String, date: ServiceDate, seconds: Int, limit: Int = 10) throws(PackError)
        -> [Departure]
    {
        try connection.withDatabase { db throws(PackError) in
            guard limit > 0 else { return [] }
            let statements = try prepared(db)
            var serving: [(id: Int64, code: String)] = []
            for row in try stopRows(code: stop, statements) {
                serving.append((row.id, row.code))
                statements.children.reset()
                statements.children.bind(1, row.id)
                while try statements.children.step() {
                    serving.append((statements.children.int64(0), statements.children.text(1) ?? ""))
                }
                statements.children.reset()
            }
            guard !serving.isEmpty else { return [] }

            var context = QueryContext()
            var found: [Departure] = []
            let daysBack = Int(maxSeconds / 86_400)
            for dayOffset in stride(from: -daysBack, through: 1, by: 1) {
                let serviceDate = date.adding(days: dayOffset)
                let shift = dayOffset * 86_400
                let threshold = Int64(max(0, seconds - shift))
                if dayOffset < 0 && threshold > maxSeconds { continue }
                for stop in serving {
                    try scheduledDepartures(
                        stop: stop, from: threshold, on: serviceDate, shift: shift, limit: limit, statements, &context,
                        into: &found)
                    try frequencyDepartures(
                        stop: stop, from: threshold, on: serviceDate, shift: shift, limit: limit, statements, &context,
                        into: &found)
                }
            }
            found.sort {
                ($0.secondsFromQueryDate, $0.lineName, $0.tripID, $0.stopID)
                    < ($1.secondsFromQueryDate, $1.lineName, $1.tripID, $1.stopID)
            }
            return Array(found.prefix(limit))
        }
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
    public func departures(stop: String, at: DateComponents, limit: Int = 10) throws(PackError) -> [Departure] {
        guard let year = at.year, let month = at.month, let day = at.day,
            let date = ServiceDate(year: year, month: month, day: day)
        else { return [] }
        let seconds = (at.hour ?? 0) * 3600 + (at.minute ?? 0) * 60 + (at.second ?? 0)
        return try departures(stop: stop, date: date, seconds: seconds, limit: limit)
    }

    // MARK: - Internals (lock held)

    private func prepared(_ db: PackConnection.Database) throws(PackError) -> Statements {
        if let statements { return statements }
        typealias S = PackSchema.Stop
        typealias D = PackSchema.Departure
        typealias O = PackSchema.TripOffset
        typealias F = PackSchema.Frequency
        typealias T = PackSchema.Trip
        typealias L = PackSchema.Line
        typealias V = PackSchema.Service
        typealias X = PackSchema.ServiceDate
        let prepared = Statements(
            stopsByCode: try db.prepare(
                "SELECT \(S.id), \(S.stopID) FROM \(S.table) WHERE \(S.stopID) = ?1 ORDER BY \(S.feed), \(S.id)",
                persistent: true),
            children: try db.prepare(
                "SELECT \(S.id), \(S.stopID) FROM \(S.table) WHERE \(S.parent) = ?1 ORDER BY \(S.id)", persistent: true),
            departures: try db.prepare(
                "SELECT \(D.seconds), \(D.trip) FROM \(D.table) WHERE \(D.stop) = ?1 AND \(D.seconds) >= ?2 "
                    + "ORDER BY \(D.seconds), \(D.trip)", persistent: true),
            frequencies: try db.prepare(
                "SELECT o.\(O.trip), o.\(O.offset), f.\(F.start), f.\(F.end), f.\(F.headway) FROM \(O.table) o "
                    + "JOIN \(F.table) f ON f.\(F.trip) = o.\(O.trip) WHERE o.\(O.stop) = ?1 "
                    + "ORDER BY o.\(O.trip), o.\(O.offset), f.\(F.start)", persistent: true),
            trip: try db.prepare(
                "SELECT t.\(T.tripID), t.\(T.service), t.\(T.headsign), l.\(L.routeID), l.\(L.shortName), "
                    + "l.\(L.longName), l.\(L.type), l.\(L.colour), l.\(L.textColour) FROM \(T.table) t "
                    + "JOIN \(L.table) l ON l.\(L.id) = t.\(T.line) WHERE t.\(T.id) = ?1", persistent: true),
            service: try db.prepare(
                "SELECT \(V.startDate), \(V.endDate), \(V.days) FROM \(V.table) WHERE \(V.id) = ?1", persistent: true),
            exception: try db.prepare(
                "SELECT \(X.type) FROM \(X.table) WHERE \(X.service) = ?1 AND \(X.date) = ?2", persistent: true))
        statements = prepared
        return prepared
    }

    /// Per-call caches: trips and whether a service runs on a date.
    private struct QueryContext {
        var trips: [Int64: TripInfo] = [:]
        var runs: [Int64: Bool] = [:]  // key: service << 32 | yyyymmdd
    }

    private struct TripInfo {
        var tripID: String
        var service: Int64
        var headsign: String?
        var routeID: String
        var shortName: String?
        var longName: String?
        var type: Int
        var colour: String?
        var textColour: String?
    }

    private func stopRows(code: String, _ statements: Statements) throws(PackError) -> [(id: Int64, code: String)] {
        let stmt = statements.stopsByCode
        stmt.reset()
        stmt.bind(1, code)
        defer { stmt.reset() }
        var rows: [(id: Int64, code: String)] = []
        while try stmt.step() { rows.append((stmt.int64(0), stmt.text(1) ?? code)) }
        return rows
    }

    /// Timetabled departures of one stop on one service date from `threshold` seconds of that day: every row up
    /// to the `limit`-th running one and those sharing its time (ties are ordered by line later).
    private func scheduledDepartures(
        stop: (id: Int64, code: String), from threshold: Int64, on date: ServiceDate, shift: Int, limit: Int,
        _ statements: Statements, _ context: inout QueryContext, into found: inout [Departure]
    ) throws(PackError) {
        let stmt = statements.departures
        stmt.reset()
        stmt.bind(1, stop.id)
        stmt.bind(2, threshold)
        defer { stmt.reset() }
        var accepted = 0
        var lastSeconds = Int64.min
        while try stmt.step() {
            let seconds = stmt.int64(0)
            if accepted >= limit && seconds > lastSeconds { break }
            guard let trip = try tripInfo(stmt.int64(1), statements, &context),
                try serviceRuns(trip.service, on: date, statements, &context)
            else { continue }
            found.append(makeDeparture(trip, stop: stop.code, date: date, seconds: Int(seconds), shift: shift))
            accepted += 1
            lastSeconds = seconds
        }
    }

    /// Departures of frequency-based trips at one stop on one service date from `threshold` seconds of that day.
    private func frequencyDepartures(
        stop: (id: Int64, code: String), from threshold: Int64, on date: ServiceDate, shift: Int, limit: Int,
        _ statements: Statements, _ context: inout QueryContext, into found: inout [Departure]
    ) throws(PackError) {
        let stmt = statements.frequencies
        stmt.reset()
        stmt.bind(1, stop.id)
        var windows: [(trip: Int64, offset: Int64, start: Int64, end: Int64, headway: Int64)] = []
        while try stmt.step() {
            windows.append((stmt.int64(0), stmt.int64(1), stmt.int64(2), stmt.int64(3), stmt.int64(4)))
        }
        stmt.reset()
        for w in windows where w.headway > 0 {
            // First start t with t ≥ start, t ≡ start (mod headway) and t + offset ≥ threshold.
            let earliest = max(w.start, threshold - w.offset)
            var t = w.start + (earliest - w.start + w.headway - 1) / w.headway * w.headway
            guard t < w.end, let trip = try tripInfo(w.trip, statements, &context),
                try serviceRuns(trip.service, on: date, statements, &context)
            else { continue }
            var produced = 0
            while t < w.end && produced < limit {
                found.append(makeDeparture(trip, stop: stop.code, date: date, seconds: Int(t + w.offset), shift: shift))
                produced += 1
                t += w.headway
            }
        }
    }

    private func makeDeparture(_ trip: TripInfo, stop: String, date: ServiceDate, seconds: Int, shift: Int) -> Departure {
        Departure(
            stopID: stop, routeID: trip.routeID, lineShortName: trip.shortName, lineLongName: trip.longName,
            routeType: trip.type, colour: trip.colour, textColour: trip.textColour, headsign: trip.headsign,
            tripID: trip.tripID, serviceDate: date, seconds: seconds, secondsFromQueryDate: seconds + shift)
    }

    private func tripInfo(_ id: Int64, _ statements: Statements, _ context: inout QueryContext) throws(PackError)
        -> TripInfo?
    {
        if let cached = context.trips[id] { return cached }
        let stmt = statements.trip
        stmt.reset()
        stmt.bind(1, id)
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        func optional(_ column: Int32) -> String? { stmt.isNull(column) ? nil : stmt.text(column) }
        let info = TripInfo(
            tripID: stmt.text(0) ?? "", service: stmt.int64(1), headsign: optional(2), routeID: stmt.text(3) ?? "",
            shortName: optional(4), longName: optional(5), type: Int(stmt.int64(6)), colour: optional(7),
            textColour: optional(8))
        context.trips[id] = info
        return info
    }

    /// calendar_dates decides when it names the date; else the calendar's date range and weekday mask.
    private func serviceRuns(_ service: Int64, on date: ServiceDate, _ statements: Statements, _ context: inout QueryContext)
        throws(PackError) -> Bool
    {
        let day = Int64(date.yyyymmdd)
        let key = service << 32 | day
        if let cached = context.runs[key] { return cached }
        var runs = false
        let exception = statements.exception
        exception.reset()
        exception.bind(1, service)
        exception.bind(2, day)
        if try exception.step() {
            runs = exception.int64(0) == 1
            exception.reset()
        } else {
            exception.reset()
            let calendar = statements.service
            calendar.reset()
            calendar.bind(1, service)
            if try calendar.step(), !calendar.isNull(0), !calendar.isNull(2) {
                runs = calendar.int64(0) <= day && day <= calendar.int64(1)
                    && calendar.int64(2) & (1 << Int64(date.weekday)) != 0
            }
            calendar.reset()
        }
        context.runs[key] = runs
        return runs
    }
}
