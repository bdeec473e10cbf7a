import CityPackFormat
import CityPackModel

/// Groups trips into `pattern` rows (``PackSchema/Pattern``): trips with the same ordered stops inside the pack
/// (and the same end: at the last of them, or going on outside the pack) share a pattern, split so that no trip
/// of a pattern arrives or departs anywhere before the one ahead of it, which is what lets a router (and a
/// departure board) binary-search a stop's column of times. A frequency-based trip is a pattern of its own.
struct PatternBuilder {
    /// One finished pattern: stops, trips in order, and times trip-major (`arrivals[k * stops.count + i]`).
    struct Pattern {
        var flags: Int64
        var stops: [Int64]
        var trips: [Int64] = []
        var arrivals: [Int64] = []
        var departures: [Int64] = []
    }

    private struct Key: Hashable {
        var stops: [Int64]
        var flags: Int64
        var frequencyTrip: Int64
    }

    private struct Trip {
        var id: Int64
        var arrivals: [Int64]
        var departures: [Int64]
    }

    private var groups: [Key: [Trip]] = [:]

    /// Adds a trip from its timed stops (stops outside the pack have id -1; times less `shift`).
    mutating func add(trip: Int64, times: [TransitWriter.TimedStop], shift: Int64, frequency: Bool) {
        let inside = times.filter { $0.stop >= 0 }
        guard let last = times.last, !inside.isEmpty else { return }
        var flags: Int64 = last.stop < 0 ? PackSchema.Pattern.throughFlag : 0
        if frequency { flags |= PackSchema.Pattern.frequencyFlag }
        let key = Key(stops: inside.map(\.stop), flags: flags, frequencyTrip: frequency ? trip : 0)
        groups[key, default: []].append(
            Trip(id: trip, arrivals: inside.map { $0.arrival - shift }, departures: inside.map { $0.seconds - shift }))
    }

    /// The patterns, ordered by their first trip id (so the same feeds give the same rows).
    func finished() -> [Pattern] {
        var out: [Pattern] = []
        for (key, trips) in groups {
            let sorted = trips.sorted { a, b in
                if a.departures != b.departures { return a.departures.lexicographicallyPrecedes(b.departures) }
                if a.arrivals != b.arrivals { return a.arrivals.lexicographicallyPrecedes(b.arrivals) }
                return a.id < b.id
            }
            var split: [Pattern] = []
            var lastOf: [Trip] = []
            for trip in sorted {
                // The first sub-pattern whose last trip this one never runs ahead of.
                let slot = lastOf.firstIndex { ahead in
                    zip(ahead.arrivals, trip.arrivals).allSatisfy { $0 <= $1 }
                        && zip(ahead.departures, trip.departures).allSatisfy { $0 <= $1 }
                }
                let index = slot ?? split.count
                if slot == nil {
                    split.append(Pattern(flags: key.flags, stops: key.stops))
                    lastOf.append(trip)
                }
                split[index].trips.append(trip.id)
                split[index].arrivals += trip.arrivals
                split[index].departures += trip.departures
                lastOf[index] = trip
            }
            out += split
        }
        return out.sorted { ($0.trips.min() ?? 0) < ($1.trips.min() ?? 0) }
    }
}

/// The `footpath` rows of one feed (``PackSchema/Footpath``): transfers.txt first, then walking.
enum FootpathBuilder {
    struct Row: Equatable {
        var from: Int64
        var to: Int64
        var metres: Int
        /// transfers.txt's min_transfer_time; nil: walk; -1: forbidden.
        var seconds: Int?
    }

    /// transfers.txt rows between stops (route- and trip-specific rows and in-seat transfers are not modelled):
    /// a station stands for itself and its platforms; type 2 gives its min_transfer_time (walking when empty),
    /// type 3 forbids, types 0 and 1 walk (rows at one stop only with type 2 or 3). Then every pair of the feed's
    /// stops and platforms (location_type 0) with coordinates within ``TransitWalking/radius`` metres not named
    /// by transfers.txt.
    /// - Parameters:
    ///   - stopIDs: Pack id of each of the feed's stops, -1 when left out.
    ///   - stopByCode: Pack id by stop_id.
    static func rows(feed: GTFSFeed, stopIDs: [Int64], stopByCode: [String: Int64]) -> [Row] {
        var indexByID: [Int64: Int] = [:]
        for (index, id) in stopIDs.enumerated() where id >= 0 { indexByID[id] = indexByID[id] ?? index }
        var children: [String: [Int64]] = [:]
        for (index, stop) in feed.stops.enumerated() where stopIDs[index] >= 0 && stop.locationType == 0 {
            if let parent = stop.parentStation { children[parent, default: []].append(stopIDs[index]) }
        }
        func expand(_ code: String) -> [Int64] {
            guard let id = stopByCode[code], let index = indexByID[id] else { return [] }
            return feed.stops[index].locationType == 1 ? [id] + (children[code] ?? []).sorted() : [id]
        }
        func metres(_ a: Int64, _ b: Int64) -> Int {
            guard let i = indexByID[a], let j = indexByID[b], let p = feed.stops[i].coordinate,
                let q = feed.stops[j].coordinate
            else { return 0 }
            return TransitWalking.metres(p.lat, p.lon, q.lat, q.lon)
        }
        var rows: [Row] = []
        var seen: Set<[Int64]> = []
        for transfer in feed.transfers
        where transfer.fromRouteID == nil && transfer.toRouteID == nil && transfer.fromTripID == nil
            && transfer.toTripID == nil && (0...3).contains(transfer.transferType)
        {
            guard let fromCode = transfer.fromStopID, let toCode = transfer.toStopID else { continue }
            let seconds: Int? = switch transfer.transferType {
            case 3: -1
            case 2: transfer.minTransferTime.map { Int($0) }
            default: nil
            }
            for from in expand(fromCode) {
                for to in expand(toCode) where from != to || (transfer.transferType >= 2 && seconds != nil) {
                    guard seen.insert([from, to]).inserted else { continue }
                    rows.append(Row(from: from, to: to, metres: from == to ? 0 : metres(from, to), seconds: seconds))
                }
            }
        }
        // Walking: platforms sorted by latitude, each compared with those less than the radius further north.
        let walkers = feed.stops.indices
            .filter { stopIDs[$0] >= 0 && feed.stops[$0].locationType == 0 && feed.stops[$0].coordinate?.isValid == true }
            .sorted { (feed.stops[$0].coordinate!.lat, stopIDs[$0]) < (feed.stops[$1].coordinate!.lat, stopIDs[$1]) }
        let latitudeSpan = TransitWalking.radius / GreatCircle.earthRadius * 180 / Double.pi
        for (n, i) in walkers.enumerated() {
            let p = feed.stops[i].coordinate!
            for j in walkers[(n + 1)...] {
                let q = feed.stops[j].coordinate!
                if q.lat - p.lat > latitudeSpan { break }
                guard GreatCircle.distance(p.lat, p.lon, q.lat, q.lon) <= TransitWalking.radius else { continue }
                let walk = TransitWalking.metres(p.lat, p.lon, q.lat, q.lon)
                for (a, b) in [(stopIDs[i], stopIDs[j]), (stopIDs[j], stopIDs[i])] where seen.insert([a, b]).inserted {
                    rows.append(Row(from: a, to: b, metres: walk, seconds: nil))
                }
            }
        }
        return rows
    }
}
