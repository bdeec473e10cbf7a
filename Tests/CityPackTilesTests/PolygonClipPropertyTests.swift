import CityPackTestSupport
import CityPackTiles
import Foundation
import Testing

/// Random simple polygons clipped to the tile: every output is valid by ``PolygonClipTests/problems(_:)`` and keeps
/// the area of (polygon ∩ box), measured by a plain Sutherland–Hodgman clip written here (its rings may run back
/// and forth along an edge, but their area is right). Speed: `citypack bench --tiles`.
@Suite struct PolygonClipPropertyTests {
    /// SplitMix64: a small seeded generator, so a failure can be replayed.
    /// A star-shaped ring around `centre` (simple: one point per angle step, radii between `lo` and `hi` × r).
    static func star(_ rng: inout SplitMix64, centre: TilePoint, r: Double, n: Int, lo: Double, hi: Double) -> [TilePoint] {
        let step = 2 * Double.pi / Double(n)
        return (0..<n).map { i in
            let a = (Double(i) + Double.random(in: -0.4...0.4, using: &rng)) * step
            let rr = r * Double.random(in: lo...hi, using: &rng)
            return TilePoint(x: centre.x + rr * cos(a), y: centre.y + rr * sin(a))
        }
    }

    /// The ring clipped by Sutherland–Hodgman against the four edges of `box`.
    static func sutherlandHodgman(_ ring: [TilePoint], _ box: TileClipBox) -> [TilePoint] {
        var pts = ring
        let edges: [(TilePoint) -> Double] = [{ $0.x - box.minX }, { box.maxX - $0.x }, { $0.y - box.minY }, { box.maxY - $0.y }]
        for inside in edges {
            guard let last = pts.last else { return [] }
            var out: [TilePoint] = []
            var s = last
            for e in pts {
                let ds = inside(s), de = inside(e)
                if (ds >= 0) != (de >= 0) {
                    let t = ds / (ds - de)
                    out.append(TilePoint(x: s.x + (e.x - s.x) * t, y: s.y + (e.y - s.y) * t))
                }
                if de >= 0 { out.append(e) }
                s = e
            }
            pts = out
        }
        return pts
    }

    static func area(_ ring: [TilePoint]) -> Double { abs(PolygonWinding.doubledArea(ring)) / 2 }
    static func perimeter(_ ring: [TilePoint]) -> Double {
        zip(ring, ring.dropFirst() + ring.prefix(1)).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
    }

    /// Random polygons (some with a hole around the same centre) over and around the tile.
    static func samples(seed: UInt64, count: Int) -> [[[TilePoint]]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let centre = TilePoint(x: Double.random(in: -2500...6500, using: &rng), y: Double.random(in: -2500...6500, using: &rng))
            let r = Double.random(in: 200...6000, using: &rng)
            let n = Int.random(in: 16...400, using: &rng)
            if Bool.random(using: &rng) {
                return [star(&rng, centre: centre, r: r, n: n, lo: 0.15, hi: 1)]
            }
            return [star(&rng, centre: centre, r: r, n: n, lo: 0.6, hi: 1),
                    star(&rng, centre: centre, r: r, n: Int.random(in: 16...100, using: &rng), lo: 0.1, hi: 0.5).reversed()]
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomPolygonsClipValidWithTheRightArea(seed: UInt64) {
        let box = PolygonClipTests.projection.clipBox
        var kept = 0
        for rings in Self.samples(seed: seed, count: 150) {
            let geometry = PolygonClipTests.build(rings)
            let clippedRings = rings.map { Self.sutherlandHodgman($0, box) }
            let expected = Self.area(clippedRings[0]) - (clippedRings.count > 1 ? Self.area(clippedRings[1]) : 0)
            let slack = clippedRings.reduce(0) { $0 + Self.perimeter($1) } + 8
            guard let geometry else {
                #expect(expected < slack, "seed \(seed): nothing left of \(expected) square units")
                continue
            }
            kept += 1
            let problems = PolygonClipTests.problems(geometry)
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
            let got = Double(PolygonClipTests.rings(geometry).reduce(Int64(0)) { $0 + PolygonClipTests.area($1) }) / 2
            #expect(abs(got - expected) <= slack, "seed \(seed): area \(got), expected \(expected)")
        }
        #expect(kept > 50)
    }

    @Test func simplifiedRandomPolygonsAreValidToo() {
        for rings in Self.samples(seed: 99, count: 200) {
            for tolerance in [1.0, 8.0] {
                if let g = PolygonClipTests.build(rings, tolerance: tolerance) {
                    let problems = PolygonClipTests.problems(g)
                    #expect(problems.isEmpty, "tolerance \(tolerance): \(problems.prefix(3))")
                }
            }
        }
    }
}
