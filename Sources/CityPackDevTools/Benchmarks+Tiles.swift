import CityPackGeometry
import CityPackTiles
import Foundation

/// `citypack bench --tiles`: the vector-tile core (CityPackTiles) on synthetic geometry, in points per second, each
/// step timed alone and the median of ``Benchmarks/runs`` runs printed: projection, line clipping,
/// Douglas–Peucker, the whole line and polygon builders, and encoding. The shapes are made to be hard: a
/// million-point line that leaves and re-enters a z10 tile forty times, a million-point wobbling ring around it,
/// a 100 000-point ring that crosses every edge of its tile 25 times, and 2 000 star-shaped polygons with holes
/// scattered over the tile and its buffer.
extension Benchmarks {
    package func tiles() {
        let n = 1_000_000
        let center = Coordinate(lat: 43.7384, lon: 7.4246)
        let tile = TileID(containing: center, zoom: 10)
        let projection = TileProjection(tile: tile)
        let box = tile.bounds
        let latSpan = box.maxLat - box.minLat, lonSpan = box.maxLon - box.minLon

        // A line sweeping west to east across three tiles' width, swinging north and south out of the tile.
        let line = (0..<n).map { i -> Coordinate in
            let t = Double(i) / Double(n)
            return Coordinate(lat: box.minLat + latSpan * (0.5 + 0.8 * sin(t * 40)), lon: box.minLon - 0.5 * lonSpan + 2 * lonSpan * t)
        }
        // A ring around the tile, wobbling in and out of it.
        let ring = (0..<n).map { i -> Coordinate in
            let a = Double(i) / Double(n) * 2 * .pi
            let r = 0.6 * (1 + 0.2 * sin(a * 60))
            return Coordinate(lat: box.centerLat + latSpan * r * sin(a), lon: box.centerLon + lonSpan * r * cos(a))
        }
        // In tile units: a 100 000-point ring crossing each edge of the tile and a set of polygons with holes.
        let wavy = (0..<100_000).map { i -> TilePoint in
            let a = Double(i) / 100_000 * 2 * .pi
            let r = 2600 * (1 + 0.3 * sin(a * 25))
            return TilePoint(x: 2048 + r * cos(a), y: 2048 + r * sin(a))
        }
        var random = SeededRandom(seed: 7)
        let polygons: [[[TilePoint]]] = (0..<2000).map { _ in
            let cx = random.unit() * 4400 - 152, cy = random.unit() * 4400 - 152, radius = 50 + random.unit() * 900
            let count = 8 + Int(random.unit() * 120)
            func star(_ scale: Double, clockwise: Bool) -> [TilePoint] {
                var points = (0..<count).map { k -> TilePoint in
                    let a = Double(k) / Double(count) * 2 * .pi
                    let r = radius * scale * (0.5 + 0.5 * random.unit())
                    return TilePoint(x: cx + r * cos(a), y: cy + r * sin(a))
                }
                if clockwise { points.reverse() }
                points.append(points[0])
                return points
            }
            return random.unit() < 0.5 ? [star(1, clockwise: false)] : [star(1, clockwise: false), star(0.3, clockwise: true)]
        }
        let polygonPoints = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }

        let clock = ContinuousClock()
        /// The median of `runs` timings of `body`, as points per second of `points`.
        func rate(_ points: Int, _ body: () -> Int) -> (text: String, result: Int) {
            var seconds: [Double] = []
            var result = 0
            for _ in 0..<max(1, runs) {
                let d = clock.measure { result = body() }
                seconds.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
            let median = seconds.sorted()[seconds.count / 2]
            return (String(format: "%6.1f M points/s (%7.1f ms)", Double(points) / median / 1e6, median * 1000), result)
        }

        var projected = TileParts()
        let project = rate(n) {
            projected.removeAll()
            projection.appendPart(line, to: &projected)
            return projected.points.count
        }
        var clipped = TileParts()
        let clip = rate(n) {
            clipped.removeAll()
            projection.clipBox.clipLine(projected.points[...], into: &clipped)
            return clipped.partCount
        }
        var simplifier = DouglasPeucker()
        var simplified = ContiguousArray<TilePoint>()
        let simplify = rate(n) {
            simplified.removeAll(keepingCapacity: true)
            return simplifier.simplify(projected.points[...], tolerance: 1, appendingTo: &simplified)
        }
        var builder = TileGeometryBuilder(projection: projection, tolerance: 1)
        var lineGeometry: TileGeometry?
        let lines = rate(n) {
            lineGeometry = builder.lines(projected)
            return lineGeometry?.points.count ?? 0
        }
        var ringParts = TileParts()
        projection.appendPart(ring, to: &ringParts)
        let ringRate = rate(n) { builder.polygons(ringParts, exteriors: [true])?.points.count ?? 0 }
        builder.tolerance = 0
        let wavyParts = TileParts([wavy])
        let wavyRate = rate(wavy.count) { builder.polygons(wavyParts, exteriors: [true])?.points.count ?? 0 }
        let polygonParts = polygons.map { TileParts($0) }
        let polygonExteriors = polygons.map { [true] + Array(repeating: false, count: $0.count - 1) }
        let polygonRate = rate(polygonPoints) {
            var kept = 0
            for (parts, exteriors) in zip(polygonParts, polygonExteriors) {
                kept += builder.polygons(parts, exteriors: exteriors)?.points.count ?? 0
            }
            return kept
        }
        // Encoding: the 2 000 clipped polygons as one layer of one tile.
        let geometries = zip(polygonParts, polygonExteriors).compactMap { builder.polygons($0, exteriors: $1) }
        let encodedPoints = geometries.reduce(0) { $0 + $1.points.count }
        var bytes = 0
        let encode = rate(encodedPoints) {
            var layer = TileLayer(name: "landcover")
            for (i, geometry) in geometries.enumerated() {
                _ = layer.addFeature(id: UInt64(i + 1), geometry: geometry, tags: [("class", i % 3 == 0 ? "wood" : "grass")])
            }
            var encoder = VectorTileEncoder()
            _ = encoder.addLayer(layer)
            bytes = encoder.encode().count
            return bytes
        }
        output.out("""
            CityPackTiles on tile \(tile) (z\(tile.z)), median of \(max(1, runs)) runs
            step                                   rate                              result
            project 1 000 000 lon/lat to the tile  \(project.text)  \(project.result) points
            clip the line (Liang–Barsky)           \(clip.text)  \(clip.result) parts
            Douglas–Peucker, tolerance 1           \(simplify.text)  \(simplify.result) points
            builder.lines, tolerance 1             \(lines.text)  \(lines.result) points
            builder.polygons, wobbling ring, tol 1 \(ringRate.text)  \(ringRate.result) points
            builder.polygons, 100 000-point ring   \(wavyRate.text)  \(wavyRate.result) points
            builder.polygons, 2 000 polygons       \(polygonRate.text)  \(polygonRate.result) of \(polygonPoints) points
            encode the 2 000 polygons as a tile    \(encode.text)  \(bytes) bytes

            """)
    }
}

extension SeededRandom {
    /// A number in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
