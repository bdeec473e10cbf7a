import CityPackFormat
import CityPackKit
import CityPackSQLite
import CityPackStorage
import Dispatch

/// `citypack bench`'s nearby-query figures for one pack, in nanoseconds per query: how fast an app's `nearby` is,
/// next to the same question answered without the proximity index.
package struct NearbyBenchmark: Sendable, Codable, Hashable {
    /// Number of timed queries.
    package var queries: Int
    /// Query radius in metres.
    package var radius: Double
    /// Median of `nearby` with details already cached (the steady state of an app).
    package var medianNanoseconds: Double
    /// 90th percentile of the same runs.
    package var p90Nanoseconds: Double
    /// Median of the first (uncached) pass: index lookup plus SQL detail fetches and tag decoding.
    package var coldMedianNanoseconds: Double
    /// Median of ``CityPackFormat/ProximityIndex/bruteForce(lat:lon:radius:limit:)`` over every POI and stop for
    /// the same queries, without details.
    package var bruteForceMedianNanoseconds: Double
    /// Median of the index lookup alone (``CityPackFormat/ProximityIndex/within(lat:lon:radius:limit:)``), without
    /// details.
    package var indexOnlyMedianNanoseconds: Double
    /// Median of a brute-force scan of the pack in SQL, as an app without the proximity buckets would do it:
    /// `SELECT id, lat, lon FROM poi` stepped row by row with the exact distance computed for each.
    package var sqlScanMedianNanoseconds: Double
    /// Mean number of results per query.
    package var meanResults: Double

    /// Times `nearby` on an open pack: `queries` queries centred on indexed positions spread evenly over the pack
    /// (in index order), each timed alone with a monotonic clock.
    ///
    /// Runs one uncached pass (cold), three cached passes, the index-only lookup, a brute-force scan of the index
    /// (first 500 positions) and a SQL scan of `poi` (first 200 positions, on a second read-only connection). Run
    /// it on a release build (`swift build -c release`); debug builds are ~10× slower.
    /// - Parameters:
    ///   - reader: The pack.
    ///   - radius: Metres (default 25).
    ///   - queries: Number of query positions (default 2 000; capped at the number of indexed places, at least 1).
    ///   - limit: Result limit passed to `nearby` (default 50).
    /// - Returns: nil for an empty pack.
    /// - Throws: What `nearby` throws.
    package static func measure(_ reader: PackReader, radius: Double = 25, queries: Int = 2000, limit: Int = 50)
        throws(PackError) -> NearbyBenchmark?
    {
        let index = reader.proximityIndex
        guard index.count > 0 else { return nil }
        let n = max(1, min(queries, index.count))
        let positions = (0..<n).map { k in (lat: index.lats[k * index.count / n], lon: index.lons[k * index.count / n]) }
        let sink = Sink()
        var cold: [UInt64] = []
        var results = 0
        for p in positions {
            let start = DispatchTime.now().uptimeNanoseconds
            let found = try reader.nearby(lat: p.lat, lon: p.lon, radius: radius, limit: limit)
            cold.append(DispatchTime.now().uptimeNanoseconds - start)
            results += found.count
        }
        var warm: [UInt64] = []
        for _ in 0..<3 {
            for p in positions {
                let start = DispatchTime.now().uptimeNanoseconds
                let found = try reader.nearby(lat: p.lat, lon: p.lon, radius: radius, limit: limit)
                warm.append(DispatchTime.now().uptimeNanoseconds - start)
                sink.consume(found.count)
            }
        }
        let indexOnly = positions.map { p in
            time(sink) { index.within(lat: p.lat, lon: p.lon, radius: radius, limit: limit).count }
        }
        let brute = positions.prefix(500).map { p in
            time(sink) { index.bruteForce(lat: p.lat, lon: p.lon, radius: radius, limit: limit).count }
        }
        var sqlScan: [UInt64] = []
        if let db = try? SQLiteDatabase<PackError>(path: reader.databasePath, mode: .readOnly),
            let stmt = try? db.prepare(
                "SELECT \(PackSchema.POI.id), \(PackSchema.degreesSQL("\(PackSchema.POI.lat)")), "
                    + "\(PackSchema.degreesSQL("\(PackSchema.POI.lon)")) FROM \(PackSchema.POI.table)")
        {
            sqlScan = positions.prefix(200).map { p in
                time(sink) {
                    var found = 0
                    stmt.reset()
                    while (try? stmt.step()) == true {
                        if GreatCircle.distance(p.lat, p.lon, stmt.double(1), stmt.double(2)) <= radius { found += 1 }
                    }
                    return found
                }
            }
        }
        return NearbyBenchmark(
            queries: positions.count, radius: radius, medianNanoseconds: percentile(warm, 0.5),
            p90Nanoseconds: percentile(warm, 0.9), coldMedianNanoseconds: percentile(cold, 0.5),
            bruteForceMedianNanoseconds: percentile(brute, 0.5), indexOnlyMedianNanoseconds: percentile(indexOnly, 0.5),
            sqlScanMedianNanoseconds: percentile(sqlScan, 0.5), meanResults: Double(results) / Double(positions.count))
    }

    /// Nanoseconds of one run of `work`, whose result goes to `sink` so it cannot be optimised away.
    private static func time(_ sink: Sink, _ work: () -> Int) -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = work()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        sink.consume(result)
        return elapsed
    }

    /// The `q` quantile of samples (nearest rank), 0 when there are none.
    package static func percentile(_ samples: [UInt64], _ q: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))])
    }

    /// Keeps timed results alive so the optimiser cannot drop the timed work.
    private final class Sink {
        private(set) var total = 0
        @inline(never) func consume(_ value: Int) { total &+= value }
    }
}
