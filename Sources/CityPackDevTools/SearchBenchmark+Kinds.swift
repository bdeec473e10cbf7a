import CityPackFormat
import CityPackKit
import Dispatch

/// Latency per query kind for `citypack bench --search`: the questions an app asks, each timed at the same random
/// points (p50 and p95, nanoseconds).
extension SearchBenchmark {
    /// One kind's figures.
    package struct Kind: Sendable, Hashable {
        package var kind: String
        package var queries: Int
        package var p50Nanoseconds: Double
        package var p95Nanoseconds: Double
    }

    /// `count` random points in the pack's box (the whole world without one), from a fixed seed.
    static func randomPoints(_ reader: PackReader, count: Int, seed start: UInt64) -> [Coordinate] {
        let box = (reader.meta.values[PackSchema.MetaKey.bbox] ?? "").split(separator: ",").compactMap { Double($0) }
        let (minLon, minLat, maxLon, maxLat) = box.count == 4 ? (box[0], box[1], box[2], box[3]) : (-180, -90, 180, 90)
        var seed = start
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in Coordinate(lat: minLat + next() * (maxLat - minLat), lon: minLon + next() * (maxLon - minLon)) }
    }

    /// Times category search near a point (`toilet`), name search near a point (a word of a place's name, its
    /// first three letters as a prefix), nearby by category (500 m, `restaurant`), nearby (100 m) and places in a
    /// box of ±0.005° around the point, at `points` random points of the pack's box (a fixed seed).
    /// - Throws: What the reader throws.
    package static func kinds(_ reader: PackReader, points: Int = 300) throws(PackError) -> [Kind] {
        let at = randomPoints(reader, count: points, seed: 0x3295)
        let index = reader.proximityIndex
        var names: [String] = []
        // Places spread over the index (a fixed stride), for their names.
        for i in 0..<points where index.count > 0 {
            let id = index.ids[(i * 7919) % index.count]
            let word = (try reader.place(id: id)?.name ?? "").split(whereSeparator: { !$0.isLetter }).first.map(String.init) ?? "a"
            names.append(word)
        }
        func time(_ kind: String, _ body: (Int, Coordinate) throws(PackError) -> Void) throws(PackError) -> Kind {
            var times: [UInt64] = []
            for (i, point) in at.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                try body(i, point)
                times.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            times.sort()
            func q(_ f: Double) -> Double { times.isEmpty ? 0 : Double(times[min(times.count - 1, Int(Double(times.count) * f))]) }
            return Kind(kind: kind, queries: times.count, p50Nanoseconds: q(0.5), p95Nanoseconds: q(0.95))
        }
        return [
            try time("search category near") { _, p throws(PackError) in _ = try reader.search("toilet", near: p) },
            try time("search name near") { i, p throws(PackError) in _ = try reader.search(names.isEmpty ? "a" : names[i % names.count], near: p) },
            try time("search prefix near") { i, p throws(PackError) in
                _ = try reader.search(String((names.isEmpty ? "a" : names[i % names.count]).prefix(3)), near: p)
            },
            try time("nearby 100 m") { _, p throws(PackError) in _ = try reader.nearby(lat: p.lat, lon: p.lon, radius: 100) },
            try time("nearby category 500 m") { _, p throws(PackError) in
                _ = try reader.nearby(lat: p.lat, lon: p.lon, radius: 500, category: "restaurant")
            },
            try time("places in box") { _, p throws(PackError) in
                _ = try reader.places(in: BoundingBox(minLon: p.lon - 0.005, minLat: p.lat - 0.005, maxLon: p.lon + 0.005, maxLat: p.lat + 0.005))
            },
        ]
    }
}
