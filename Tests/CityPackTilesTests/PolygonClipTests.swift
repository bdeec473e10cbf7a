import CityPackTiles
import Foundation
import Testing

/// Polygons clipped by ``TileGeometryBuilder/polygons(_:exteriors:)`` are valid: every case is checked by
/// ``PolygonClipTests/problems(_:)``, a brute-force O(n²) test written apart from the library's grid search.
@Suite struct PolygonClipTests {
    /// A 4096 tile with the default 64-unit buffer: −64…4160 on both axes.
    static let projection = TileProjection(tile: TileID(z: 1, x: 0, y: 0))

    static func p(_ x: Double, _ y: Double) -> TilePoint { TilePoint(x: x, y: y) }
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [TilePoint] {
        [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
    }
    static func build(_ rings: [[TilePoint]], exteriors: [Bool]? = nil, tolerance: Double = 0) -> TileGeometry? {
        var b = TileGeometryBuilder(projection: projection, tolerance: tolerance)
        return b.polygons(TileParts(rings), exteriors: exteriors ?? [true] + Array(repeating: false, count: rings.count - 1))
    }
    static func rings(_ g: TileGeometry) -> [[QuantizedPoint]] {
        (0..<g.partCount).map { Array(g.points[g.range(ofPart: $0)]) }
    }
    static func area(_ r: [QuantizedPoint]) -> Int64 { PolygonWinding.doubledArea(r) }

    // MARK: - An independent checker

    static func orient(_ a: QuantizedPoint, _ b: QuantizedPoint, _ c: QuantizedPoint) -> Int64 {
        let v = (Int64(b.x) - Int64(a.x)) * (Int64(c.y) - Int64(a.y)) - (Int64(b.y) - Int64(a.y)) * (Int64(c.x) - Int64(a.x))
        return v.signum()
    }
    static func between(_ a: QuantizedPoint, _ b: QuantizedPoint, _ c: QuantizedPoint) -> Bool {
        min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
    }
    /// Whether closed segments a–b and c–d have a point in common.
    static func meet(_ a: QuantizedPoint, _ b: QuantizedPoint, _ c: QuantizedPoint, _ d: QuantizedPoint) -> Bool {
        let o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b)
        if o1 * o2 < 0 && o3 * o4 < 0 { return true }
        return (o1 == 0 && between(a, b, c)) || (o2 == 0 && between(a, b, d))
            || (o3 == 0 && between(c, d, a)) || (o4 == 0 && between(c, d, b))
    }

    /// What is wrong with a polygon geometry, by brute force: rings of 3+ distinct points with area, exteriors
    /// positive and holes negative, every ring simple (non-neighbouring segments share no point, neighbours do not
    /// fold back), rings of one polygon meeting only at shared corners, all points in the buffered tile.
    static func problems(_ g: TileGeometry) -> [String] {
        var out: [String] = []
        let rs = rings(g)
        guard let first = rs.first else { return [] }
        if area(first) <= 0 { out.append("first ring not an exterior") }
        for (k, r) in rs.enumerated() {
            let n = r.count
            if n < 3 || area(r) == 0 { out.append("ring \(k): degenerate"); continue }
            if Set(r.map { [$0.x, $0.y] }).count != n { out.append("ring \(k): a point repeated") }
            if !r.allSatisfy({ (-64...4160).contains($0.x) && (-64...4160).contains($0.y) }) { out.append("ring \(k): out of range") }
            for i in 0..<n {
                let a = r[i], b = r[(i + 1) % n], c = r[(i + 2) % n]
                if orient(a, b, c) == 0, (Int64(a.x - b.x) * Int64(c.x - b.x) + Int64(a.y - b.y) * Int64(c.y - b.y)) > 0 {
                    out.append("ring \(k): folds back at \(b)")
                }
                for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                    if meet(a, b, r[j], r[(j + 1) % n]) { out.append("ring \(k): segments \(i) and \(j) meet") }
                }
            }
        }
        // Rings of one polygon (an exterior and the holes after it) may touch only at a corner of both.
        var start = 0
        while start < rs.count {
            var end = start + 1
            while end < rs.count && area(rs[end]) < 0 { end += 1 }
            for u in start..<end {
                for v in (u + 1)..<max(u + 1, end) {
                    let r = rs[u], s = rs[v]
                    for i in 0..<r.count {
                        for j in 0..<s.count {
                            let a = r[i], b = r[(i + 1) % r.count], c = s[j], d = s[(j + 1) % s.count]
                            guard meet(a, b, c, d) else { continue }
                            let corner = [c, d].contains(a) || [c, d].contains(b)
                            if !corner || (orient(a, b, c) == 0 && orient(a, b, d) == 0) {
                                out.append("rings \(u) and \(v) cross")
                            }
                        }
                    }
                }
            }
            start = end
        }
        return out
    }

    // MARK: - Cases

    @Test func uShapeLeavingAndReenteringThroughOneEdgeGivesTwoPolygons() throws {
        // Arms reaching into the tile from the east, joined beyond the buffer.
        let u = [Self.p(3000, 100), Self.p(6000, 100), Self.p(6000, 900), Self.p(3000, 900), Self.p(3000, 700),
                 Self.p(5000, 700), Self.p(5000, 300), Self.p(3000, 300)]
        let g = try #require(Self.build([u]))
        #expect(Self.problems(g).isEmpty, "\(Self.problems(g))")
        let rs = Self.rings(g)
        #expect(rs.count == 2 && rs.allSatisfy { Self.area($0) > 0 })
        let arm: Int64 = 2 * 1160 * 200
        #expect(rs.map { Self.area($0) } == [arm, arm])
    }

    @Test func holeCrossingTheEdgeBecomesANotch() throws {
        let outer = Self.box(1000, 1000, 8000, 3000)
        let hole = Self.box(3000, 1500, 6000, 2500).reversed()
        let g = try #require(Self.build([outer, Array(hole)]))
        #expect(Self.problems(g).isEmpty, "\(Self.problems(g))")
        let rs = Self.rings(g)
        #expect(rs.count == 1)
        #expect(Self.area(rs[0]) == 2 * (3160 * 2000 - 1160 * 1000))
        #expect(rs[0].count == 8)
    }

    @Test func holeInsideIsKept() throws {
        let g = try #require(Self.build([Self.box(-1000, 1000, 8000, 3000), Self.box(1500, 1500, 2500, 2500)]))
        #expect(Self.problems(g).isEmpty, "\(Self.problems(g))")
        let rs = Self.rings(g)
        #expect(rs.count == 2 && Self.area(rs[1]) == -2 * 1000 * 1000)
        #expect(Self.area(rs[0]) == 2 * 4224 * 2000)
    }

    @Test func ringEnclosingTheTileGivesTheBufferedBox() throws {
        for tolerance in [0.0, 2.0] {
            let g = try #require(Self.build([Self.box(-9000, -9000, 9000, 9000)], tolerance: tolerance))
            #expect(Self.rings(g) == [[QuantizedPoint(x: -64, y: -64), QuantizedPoint(x: 4160, y: -64),
                                       QuantizedPoint(x: 4160, y: 4160), QuantizedPoint(x: -64, y: 4160)]])
        }
        // Enclosing hole: nothing left.
        #expect(Self.build([Self.box(-9000, -9000, 9000, 9000), Self.box(-8000, -8000, 8000, 8000)]) == nil)
    }

    @Test func ringTouchingTheOutlineAtOnePointStaysOneRing() throws {
        let triangle = [Self.p(2000, -64), Self.p(3000, 1000), Self.p(1000, 1000)]
        let g = try #require(Self.build([triangle]))
        #expect(Self.problems(g).isEmpty, "\(Self.problems(g))")
        #expect(Self.rings(g).count == 1 && Self.rings(g)[0].count == 3)
        // A hole touching the outline at one point, in a polygon covering the tile: the box with a hole touching it.
        let hole = [Self.p(2000, -64), Self.p(1000, 1000), Self.p(3000, 1000)]
        let h = try #require(Self.build([Self.box(-9000, -9000, 9000, 9000), hole]))
        #expect(Self.problems(h).isEmpty, "\(Self.problems(h))")
        #expect(Self.rings(h).map { Self.area($0) > 0 } == [true, false])
    }

    @Test func spikeIsRemoved() throws {
        // A-B-A: the ring runs out to (3000, 500) and straight back.
        let ring = [Self.p(100, 100), Self.p(1000, 100), Self.p(3000, 500), Self.p(1000, 100), Self.p(1000, 1000), Self.p(100, 1000)]
        let g = try #require(Self.build([ring]))
        #expect(Self.problems(g).isEmpty, "\(Self.problems(g))")
        #expect(Self.rings(g)[0].count == 4)
        #expect(!g.points.contains(QuantizedPoint(x: 3000, y: 500)))
    }

    @Test func bowTieNeverGivesAnInvalidPolygon() {
        let inside = [Self.p(100, 100), Self.p(1000, 1000), Self.p(1000, 100), Self.p(100, 1000)]
        let across = [Self.p(-1000, 100), Self.p(6000, 3000), Self.p(6000, 100), Self.p(-1000, 3000)]
        for ring in [inside, across] {
            for tolerance in [0.0, 3.0] {
                if let g = Self.build([ring], tolerance: tolerance) {
                    #expect(Self.problems(g).isEmpty, "\(Self.problems(g))")
                }
            }
        }
    }

    @Test func degenerateInputDoesNotCrash() {
        #expect(Self.build([[Self.p(10, 10)]]) == nil)
        #expect(Self.build([[Self.p(10, 10), Self.p(10, 10), Self.p(10, 10), Self.p(10, 10)]]) == nil)
        #expect(Self.build([[]]) == nil)
        // Every point on the outline: the buffered box itself, and a flat run back and forth along one edge.
        let onEdges = [Self.p(-64, -64), Self.p(2000, -64), Self.p(4160, -64), Self.p(4160, 4160), Self.p(-64, 4160)]
        let g = Self.build([onEdges])
        #expect(g.map { Self.rings($0).count } == 1)
        #expect(Self.build([[Self.p(-64, -64), Self.p(2000, -64), Self.p(1000, -64)]]) == nil)
        // Repeated points and NaN.
        let repeated = [Self.p(100, 100), Self.p(100, 100), Self.p(900, 100), Self.p(900, 100), Self.p(900, 900), Self.p(100, 900)]
        #expect(Self.build([repeated]).map { Self.rings($0)[0].count } == 4)
        _ = Self.build([[Self.p(.nan, 1), Self.p(5, .nan), Self.p(100, 100), Self.p(-9000, 50)]])
    }

    @Test func ringOf100000PointsAcrossTheTileIsValid() throws {
        let n = 100_000
        let ring = (0..<n).map { i -> TilePoint in
            let a = Double(i) / Double(n) * 2 * .pi
            let r = 2600 * (1 + 0.3 * sin(a * 25))
            return Self.p(2048 + r * cos(a), 2048 + r * sin(a))
        }
        for tolerance in [0.0, 1.0] {
            // Its 25 lobes leave and re-enter through every edge; the middle holds them together: one polygon.
            let g = try #require(Self.build([ring], tolerance: tolerance))
            let rs = Self.rings(g)
            let boxArea: Int64 = 2 * 4224 * 4224
            #expect(rs.count == 1)
            #expect(Self.area(rs[0]) > 0 && Self.area(rs[0]) < boxArea)
            #expect(rs[0].contains { $0.x == -64 } && rs[0].contains { $0.y == 4160 })
            // The brute-force check is O(n²): on the simplified ring only.
            if tolerance > 0 { #expect(Self.problems(g).isEmpty, "\(Self.problems(g))") }
        }
    }
}
