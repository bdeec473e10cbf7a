import CityPackFormat
import CityPackTestSupport
import Foundation
import Testing

/// Ids within the radius by measuring every point, nearest first, ties by id: what the index must answer.
private func bruteForce(_ points: [ProximityIndex.Point], lat: Double, lon: Double, radius: Double) -> [Int64] {
    points.compactMap { p -> (Double, Int64)? in
        let d = GreatCircle.distance(lat, lon, p.lat, p.lon)
        return d <= radius ? (d, p.id) : nil
    }
    .sorted { $0 < $1 }
    .map(\.1)
}

/// The ids of an answer, after checking it is sorted by (distance, id).
private func ids(_ matches: [ProximityIndex.Match]) -> [Int64] {
    for (a, b) in zip(matches, matches.dropFirst()) { #expect((a.distance, a.id) < (b.distance, b.id)) }
    return matches.map(\.id)
}

private func wrap(_ lon: Double) -> Double {
    lon > 180 ? lon - 360 : (lon < -180 ? lon + 360 : lon)
}

/// Query scenarios: cluster centres chosen to stress cell edges, the antimeridian and high latitudes.
private let scenarios: [(name: String, lat: Double, lon: Double)] = [
    ("city", 48.8566, 2.3522),
    ("equator-prime-meridian", 0, 0),
    ("antimeridian-east", -16.5, 179.9999),
    ("antimeridian-west", 64.2, -179.99995),
    ("north", 89.99, 45),
    ("south", -89.99, -120),
    ("high-latitude-antimeridian", 78.2, 180),
    ("cell-corner", -90 + 1000 * 180 / 1_048_576.0, -180 + 700_000 * 360 / 1_048_576.0),
]

@Suite struct ProximityIndexTests {
    /// Points around a centre: uniform up to ~6 km, plus points snapped onto precision-8 grid lines.
    private func cluster(lat: Double, lon: Double, count: Int, rng: inout SplitMix64) -> [ProximityIndex.Point] {
        let size = Geohash.cellSize(precision: 8)
        let metresPerDegree = GreatCircle.earthRadius * Double.pi / 180
        let cosLat = max(cos(lat * Double.pi / 180), 1e-4)
        var out: [ProximityIndex.Point] = []
        for id in 0..<count {
            let reach = [30.0, 300, 6000][id % 3]
            var pLat = lat + Double.random(in: -reach...reach, using: &rng) / metresPerDegree
            var pLon = lon + Double.random(in: -reach...reach, using: &rng) / (metresPerDegree * cosLat)
            if id % 5 == 0 { pLat = -90 + (((pLat + 90) / size.lat).rounded()) * size.lat }
            if id % 7 == 0 { pLon = -180 + (((pLon + 180) / size.lon).rounded()) * size.lon }
            pLat = min(90, max(-90, pLat))
            out.append(ProximityIndex.Point(id: Int64(id) * 4 + Int64(id % 3), lat: pLat, lon: wrap(pLon)))
        }
        return out
    }

    @Test(arguments: scenarios.indices)
    func withinMatchesBruteForce(scenario: Int) {
        let s = scenarios[scenario]
        var rng = SplitMix64(seed: 100 + UInt64(scenario))
        let points = cluster(lat: s.lat, lon: s.lon, count: 1500, rng: &rng)
        let index = ProximityIndex(points)
        #expect(index.count == points.count)
        var nonEmpty = 0
        for q in 0..<400 {
            // Centres near the cluster, some exactly on a point; radii log-uniform 1 m … 5 km.
            let base = points[Int.random(in: 0..<points.count, using: &rng)]
            let onPoint = q % 4 == 0
            let qLat = onPoint ? base.lat : min(90, max(-90, base.lat + Double.random(in: -0.0005...0.0005, using: &rng)))
            let qLon = onPoint ? base.lon : wrap(base.lon + Double.random(in: -0.0005...0.0005, using: &rng))
            let radius = exp(Double.random(in: 0...log(5000), using: &rng))
            let expected = bruteForce(points, lat: qLat, lon: qLon, radius: radius)
            let got = index.within(lat: qLat, lon: qLon, radius: radius)
            #expect(ids(got) == expected, "\(s.name) query \(q) at \(qLat),\(qLon) r=\(radius)")
            #expect(index.bruteForce(lat: qLat, lon: qLon, radius: radius) == got)
            #expect(ids(index.within(lat: qLat, lon: qLon, radius: radius, limit: 3)) == Array(expected.prefix(3)))
            if !expected.isEmpty { nonEmpty += 1 }
            for m in got { #expect(m.distance <= radius) }
        }
        #expect(nonEmpty >= 200)
    }

    @Test(arguments: scenarios.indices)
    func exactBoundaryDistancesAreIncluded(scenario: Int) {
        let s = scenarios[scenario]
        var rng = SplitMix64(seed: 200 + UInt64(scenario))
        let points = cluster(lat: s.lat, lon: s.lon, count: 600, rng: &rng)
        let index = ProximityIndex(points)
        for _ in 0..<300 {
            let a = points[Int.random(in: 0..<points.count, using: &rng)]
            let b = points[Int.random(in: 0..<points.count, using: &rng)]
            let radius = GreatCircle.distance(a.lat, a.lon, b.lat, b.lon)
            guard radius <= 20_000 else { continue }
            let got = ids(index.within(lat: a.lat, lon: a.lon, radius: radius))
            #expect(got.contains(b.id))
            #expect(got == bruteForce(points, lat: a.lat, lon: a.lon, radius: radius))
            // A hair less than the distance excludes it (unless another point coincides).
            let tighter = ids(index.within(lat: a.lat, lon: a.lon, radius: radius.nextDown))
            #expect(tighter == bruteForce(points, lat: a.lat, lon: a.lon, radius: radius.nextDown))
        }
    }

    @Test func pointsAcrossTheAntimeridianAreFound() {
        let points = [(10, 179.99995, 1), (10, -179.99995, 2), (10, 180, 3), (10, -180, 4), (10, 179.9, 5)].map {
            ProximityIndex.Point(id: Int64($0.2), lat: $0.0, lon: $0.1)
        }
        let index = ProximityIndex(points)
        #expect(index.within(lat: 10, lon: 179.99999, radius: 20).map(\.id).sorted() == [1, 2, 3, 4])
        #expect(index.within(lat: 10, lon: -179.99999, radius: 20).map(\.id).sorted() == [1, 2, 3, 4])
    }

    @Test func invalidPointsAndQueriesMatchNothing() {
        let index = ProximityIndex([
            ProximityIndex.Point(id: 1, lat: .nan, lon: 0), ProximityIndex.Point(id: 2, lat: 91, lon: 0),
            ProximityIndex.Point(id: 3, lat: 1, lon: 1),
        ])
        #expect(index.count == 1)
        #expect(index.within(lat: 1, lon: 1, radius: -1).isEmpty)
        #expect(index.within(lat: .nan, lon: 1, radius: 10).isEmpty)
        #expect(index.within(lat: 1, lon: 1, radius: 0).map(\.id) == [3])
        #expect(index.within(lat: 1, lon: 1, radius: 10, limit: 0).isEmpty)
    }

    /// The writer stores the buckets in index order: by cell, then by id; the reader loads them back unchanged.
    @Test func rowsAreSortedByCellThenIDAndRoundTrip() {
        var rng = SplitMix64(seed: 7)
        var points: [ProximityIndex.Point] = []
        for i in 0..<500 {
            // Few distinct positions, so many points share a cell and the id decides.
            let lat = 48.85 + Double(Int.random(in: 0..<20, using: &rng)) * 0.0001
            let lon = 2.35 + Double(Int.random(in: 0..<20, using: &rng)) * 0.0001
            points.append(ProximityIndex.Point(id: Int64.random(in: 1...1_000_000, using: &rng) * 4 + Int64(i % 3), lat: lat, lon: lon))
        }
        let index = ProximityIndex(points.shuffled(using: &rng))
        #expect(index.count == points.count)
        for i in 0..<index.count {
            #expect(index.cells[i] == Geohash.cell(lat: index.lats[i], lon: index.lons[i], precision: PackSchema.bucketPrecision))
        }
        for i in 1..<index.count {
            #expect((index.cells[i - 1], index.ids[i - 1]) < (index.cells[i], index.ids[i]))
        }
        #expect(Set(index.ids) == Set(points.map(\.id)))
        let loaded = ProximityIndex(cells: index.cells, ids: index.ids, lats: index.lats, lons: index.lons)
        #expect(loaded.cells == index.cells && loaded.ids == index.ids && loaded.lats == index.lats)
        // Rows in another order are put back in (cell, id) order.
        let order = Array(0..<index.count).shuffled(using: &rng)
        let shuffled = ProximityIndex(
            cells: order.map { index.cells[$0] }, ids: order.map { index.ids[$0] }, lats: order.map { index.lats[$0] },
            lons: order.map { index.lons[$0] })
        #expect(shuffled.ids == index.ids && shuffled.lons == index.lons)
    }
}
