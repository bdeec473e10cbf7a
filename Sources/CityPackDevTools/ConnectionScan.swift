import CityPackKit
import CityPackSQLite
import CityPackStorage

/// An independent earliest-arrival search for checking the journey planner (``CityPackKit``'s RAPTOR): a
/// connection scan (Dibbelt, Pätzold, Strasser, Wagner: "Connection Scan Algorithm") over a pack read with
/// plain SQL, its pattern BLOBs decoded here. It shares no code with the router and follows the model
/// `RaptorSearch` documents: off a vehicle one changes after the stop's change time or walks one footpath; on
/// foot one boards at once; service days from D − ⌊latest / 86 400⌋ to D + 1. Used by `JourneyAgreementTests`
/// and `citypack bench --journeys`. Not thread-safe (a per-date connection cache).
package final class ConnectionScan {
    struct Footpath {
        var to: Int
        var metres: Int
        var seconds: Int?
    }

    struct Connection {
        var from: Int
        var to: Int
        var departure: Int
        var arrival: Int
        var trip: Int
        var position: Int
    }

    /// Trip (pack id) → service (pack id); service → calendar; service → exceptions.
    var tripService: [Int64: Int64] = [:]
    var calendar: [Int64: (start: Int, end: Int, days: Int)] = [:]
    var exceptions: [Int64: [Int: Int]] = [:]
    /// Patterns decoded: stops (indices), trips (pack ids), arrivals/departures trip-major, frequency flag.
    var patterns: [(stops: [Int], trips: [Int64], arrivals: [Int], departures: [Int], frequency: Bool)] = []
    var windows: [Int64: [(start: Int, end: Int, headway: Int)]] = [:]
    var stopIndex: [Int64: Int] = [:]
    var code: [String] = []
    var byCode: [String: [Int]] = [:]
    var children: [Int: [Int]] = [:]
    var footpaths: [[Footpath]] = []
    var change: [Int?] = []
    var changeForbidden: [Bool] = []
    package var servedCodes: [String] = []
    package var middleDate = 0
    var latest = 0
    private var cache: [Int: [Connection]] = [:]
    /// Trip instances (a trip on one service day, or one run of a frequency trip) per query day.
    private var tripInstances: [Int: Int] = [:]

    package init(path: String) throws {
        let db = try SQLiteDatabase<ScanFailure>(path: path, mode: .readOnly)
        defer { db.close() }
        // Empty tables a pack leaves out (format 5) read as empty.
        try PackTables.addStandIns(in: db, formatVersion: Int32(try db.scalarInt("PRAGMA user_version")))
        let stops = try db.prepare("SELECT id, stop_id, parent FROM stop ORDER BY id")
        var parents: [(Int, Int64)] = []
        while try stops.step() {
            stopIndex[stops.int64(0)] = code.count
            if !stops.isNull(2) { parents.append((code.count, stops.int64(2))) }
            byCode[stops.text(1) ?? "", default: []].append(code.count)
            code.append(stops.text(1) ?? "")
        }
        for (child, parent) in parents { children[stopIndex[parent]!, default: []].append(child) }
        let trips = try db.prepare("SELECT id, service FROM trip")
        while try trips.step() { tripService[trips.int64(0)] = trips.int64(1) }
        let services = try db.prepare("SELECT id, start_date, end_date, days FROM service WHERE days IS NOT NULL")
        var starts: [Int] = []
        while try services.step() {
            calendar[services.int64(0)] = (Int(services.int64(1)), Int(services.int64(2)), Int(services.int64(3)))
            starts.append(Self.dayNumber(Int(services.int64(1))))
            starts.append(Self.dayNumber(Int(services.int64(2))))
        }
        let dates = try db.prepare("SELECT service, date, type FROM service_date")
        while try dates.step() {
            exceptions[dates.int64(0), default: [:]][Int(dates.int64(1))] = Int(dates.int64(2))
            starts.append(Self.dayNumber(Int(dates.int64(1))))
        }
        starts.sort()
        middleDate = starts.isEmpty ? 0 : (starts.first! + starts.last!) / 2
        let rows = try db.prepare("SELECT stops, trips, times, flags FROM pattern ORDER BY id")
        var served = Set<String>()
        while try rows.step() {
            let stopIDs = Self.running(Self.varints(rows.blob(0)))
            let tripIDs = Self.running(Self.varints(rows.blob(1)))
            let numbers = Self.varints(rows.blob(2))
            let n = stopIDs.count, m = tripIDs.count
            var arrivals = [Int](repeating: 0, count: n * m), departures = arrivals
            var row = [Int](repeating: 0, count: 2 * n)
            for k in 0..<m {
                for j in 0..<(2 * n) { row[j] += Int(numbers[k * 2 * n + j]) }
                var clock = row[0] - row[1]
                for i in 0..<n {
                    if i > 0 { clock += row[2 * i] }
                    arrivals[k * n + i] = clock
                    clock += i == 0 ? row[1] : row[2 * i + 1]
                    departures[k * n + i] = clock
                }
            }
            let stopsHere = stopIDs.map { stopIndex[$0]! }
            if n >= 2 { for s in stopsHere { served.insert(code[s]) } }
            patterns.append((stopsHere, tripIDs, arrivals, departures, rows.int64(3) & 2 != 0))
        }
        servedCodes = served.sorted()
        let frequencies = try db.prepare("SELECT trip, start, end, headway FROM frequency ORDER BY trip, start")
        while try frequencies.step() {
            windows[frequencies.int64(0), default: []].append(
                (Int(frequencies.int64(1)), Int(frequencies.int64(2)), Int(frequencies.int64(3))))
        }
        footpaths = Array(repeating: [], count: code.count)
        change = Array(repeating: nil, count: code.count)
        changeForbidden = Array(repeating: false, count: code.count)
        let paths = try db.prepare("SELECT from_stop, to_stop, metres, seconds FROM footpath")
        while try paths.step() {
            let from = stopIndex[paths.int64(0)]!, to = stopIndex[paths.int64(1)]!
            let seconds = paths.isNull(3) ? nil : Int(paths.int64(3))
            if from == to {
                if seconds == -1 { changeForbidden[from] = true } else { change[from] = seconds }
            } else if seconds != -1 {
                footpaths[from].append(Footpath(to: to, metres: Int(paths.int64(2)), seconds: seconds))
            }
        }
        // The latest time of any trip (frequency trips at their last start).
        for pattern in patterns where pattern.stops.count >= 2 {
            let top = max(pattern.arrivals.max() ?? 0, pattern.departures.max() ?? 0)
            if pattern.frequency {
                let lastStart = (windows[pattern.trips[0]] ?? []).map { w in
                    w.start + (w.end - 1 - w.start) / w.headway * w.headway
                }.max() ?? 0
                latest = max(latest, top + lastStart)
            } else {
                latest = max(latest, top)
            }
        }
    }

    func runs(_ service: Int64, day: Int) -> Bool {
        let date = Self.yyyymmdd(day)
        if let type = exceptions[service]?[date] { return type == 1 }
        guard let c = calendar[service], c.start <= date, date <= c.end else { return false }
        let weekday = ((day + 3) % 7 + 7) % 7  // 1970-01-01 was a Thursday (Monday = 0)
        return c.days & (1 << weekday) != 0
    }

    package func connectionCount(date: Int) -> Int { connections(day: date).count }

    /// Every connection of the service days D − ⌊latest / 86 400⌋ … D + 1, times from D's 00:00, by departure.
    func connections(day: Int) -> [Connection] {
        if let known = cache[day] { return known }
        var out: [Connection] = []
        var instance = 0
        for offset in -(latest / 86_400)...1 {
            let shift = offset * 86_400
            for pattern in patterns {
                let n = pattern.stops.count
                for (k, trip) in pattern.trips.enumerated() {
                    guard let service = tripService[trip], runs(service, day: day + offset) else { continue }
                    var starts = [0]
                    if pattern.frequency {
                        starts = []
                        for w in windows[trip] ?? [] where w.headway > 0 {
                            starts += Array(stride(from: w.start, to: w.end, by: w.headway))
                        }
                        starts = Array(Set(starts)).sorted()
                    }
                    for start in starts {
                        instance += 1
                        for i in 0..<(n - 1) {
                            out.append(Connection(
                                from: pattern.stops[i], to: pattern.stops[i + 1],
                                departure: pattern.departures[k * n + i] + start + shift,
                                arrival: pattern.arrivals[k * n + i + 1] + start + shift, trip: instance, position: i))
                        }
                    }
                }
            }
        }
        out.sort { ($0.departure, $0.arrival, $0.trip, $0.position) < ($1.departure, $1.arrival, $1.trip, $1.position) }
        cache[day] = out
        tripInstances[day] = instance
        return out
    }

    func walk(_ path: Footpath, _ options: JourneyOptions) -> Int? {
        guard options.maxWalkMetres > 0, path.metres <= options.maxWalkMetres else { return nil }
        return path.seconds ?? Int((Double(path.metres) / options.walkSpeed).rounded(.up))
    }

    /// Earliest arrival (seconds from the day's 00:00) at any stop of `destination`, nil when unreachable.
    package func earliestArrival(from origin: String, to destination: String, day: Int, seconds: Int, options: JourneyOptions)
        -> Int?
    {
        let big = Int.max / 4
        var ride = [Int](repeating: big, count: code.count)
        var foot = ride, ready = ride
        func expand(_ c: String) -> [Int] { (byCode[c] ?? []).flatMap { [$0] + (children[$0] ?? []) } }
        for s in expand(origin) {
            foot[s] = seconds
            ready[s] = seconds
            for path in footpaths[s] {
                guard let w = walk(path, options) else { continue }
                foot[path.to] = min(foot[path.to], seconds + w)
                ready[path.to] = min(ready[path.to], seconds + w)
            }
        }
        let targets = expand(destination)
        var best = targets.map { min(foot[$0], ride[$0]) }.min() ?? big
        let all = connections(day: day)
        var boarded = [Bool](repeating: false, count: (tripInstances[day] ?? 0) + 1)
        var lo = 0, hi = all.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if all[mid].departure < seconds { lo = mid + 1 } else { hi = mid }
        }
        for c in all[lo...] {
            if c.departure >= best { break }
            guard boarded[c.trip] || ready[c.from] <= c.departure else { continue }
            boarded[c.trip] = true
            guard c.arrival < ride[c.to] else { continue }
            ride[c.to] = c.arrival
            if !changeForbidden[c.to] { ready[c.to] = min(ready[c.to], c.arrival + (change[c.to] ?? options.minChangeSeconds)) }
            for path in footpaths[c.to] {
                guard let w = walk(path, options) else { continue }
                foot[path.to] = min(foot[path.to], c.arrival + w)
                ready[path.to] = min(ready[path.to], c.arrival + w)
            }
            best = min(best, targets.map { min(foot[$0], ride[$0]) }.min() ?? big)
        }
        return best < big ? best : nil
    }

    static func varints(_ bytes: [UInt8]) -> [Int64] {
        var out: [Int64] = []
        var value: UInt64 = 0, shift: UInt64 = 0
        for b in bytes {
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 {
                out.append(Int64(value >> 1) * ((value & 1) == 0 ? 1 : -1) - Int64(value & 1))
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return out
    }

    static func running(_ deltas: [Int64]) -> [Int64] {
        var total: Int64 = 0
        return deltas.map { total += $0; return total }
    }

    package static func dayNumber(_ yyyymmdd: Int) -> Int {
        let y = yyyymmdd / 10_000, m = yyyymmdd / 100 % 100, d = yyyymmdd % 100
        // Days from civil (proleptic Gregorian), 1970-01-01 = 0.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package static func yyyymmdd(_ day: Int) -> Int {
        // The inverse of dayNumber by search: the year, then the month (small, and independent of the router).
        var year = 1900
        while dayNumber((year + 1) * 10_000 + 101) <= day { year += 1 }
        var month = 1
        while month < 12 && dayNumber(year * 10_000 + (month + 1) * 100 + 1) <= day { month += 1 }
        return year * 10_000 + month * 100 + day - dayNumber(year * 10_000 + month * 100 + 1) + 1
    }
}

package struct ScanFailure: SQLiteFailure {
    var error: SQLiteError
    package init(_ error: SQLiteError) { self.error = error }
}
