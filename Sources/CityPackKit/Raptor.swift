import CityPackFormat

/// The timetable as the router scans it: frequency-based trips expanded into timed trips, and for every stop
/// the patterns serving it. Built once per reader from ``Timetable``; immutable, so `Sendable`.
package final class RoutingData: Sendable {
    /// One routable pattern: `n` stops, `m` trips, times stop-major (`departures[i * m + k]`), every column
    /// ascending and no trip overtaking another.
    package struct RoutePattern: Sendable {
        package var stops: [Int32]
        package var trips: [Int32]
        package var arrivals: [Int32]
        package var departures: [Int32]
        /// Latest departure of the pattern (any stop), seconds of its service day.
        package var latest: Int32
    }

    package let table: Timetable
    package let patterns: [RoutePattern]
    /// For stop s, `stopRoutes[stopRouteStart[s] ..< stopRouteStart[s + 1]]` are (pattern, position) pairs.
    package let stopRouteStart: [Int32]
    package let stopRoutePattern: [Int32]
    package let stopRoutePosition: [Int32]
    /// Latest arrival or departure in the timetable (seconds of a service day): how many earlier service days
    /// can still run at a given time.
    package let latestSeconds: Int
    /// Whether a routable pattern stops at each stop.
    package let served: [Bool]
    /// Stops a wheelchair cannot board or alight at: wheelchair_boarding 2, or a platform without information
    /// whose parent station says 2.
    package let wheelchairBlockedStop: [Bool]
    /// Trips marked not wheelchair accessible (wheelchair_accessible 2).
    package let wheelchairBlockedTrip: [Bool]

    package init(_ table: Timetable) {
        self.table = table
        var out: [RoutePattern] = []
        var latest = 0
        for pattern in table.patterns {
            let n = pattern.stops.count
            guard n >= 2, !pattern.stops.contains(-1), !pattern.trips.contains(-1) else { continue }
            if pattern.frequency {
                let trip = pattern.trips[0]
                var starts: [Int32] = []
                for w in table.frequencies[trip] ?? [] where w.headway > 0 && w.end > w.start {
                    var t = w.start
                    while t < w.end {
                        starts.append(Int32(t))
                        t += w.headway
                    }
                }
                starts = Array(Set(starts)).sorted()
                let m = starts.count
                guard m > 0 else { continue }
                var arr = [Int32](repeating: 0, count: n * m), dep = arr
                for i in 0..<n {
                    for (k, start) in starts.enumerated() {
                        arr[i * m + k] = pattern.arrivals[i] + start
                        dep[i * m + k] = pattern.departures[i] + start
                    }
                }
                let top = max(arr.max() ?? 0, dep.max() ?? 0)
                latest = max(latest, Int(top))
                out.append(RoutePattern(stops: pattern.stops, trips: Array(repeating: trip, count: m), arrivals: arr,
                    departures: dep, latest: top))
            } else {
                let top = max(pattern.arrivals.max() ?? 0, pattern.departures.max() ?? 0)
                latest = max(latest, Int(top))
                out.append(RoutePattern(stops: pattern.stops, trips: pattern.trips, arrivals: pattern.arrivals,
                    departures: pattern.departures, latest: top))
            }
        }
        patterns = out
        latestSeconds = latest
        var isServed = [Bool](repeating: false, count: table.stopPackID.count)
        for pattern in out { for stop in pattern.stops { isServed[Int(stop)] = true } }
        served = isServed
        wheelchairBlockedStop = table.stopWheelchair.indices.map { s in
            let own = table.stopWheelchair[s]
            let parent = table.stopParent[s]
            return own == 2 || (own == 0 && parent >= 0 && table.stopWheelchair[Int(parent)] == 2)
        }
        wheelchairBlockedTrip = table.tripWheelchair.map { $0 == 2 }
        let stopCount = table.stopPackID.count
        var lists = [[(Int32, Int32)]](repeating: [], count: stopCount)
        for (p, pattern) in out.enumerated() {
            for (i, stop) in pattern.stops.enumerated() where i < pattern.stops.count - 1 {
                lists[Int(stop)].append((Int32(p), Int32(i)))
            }
        }
        var start: [Int32] = [0]
        var routePattern: [Int32] = [], routePosition: [Int32] = []
        for list in lists {
            for (p, i) in list {
                routePattern.append(p)
                routePosition.append(i)
            }
            start.append(Int32(routePattern.count))
        }
        stopRouteStart = start
        stopRoutePattern = routePattern
        stopRoutePosition = routePosition
    }
}

/// One RAPTOR search (Delling, Pajor, Werneck: "Round-Based Public Transit Routing"): round k finds the
/// earliest arrival at every stop with k rides, so the rounds' improvements at the destination are the Pareto
/// set over (arrival, transfers).
///
/// The model, which the independent check in the tests implements too: at a stop one is either off a vehicle
/// (then one may change there after the stop's change time, or walk one footpath) or on foot (then one may
/// board at once, but not walk on). Times count seconds from the query date's 00:00; the service days from
/// `date − ⌊latest / 86 400⌋` to `date + 1` run, each trip at its service day's offset. Within a round,
/// patterns are scanned in index order and each pattern day by day, earliest day first; ties keep the first
/// label found. Not thread-safe (reusable buffers); one per query.
package struct RaptorSearch {
    static let infinity = ReaderDefaults.unreachedSeconds

    /// The origin's stops with the walk to each (seconds, metres), and the destination's likewise.
    package struct Access: Sendable {
        package var stop: Int32
        package var seconds: Int32
        package var metres: Int32
        /// The endpoint's own stop the walk starts from (a footpath from it); -1 for a coordinate.
        package var via: Int32 = -1
    }

    /// A ride label: pattern, day index, trip position, boarding and alighting positions.
    struct Ride {
        var pattern: Int32 = -1
        var day: Int32 = 0
        var trip: Int32 = 0
        var board: Int32 = 0
        var alight: Int32 = 0
    }

    /// The destination reached in a round.
    package struct Arrival {
        package var round: Int
        package var stop: Int32
        package var byFoot: Bool
        package var time: Int32
        package var egress: Access
    }

    let data: RoutingData
    let options: JourneyOptions
    let date: ServiceDate
    /// Day offsets from the query date, ascending, and the services running on each.
    let dayOffsets: [Int]
    let runs: [[Bool]]
    let rounds: Int

    var rideArrival: [[Int32]]
    var rideLabel: [[Ride]]
    var footArrival: [[Int32]]
    /// The stop whose ride arrival a foot label walked from; -1 for the origin's access.
    var footFrom: [[Int32]]
    var ready: [[Int32]]
    var readyByFoot: [[Bool]]
    var bestRide: [Int32]
    var bestReady: [Int32]
    var firstPosition: [Int32]
    /// The departure of the current run: nothing happens before it, so a pattern's days that end earlier are
    /// skipped.
    var runDeparture: Int32 = 0

    /// - Parameters:
    ///   - data: The routing data.
    ///   - date: The query date; times count from its 00:00.
    ///   - options: Max transfers (rounds), walking and change times.
    package init(data: RoutingData, date: ServiceDate, options: JourneyOptions) {
        self.data = data
        self.options = options
        self.date = date
        let back = data.latestSeconds / 86_400
        dayOffsets = Array(-back...1)
        let table = data.table
        runs = dayOffsets.map { offset in
            let day = date.adding(days: offset)
            return (0..<table.serviceStart.count).map { table.serviceRuns(Int32($0), on: day) }
        }
        rounds = max(0, options.maxTransfers) + 2
        let s = table.stopPackID.count
        let row = [Int32](repeating: Self.infinity, count: s)
        rideArrival = Array(repeating: row, count: rounds)
        rideLabel = Array(repeating: Array(repeating: Ride(), count: s), count: rounds)
        footArrival = Array(repeating: row, count: rounds)
        footFrom = Array(repeating: [Int32](repeating: -1, count: s), count: rounds)
        ready = Array(repeating: row, count: rounds)
        readyByFoot = Array(repeating: [Bool](repeating: false, count: s), count: rounds)
        bestRide = row
        bestReady = row
        firstPosition = [Int32](repeating: Int32.max, count: data.patterns.count)
    }

    /// Seconds to walk a footpath, nil when the options forbid it.
    func footpathSeconds(_ path: Timetable.Footpath) -> Int32? { Self.footpathSeconds(path, options) }

    /// Seconds to walk a footpath with these options: transfers.txt's time, else the metres at the walking
    /// speed; nil when forbidden, when walking is off, or when longer than the walking limit.
    static func footpathSeconds(_ path: Timetable.Footpath, _ options: JourneyOptions) -> Int32? {
        if let s = path.seconds, s < 0 { return nil }
        guard options.maxWalkMetres > 0, Int(path.metres) <= options.maxWalkMetres else { return nil }
        if let s = path.seconds { return s }
        return Int32(TransitWalking.seconds(metres: Int(path.metres), speed: options.walkSpeed))
    }

    /// Runs the rounds from `departure` (seconds from the date's 00:00).
    /// - Returns: The destination's improvements, one per round that improved it (fewer rides first).
    package mutating func run(departure: Int32, origins: [Access], targets: [Access]) -> [Arrival] {
        let table = data.table
        let stopCount = table.stopPackID.count
        runDeparture = departure
        for k in 0..<rounds {
            for s in 0..<stopCount {
                rideArrival[k][s] = Self.infinity
                footArrival[k][s] = Self.infinity
                footFrom[k][s] = -1
                ready[k][s] = Self.infinity
                readyByFoot[k][s] = false
            }
        }
        for s in 0..<stopCount {
            bestRide[s] = Self.infinity
            bestReady[s] = Self.infinity
        }
        var targetSeconds = [Int32](repeating: -1, count: stopCount)
        var targetIndex = [Int](repeating: -1, count: stopCount)
        for (index, target) in targets.enumerated()
        where targetSeconds[Int(target.stop)] < 0 || target.seconds < targetSeconds[Int(target.stop)] {
            targetSeconds[Int(target.stop)] = target.seconds
            targetIndex[Int(target.stop)] = index
        }
        var results: [Arrival] = []
        var targetBound = Self.infinity

        // Round 0: on foot at the origin's stops.
        var marked: [Int32] = []
        for access in origins {
            let s = Int(access.stop)
            let t = departure + access.seconds
            if t < footArrival[0][s] {
                footArrival[0][s] = t
                footFrom[0][s] = -1
                if t < bestReady[s] {
                    if ready[0][s] == Self.infinity { marked.append(access.stop) }
                    ready[0][s] = t
                    readyByFoot[0][s] = true
                    bestReady[s] = t
                }
            }
        }
        if let arrival = destination(round: 0, targets: targets, targetIndex: targetIndex, bound: targetBound) {
            results.append(arrival)
            targetBound = arrival.time
        }

        for k in 1..<rounds {
            guard !marked.isEmpty else { break }
            // Patterns through the marked stops, from their first marked position.
            var touched: [Int32] = []
            for s in marked {
                let a = Int(data.stopRouteStart[Int(s)]), b = Int(data.stopRouteStart[Int(s) + 1])
                for r in a..<b {
                    let p = Int(data.stopRoutePattern[r])
                    if firstPosition[p] == Int32.max { touched.append(Int32(p)) }
                    firstPosition[p] = min(firstPosition[p], data.stopRoutePosition[r])
                }
            }
            touched.sort()
            var improved: [Int32] = []
            for p in touched {
                let from = Int(firstPosition[Int(p)])
                firstPosition[Int(p)] = Int32.max
                scan(pattern: Int(p), from: from, round: k, bound: targetBound, improved: &improved)
            }
            improved.sort()
            // Changes: at the stop after its change time, or one footpath.
            marked = []
            for s32 in improved {
                let s = Int(s32)
                let a = rideArrival[k][s]
                let change: Int32? = {
                    guard let given = table.sameStopChange[s] else { return Int32(options.minChangeSeconds) }
                    return given < 0 ? nil : given
                }()
                if let change, a + change < bestReady[s] {
                    if ready[k][s] == Self.infinity { marked.append(s32) }
                    ready[k][s] = a + change
                    readyByFoot[k][s] = false
                    bestReady[s] = a + change
                }
                for path in table.footpaths[s] {
                    guard let seconds = footpathSeconds(path) else { continue }
                    let t = Int(path.to)
                    let w = a + seconds
                    guard w < footArrival[k][t] else { continue }
                    footArrival[k][t] = w
                    footFrom[k][t] = s32
                    if w < bestReady[t] {
                        if ready[k][t] == Self.infinity { marked.append(path.to) }
                        ready[k][t] = w
                        readyByFoot[k][t] = true
                        bestReady[t] = w
                    }
                }
            }
            if let arrival = destination(round: k, targets: targets, targetIndex: targetIndex, bound: targetBound) {
                results.append(arrival)
                targetBound = arrival.time
            }
        }
        return results
    }

    /// The best arrival at the destination in round k, if better than `bound`: ride arrivals first, then
    /// foot arrivals, each in target order; ties keep the first.
    func destination(round k: Int, targets: [Access], targetIndex: [Int], bound: Int32) -> Arrival? {
        var best: Arrival?
        var bestTime = bound
        for byFoot in [false, true] {
            for target in targets {
                let s = Int(target.stop)
                let base = byFoot ? footArrival[k][s] : rideArrival[k][s]
                guard base < Self.infinity else { continue }
                let t = base + target.seconds
                if t < bestTime {
                    bestTime = t
                    best = Arrival(round: k, stop: target.stop, byFoot: byFoot, time: t, egress: target)
                }
            }
        }
        return best
    }

    /// Scans one pattern in round k from position `from`, each service day as its own route.
    mutating func scan(pattern p: Int, from: Int, round k: Int, bound: Int32, improved: inout [Int32]) {
        let pattern = data.patterns[p]
        let n = pattern.stops.count, m = pattern.trips.count
        let tripService = data.table.tripService
        let wheelchair = options.wheelchair
        for (dayIndex, offset) in dayOffsets.enumerated() {
            let shift = Int32(offset * 86_400)
            if pattern.latest + shift < runDeparture { continue }
            let running = runs[dayIndex]
            var trip = -1
            var board = -1
            for i in from..<n {
                let s = Int(pattern.stops[i])
                let blocked = wheelchair && data.wheelchairBlockedStop[s]
                if trip >= 0 && !blocked {
                    let a = pattern.arrivals[i * m + trip] + shift
                    if a < bestRide[s] && a < bound {
                        if rideArrival[k][s] == Self.infinity { improved.append(Int32(s)) }
                        bestRide[s] = a
                        rideArrival[k][s] = a
                        rideLabel[k][s] = Ride(pattern: Int32(p), day: Int32(dayIndex), trip: Int32(trip),
                            board: Int32(board), alight: Int32(i))
                    }
                }
                guard i < n - 1 else { break }
                let r = ready[k - 1][s]
                guard r < Self.infinity, !blocked else { continue }
                if trip >= 0 && r > pattern.departures[i * m + trip] + shift { continue }
                // The earliest running trip departing at or after r.
                var lo = 0, hi = trip >= 0 ? trip + 1 : m
                let column = i * m
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if pattern.departures[column + mid] + shift < r { lo = mid + 1 } else { hi = mid }
                }
                var found = -1
                var j = lo
                let limit = trip >= 0 ? trip : m  // only trips before the current one
                while j < limit {
                    let candidate = Int(pattern.trips[j])
                    if running[Int(tripService[candidate])] && !(wheelchair && data.wheelchairBlockedTrip[candidate]) {
                        found = j
                        break
                    }
                    j += 1
                }
                if found >= 0 {  // an earlier trip (the same one keeps its first boarding)
                    trip = found
                    board = i
                }
            }
        }
    }
}
