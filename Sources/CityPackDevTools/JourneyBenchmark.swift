import CityPackKit
import Dispatch
import Foundation

/// `citypack bench --journeys`' figures for one pack, in milliseconds: the journey planner's earliest-arrival
/// and 60-minute range queries, the routing data's load time, and the independent connection scan
/// (``ConnectionScan``) on the same earliest-arrival queries.
package struct JourneyBenchmark: Sendable {
    package var queries: Int
    package var loadMilliseconds: Double
    package var earliestP50: Double
    package var earliestP99: Double
    package var rangeQueries: Int
    package var rangeP50: Double
    package var rangeP99: Double
    package var scanP50: Double
    package var scanP99: Double
    /// Queries where the planner and the scan gave the same earliest arrival.
    package var agreed: Int
    package var date: ServiceDate

    /// Runs the benchmark on a pack (opened twice: once to time the load, once for the queries).
    ///
    /// Queries: `queries` random (origin, destination) pairs of served stops at random times from 06:00 to
    /// 22:00 of a weekday in the middle of the feed, with ≤ 5 transfers (``JourneyOptions`` defaults); a fifth
    /// of them as 60-minute range queries. Each is timed alone with a monotonic clock. Run it on a release build.
    /// - Parameters:
    ///   - open: Opens a fresh reader of the pack.
    ///   - databasePath: The decompressed pack database (for the connection scan's SQL).
    ///   - queries: Number of earliest-arrival queries (default 500).
    package static func run(open: () throws -> PackReader, databasePath: String, queries: Int = 500) throws
        -> JourneyBenchmark
    {
        func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
        func ms(_ a: UInt64, _ b: UInt64) -> Double { Double(b - a) / 1e6 }
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        // Load time: a fresh reader, timetable and routing data.
        var loads: [Double] = []
        for _ in 0..<3 {
            let fresh = try open()
            let t0 = now()
            try fresh.transit.prepareJourneys()
            loads.append(ms(t0, now()))
            fresh.close()
        }
        let reader = try open()
        defer { reader.close() }
        try reader.transit.prepareJourneys()
        let scan = try ConnectionScan(path: databasePath)
        var day = scan.middleDate
        while ((day + 3) % 7 + 7) % 7 > 4 { day += 1 }  // a weekday (Monday = 0)
        let date = ServiceDate(String(ConnectionScan.yyyymmdd(day)))!
        let stops = try reader.transit.servedStopIDs()
        var random = SeededRandom(seed: 2015)
        var cases: [(String, String, Int)] = []
        while cases.count < max(1, queries) && stops.count > 1 {
            let a = stops[random.below(stops.count)], b = stops[random.below(stops.count)]
            if a != b { cases.append((a, b, 6 * 3600 + random.below(16 * 3600))) }
        }
        let options = JourneyOptions()
        _ = scan.connectionCount(date: day)  // build the day's connections outside the timed runs
        var earliest: [Double] = [], range: [Double] = [], scans: [Double] = []
        var agreed = 0
        for (n, (from, to, seconds)) in cases.enumerated() {
            let t0 = now()
            let journeys = try reader.transit.journeys(from: .stop(from), to: .stop(to), date: date, seconds: seconds,
                options: options)
            let t1 = now()
            let expected = scan.earliestArrival(from: from, to: to, day: day, seconds: seconds, options: options)
            let t2 = now()
            earliest.append(ms(t0, t1))
            scans.append(ms(t1, t2))
            if journeys.map(\.arrival.seconds).min() == expected { agreed += 1 }
            if n % 5 == 0 {
                let r0 = now()
                _ = try reader.transit.journeys(from: .stop(from), to: .stop(to), date: date, seconds: seconds, window: 60,
                    options: options)
                range.append(ms(r0, now()))
            }
        }
        return JourneyBenchmark(
            queries: cases.count, loadMilliseconds: percentile(loads, 0.5), earliestP50: percentile(earliest, 0.5),
            earliestP99: percentile(earliest, 0.99), rangeQueries: range.count, rangeP50: percentile(range, 0.5),
            rangeP99: percentile(range, 0.99), scanP50: percentile(scans, 0.5), scanP99: percentile(scans, 0.99),
            agreed: agreed, date: date)
    }

    /// The figures as `citypack bench --journeys` prints them.
    package var text: String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        return """
            journeys on \(date) (a weekday), \(queries) random stop pairs, 06:00–22:00, ≤ 5 transfers:
              routing data load (timetable + routing)   \(f(loadMilliseconds)) ms
              earliest arrival (Pareto set)   p50 \(f(earliestP50)) ms   p99 \(f(earliestP99)) ms
              60-minute range query (\(rangeQueries))     p50 \(f(rangeP50)) ms   p99 \(f(rangeP99)) ms
              connection scan, same queries   p50 \(f(scanP50)) ms   p99 \(f(scanP99)) ms   (ratio p50 \(f(scanP50 / max(earliestP50, 0.0001))))
              earliest arrivals agreeing with the connection scan: \(agreed)/\(queries)

            """
    }
}

/// SplitMix64, for reproducible benchmark queries.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
