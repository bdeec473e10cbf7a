import CityPackTestSupport
import CityPackDiagnostics
import CityPackFormat
import CityPackIndex
import CityPackModel
import Foundation
import Testing

/// The index's answer in brute-force order; also checks it is sorted by distance (ties in storage order may
/// differ from id order, e.g. for points symmetric around the centre).
private func normalised(_ matches: [GeohashIndex<Int>.Match]) -> [Int] {
    for (a, b) in zip(matches, matches.dropFirst()) { #expect(a.distance <= b.distance) }
    return matches.map { ($0.distance, $0.id) }.sorted { $0 < $1 }.map(\.1)
}

/// Brute force: every point within the radius, nearest first, ties by insertion order.
private func bruteForce(_ points: [(lat: Double, lon: Double, id: Int)], lat: Double, lon: Double, radius: Double) -> [Int] {
    points.compactMap { p -> (Double, Int)? in
        let d = GreatCircle.distance(lat, lon, p.lat, p.lon)
        return d <= radius ? (d, p.id) : nil
    }
    .sorted { $0 < $1 }
    .map(\.1)
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

@Suite struct GeohashIndexTests {
    /// Points around a centre: uniform up to ~6 km, plus points snapped onto precision-8 grid lines.
    private func cluster(lat: Double, lon: Double, count: Int, rng: inout SplitMix64) -> [(lat: Double, lon: Double, id: Int)] {
        let size = Geohash.cellSize(precision: 8)
        let metresPerDegree = GreatCircle.earthRadius * Double.pi / 180
        let cosLat = max(cos(lat * Double.pi / 180), 1e-4)
        var out: [(lat: Double, lon: Double, id: Int)] = []
        for id in 0..<count {
            let reach = [30.0, 300, 6000][id % 3]
            var pLat = lat + Double.random(in: -reach...reach, using: &rng) / metresPerDegree
            var pLon = lon + Double.random(in: -reach...reach, using: &rng) / (metresPerDegree * cosLat)
            if id % 5 == 0 { pLat = -90 + (((pLat + 90) / size.lat).rounded()) * size.lat }
            if id % 7 == 0 { pLon = -180 + (((pLon + 180) / size.lon).rounded()) * size.lon }
            pLat = min(90, max(-90, pLat))
            out.append((pLat, wrap(pLon), id))
        }
        return out
    }

    @Test(arguments: scenarios.indices)
    func withinMatchesBruteForce(scenario: Int) {
        let s = scenarios[scenario]
        var rng = SplitMix64(seed: 100 + UInt64(scenario))
        let points = cluster(lat: s.lat, lon: s.lon, count: 1500, rng: &rng)
        let index = GeohashIndex(points)
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
            #expect(normalised(got) == expected, "\(s.name) query \(q) at \(qLat),\(qLon) r=\(radius)")
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
        let index = GeohashIndex(points)
        for _ in 0..<300 {
            let a = points[Int.random(in: 0..<points.count, using: &rng)]
            let b = points[Int.random(in: 0..<points.count, using: &rng)]
            let radius = GreatCircle.distance(a.lat, a.lon, b.lat, b.lon)
            guard radius <= 20_000 else { continue }
            let got = normalised(index.within(lat: a.lat, lon: a.lon, radius: radius))
            #expect(got.contains(b.id))
            #expect(got == bruteForce(points, lat: a.lat, lon: a.lon, radius: radius))
            // A hair less than the distance excludes it (unless another point coincides).
            let tighter = normalised(index.within(lat: a.lat, lon: a.lon, radius: radius.nextDown))
            #expect(tighter == bruteForce(points, lat: a.lat, lon: a.lon, radius: radius.nextDown))
        }
    }

    @Test func pointsAcrossTheAntimeridianAreFound() {
        let points: [(lat: Double, lon: Double, id: Int)] = [(10, 179.99995, 1), (10, -179.99995, 2), (10, 180, 3), (10, -180, 4), (10, 179.9, 5)]
        let index = GeohashIndex(points)
        #expect(index.within(lat: 10, lon: 179.99999, radius: 20).map(\.id).sorted() == [1, 2, 3, 4])
        #expect(index.within(lat: 10, lon: -179.99999, radius: 20).map(\.id).sorted() == [1, 2, 3, 4])
    }

    @Test func invalidPointsAndQueriesMatchNothing() {
        let index = GeohashIndex([(lat: Double.nan, lon: 0, id: 1), (lat: 91, lon: 0, id: 2), (lat: 1, lon: 1, id: 3)])
        #expect(index.count == 1)
        #expect(index.within(lat: 1, lon: 1, radius: -1).isEmpty)
        #expect(index.within(lat: .nan, lon: 1, radius: 10).isEmpty)
        #expect(index.within(lat: 1, lon: 1, radius: 0).map(\.id) == [3])
    }

    @Test func bucketedSortsByCellThenStableID() {
        var rng = SplitMix64(seed: 7)
        var pois: [POI] = []
        for i in 0..<500 {
            // Few distinct positions, so many POIs share a cell and the stable id decides.
            let lat = 48.85 + Double(Int.random(in: 0..<20, using: &rng)) * 0.0001
            let lon = 2.35 + Double(Int.random(in: 0..<20, using: &rng)) * 0.0001
            let ref = OSMRef(OSMRef.Kind(rawValue: UInt8(i % 3))!, Int64.random(in: 1...1_000_000, using: &rng))
            pois.append(POI(ref: ref, coordinate: Coordinate(lat: lat, lon: lon), category: "cafe", name: nil,
                            localizedNames: [:], tags: [:], location: SourceLocation(file: "test.osm")))
        }
        let rows = bucketed(pois.shuffled(using: &rng))
        #expect(rows.count == pois.count)
        for r in rows { #expect(r.cell == Geohash.cell(lat: r.poi.coordinate.lat, lon: r.poi.coordinate.lon, precision: 8)) }
        for (a, b) in zip(rows, rows.dropFirst()) {
            #expect(a.cell < b.cell || (a.cell == b.cell && a.poi.ref.stableID <= b.poi.ref.stableID))
        }
        #expect(Set(rows.map(\.poi.ref)) == Set(pois.map(\.ref)))
    }
}
