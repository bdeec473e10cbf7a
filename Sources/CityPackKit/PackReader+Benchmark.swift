import CityPackFormat
import Dispatch

/// Timings of ``PackReader/benchmarkNearby(radius:queries:limit:)``, in nanoseconds per query.
public struct NearbyBenchmark: Sendable, Codable, Hashable {
    /// Number of timed queries.
    public var queries: Int
    /// Query radius in metres.
    public var radius: Double
    /// Median of `nearby` with details already cached (the steady state of an app).
    public var medianNanoseconds: Double
    /// 90th percentile of the same runs.
    public var p90Nanoseconds: Double
    /// Median of the first (uncached) pass: index lookup plus SQL detail fetches and tag decoding.
    public var coldMedianNanoseconds: Double
    /// Median of a brute-force scan over every POI (haversine each) for the same queries, without details.
    public var bruteForceMedianNanoseconds: Double
    /// Median of the index lookup alone (cover, binary search, exact filter), without details.
    public var indexOnlyMedianNanoseconds: Double
    /// Median of a brute-force scan of the pack in SQL, as an app without the proximity buckets would do it:
    /// `SELECT id, lat, lon FROM poi` stepped row by row with the exact distance computed for each.
    public var sqlScanMedianNanoseconds: Double
    /// Mean number of results per query.
    public var meanResults: Double
}

extension PackReader {
    /// Times `nearby` the way `citypack bench` reports it: `queries` queries centred on POI positions spread evenly
    /// over the pack (in bucket order), each timed alone with a monotonic clock; the median is reported.
    ///
    /// Runs one uncached pass (cold), then timed cached passes, the index-only lookup and a brute-force scan over
    /// all POIs for comparison. Run it on a release build (`swift build -c release`); debug builds are ~10× slower.
    /// - Parameters:
    ///   - radius: Metres (default 25).
    ///   - queries: Number of query positions (default 2 000; capped at the POI count when it is smaller, and at
    ///     least 1).
    ///   - limit: Result limit passed to `nearby` (default 50).
    /// - Returns: nil for an empty pack.
    /// - Throws: What `nearby` throws.
    public func benchmarkNearby(radius: Double = 25, queries: Int = 2000, limit: Int = 50) throws(PackError)
        -> NearbyBenchmark?
    {
        let positions = queryPositions(count: queries)
        guard !positions.isEmpty else { return nil }
        var cold: [UInt64] = []
        var warm: [UInt64] = []
        var brute: [UInt64] = []
        var indexOnly: [UInt64] = []
        var results = 0
        for p in positions {
            let start = DispatchTime.now().uptimeNanoseconds
            let found = try nearby(lat: p.lat, lon: p.lon, radius: radius, limit: limit)
            cold.append(DispatchTime.now().uptimeNanoseconds - start)
            results += found.count
        }
        for _ in 0..<3 {
            for p in positions {
                let start = DispatchTime.now().uptimeNanoseconds
                let found = try nearby(lat: p.lat, lon: p.lon, radius: radius, limit: limit)
                warm.append(DispatchTime.now().uptimeNanoseconds - start)
                consume(found.count)
            }
        }
        for p in positions {
            lock.lock()
            let start = DispatchTime.now().uptimeNanoseconds
            let hits = nearestLocked(lat: p.lat, lon: p.lon, radius: radius, limit: limit)
            indexOnly.append(DispatchTime.now().uptimeNanoseconds - start)
            lock.unlock()
            consume(hits.count)
        }
        for p in positions.prefix(500) {
            lock.lock()
            let start = DispatchTime.now().uptimeNanoseconds
            let hits = bruteForceLocked(lat: p.lat, lon: p.lon, radius: radius, limit: limit)
            brute.append(DispatchTime.now().uptimeNanoseconds - start)
            lock.unlock()
            consume(hits.count)
        }
        var sqlScan: [UInt64] = []
        if let db = database, let stmt = try? db.prepare("SELECT id, lat, lon FROM \(PackSchema.Table.poi)") {
            for p in positions.prefix(200) {
                lock.lock()
                let start = DispatchTime.now().uptimeNanoseconds
                var found = 0
                stmt.reset()
                while (try? stmt.step()) == true {
                    if GreatCircle.distance(p.lat, p.lon, stmt.double(1), stmt.double(2)) <= radius { found += 1 }
                }
                sqlScan.append(DispatchTime.now().uptimeNanoseconds - start)
                lock.unlock()
                consume(found)
            }
        }
        return NearbyBenchmark(
            queries: positions.count, radius: radius, medianNanoseconds: Self.percentile(warm, 0.5),
            p90Nanoseconds: Self.percentile(warm, 0.9), coldMedianNanoseconds: Self.percentile(cold, 0.5),
            bruteForceMedianNanoseconds: Self.percentile(brute, 0.5),
            indexOnlyMedianNanoseconds: Self.percentile(indexOnly, 0.5),
            sqlScanMedianNanoseconds: Self.percentile(sqlScan, 0.5),
            meanResults: Double(results) / Double(positions.count))
    }

    /// Median nanoseconds of a cached `nearby` query; shorthand for ``benchmarkNearby(radius:queries:limit:)``.
    /// - Returns: nil for an empty pack.
    public func medianNearbyNanoseconds(radius: Double = 25, queries: Int = 2000) throws(PackError) -> Double? {
        try benchmarkNearby(radius: radius, queries: queries)?.medianNanoseconds
    }

    /// Evenly spaced POI positions from the proximity index.
    func queryPositions(count: Int) -> [(lat: Double, lon: Double)] {
        lock.lock()
        defer { lock.unlock() }
        guard !ids.isEmpty else { return [] }
        let n = max(1, min(count, ids.count))
        return (0..<n).map { k in
            let i = k * ids.count / n
            return (lats[i], lons[i])
        }
    }

    /// Keeps a result alive so the optimiser cannot drop the timed work.
    @inline(never)
    func consume(_ value: Int) {
        benchmarkSink &+= value
    }

    static func percentile(_ samples: [UInt64], _ q: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))])
    }
}
