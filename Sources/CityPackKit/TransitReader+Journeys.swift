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
                seconds: decoded.departure, rides: decoded.rides, options), JourneyID.digest(again) == decoded.digest,
                // Found only when the journey found again spells this very id: a changed departure or span that
                // leads to the same legs is another text, not this journey's id.
                JourneyID.encode(again, origin: decoded.origin, destination: decoded.destination) == id
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
    package static func iso8601(_ time: JourneyTime, timezone: String) -> String {
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

/// How well a feed's network hangs together: the stops reachable from its busiest stop within two hours of a
/// weekday morning (``TransitReader/reachability()``).
package struct TransitReachability: Sendable, Hashable {
    /// The feed's number (input order).
    package var feed: Int
    /// stop_id and name of the stop with the most departures.
    package var busiestStopID: String
    package var busiestStopName: String?
    /// The weekday in the middle of the feed's service days, and the start time (08:00).
    package var date: ServiceDate
    package var seconds: Int
    /// Stops (platforms and stops some trip serves) reached within two hours, and all such stops of the feed.
    package var reachable: Int
    package var served: Int
}

extension TransitReader {
    /// For each feed: from its busiest stop (most departures) at 08:00 on a weekday in the middle of its service
    /// days, how many of its served stops the journey planner reaches within two hours (default options).
    /// - Throws: `PackError.closed`, `.sqlite`.
    package func reachability() throws(PackError) -> [TransitReachability] {
        try withRouting { data in
            let table = data.table
            var out: [TransitReachability] = []
            let feeds = Set(table.stopFeed).sorted()
            for feed in feeds {
                var departures = [Int](repeating: 0, count: table.stopPackID.count)
                for pattern in data.patterns {
                    for stop in pattern.stops.dropLast() where table.stopFeed[Int(stop)] == feed {
                        departures[Int(stop)] += pattern.trips.count
                    }
                }
                guard let busiest = departures.indices.max(by: { (departures[$0], -$0) < (departures[$1], -$1) }),
                    departures[busiest] > 0
                else { continue }
                // The middle of the services' calendars, moved to the next weekday.
                var days: [Int] = []
                for s in table.serviceStart.indices {
                    if let start = table.serviceStart[s], let end = table.serviceEnd[s] { days += [start, end] }
                    days += table.serviceExceptions[s].keys
                }
                let dayNumbers = days.compactMap { ServiceDate(String($0))?.dayNumber }.sorted()
                guard let first = dayNumbers.first, let last = dayNumbers.last else { continue }
                var date = ServiceDate(dayNumber: (first + last) / 2)
                while date.weekday > 4 { date = date.adding(days: 1) }
                let start = 8 * 3600
                var search = RaptorSearch(data: data, date: date, options: JourneyOptions())
                let origin = JourneyPlanner.access(.stop(table.stopCode[busiest]), data, JourneyOptions(), origin: true)
                _ = search.run(departure: Int32(start), origins: origin, targets: [])
                var reachable = 0, served = 0
                for s in table.stopPackID.indices where data.served[s] && table.stopFeed[s] == feed {
                    served += 1
                    let best = (0..<search.rounds).map { min(search.rideArrival[$0][s], search.footArrival[$0][s]) }.min()
                        ?? RaptorSearch.infinity
                    if best <= Int32(start + 7200) { reachable += 1 }
                }
                out.append(TransitReachability(
                    feed: Int(feed), busiestStopID: table.stopCode[busiest], busiestStopName: table.stopName[busiest],
                    date: date, seconds: start, reachable: reachable, served: served))
            }
            return out
        }
    }
}
