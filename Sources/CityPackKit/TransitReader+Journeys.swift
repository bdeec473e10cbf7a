import CityPackFormat
import Foundation

extension TransitReader {
    /// Loads the timetable and builds the routing data now (the first journey query does it otherwise), for
    /// apps that warm up and for benchmarks.
    /// - Throws: `PackError.closed`, `.sqlite`, `.notAPack` for a damaged timetable.
    public func prepareJourneys() throws(PackError) {
        try withRouting { _ in }
    }

    /// GTFS stop_ids of the stops some trip serves (boarding or alighting), sorted; for tools and tests.
    package func servedStopIDs() throws(PackError) -> [String] {
        try withRouting { data in
            Array(Set(data.table.stopCode.indices.filter { data.served[$0] }.map { data.table.stopCode[$0] })).sorted()
        }
    }

    /// Journeys between two places (RAPTOR over the pack's timetable; ``JourneyPlanner``).
    ///
    /// Without `window` and `arriveBy`: leave at the time; the answer is the Pareto set over (arrival,
    /// transfers) — the earliest arrival, then each journey with fewer transfers that arrives later. With
    /// `window` (minutes): every Pareto journey over (later departure, earlier arrival, fewer transfers) leaving
    /// in [time, time + window]. With `arriveBy`: journeys arriving by the time, leaving within `window`
    /// (default 120) minutes before it, the latest departure for each number of transfers. Times are local
    /// times of the feed's zone (``timezones``) counted from `date`'s 00:00; trips of earlier service days still
    /// running (times past 24:00) and of the next day are used. The routing data is built on first use (about
    /// the time of loading the timetable) and kept until the reader closes.
    /// - Parameters:
    ///   - from: A GTFS stop_id (a station includes its platforms) or a coordinate.
    ///   - to: Likewise.
    ///   - date: The local date.
    ///   - seconds: Seconds from `date`'s 00:00.
    ///   - arriveBy: Whether the time is the latest arrival.
    ///   - window: Minutes of the departure window (range and arrive-by queries).
    ///   - options: Transfers, walking and change time (``JourneyOptions``).
    /// - Returns: Journeys sorted by departure, arrival, transfers; `[]` when unknown stops or nothing reaches.
    /// - Throws: `PackError.closed`, `.sqlite`, `.notAPack` for a damaged timetable.
    public func journeys(
        from: JourneyEndpoint, to: JourneyEndpoint, date: ServiceDate, seconds: Int, arriveBy: Bool = false,
        window: Int? = nil, options: JourneyOptions = JourneyOptions()
    ) throws(PackError) -> [Journey] {
        let mode: JourneyPlanner.Mode =
            arriveBy ? .arriveBy(windowSeconds: (window ?? 120) * 60)
            : window.map { .range(windowSeconds: $0 * 60) } ?? .departAt
        return try withRouting { data in
            JourneyPlanner.plan(data, from: from, to: to, date: date, seconds: seconds, mode: mode, options: options)
        }
    }

    /// Resolves a journey id (``Journey/id``) offline: the same journey when this pack's timetable still has
    /// it; otherwise ``JourneyLookup/gone(nearest:)`` with the journey between the same places whose departure
    /// is closest (within an hour either side; fewer transfers, then earlier arrival break ties).
    /// - Parameter options: Must be the options the id was planned with for walking and change times.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func journey(id: String, options: JourneyOptions = JourneyOptions()) throws(PackError) -> JourneyLookup {
        guard let decoded = JourneyID.decode(id) else { return .invalid }
        return try withRouting { data in
            if let again = JourneyPlanner.rerun(data, decoded.origin, decoded.destination, decoded.date,
                seconds: decoded.departure, rides: decoded.rides, options), JourneyID.digest(again) == decoded.digest
            {
                return .found(again)
            }
            if decoded.rides == 0, let walk = JourneyPlanner.plan(data, from: decoded.origin, to: decoded.destination,
                date: decoded.date, seconds: decoded.departure, mode: .departAt, options: options).first(where: {
                    $0.id == id
                })
            {
                return .found(walk)
            }
            let around = JourneyPlanner.plan(data, from: decoded.origin, to: decoded.destination, date: decoded.date,
                seconds: decoded.departure - 3600, mode: .range(windowSeconds: 7200), options: options)
            let nearest = around.min {
                (abs($0.departure.seconds - decoded.departure), $0.transfers, $0.arrival.seconds)
                    < (abs($1.departure.seconds - decoded.departure), $1.transfers, $1.arrival.seconds)
            }
            return .gone(nearest: nearest)
        }
    }

    /// ISO 8601 local date-time with the zone's UTC offset at that moment (`2014-10-20T07:47:00+02:00`); the
    /// offset is found for the wall-clock time (in a repeated hour, the later offset; in a skipped one, the
    /// earlier). Without a known zone, no offset (`2014-10-20T07:47:00`).
    /// - Parameters:
    ///   - time: A journey time.
    ///   - timezone: An IANA zone name (``timezones``).
    public static func iso8601(_ time: JourneyTime, timezone: String) -> String {
        let local = time.local
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = "\(local.date)T\(pad(local.hour)):\(pad(local.minute)):\(pad(local.second))"
        guard let zone = TimeZone(identifier: timezone) else { return text }
        let wall = Double(time.absolute)
        let first = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - Double(first)))
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return "\(text)\(sign)\(pad(minutes / 60)):\(pad(minutes % 60))"
    }
}
