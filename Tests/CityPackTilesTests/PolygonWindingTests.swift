import CityPackTiles
import Testing

/// ``PolygonWinding``: MVT's sign convention (surveyor's formula, y down) and fixing rings in place.
@Suite struct PolygonWindingTests {
    static func ring(_ pts: [(Int32, Int32)]) -> ContiguousArray<QuantizedPoint> {
        ContiguousArray(pts.map { QuantizedPoint(x: $0.0, y: $0.1) })
    }

    @Test func clockwiseOnScreenIsPositive() {
        // (0,0) → (10,0) → (10,10) → (0,10): right, then down the screen: clockwise as drawn.
        #expect(PolygonWinding.doubledArea(Self.ring([(0, 0), (10, 0), (10, 10), (0, 10)])) == 200)
        #expect(PolygonWinding.doubledArea(Self.ring([(0, 0), (0, 10), (10, 10), (10, 0)])) == -200)
        #expect(PolygonWinding.doubledArea(Self.ring([(0, 0), (5, 5), (10, 10)])) == 0)
    }

    @Test func counterClockwiseExteriorIsReversed() {
        var g = Self.ring([(0, 0), (0, 10), (10, 10), (10, 0)])
        #expect(PolygonWinding.orient(0..<4, exterior: true, in: &g) == 200)
        #expect(PolygonWinding.doubledArea(g) == 200)
        #expect(Array(g) == Array(Self.ring([(10, 0), (10, 10), (0, 10), (0, 0)])))
    }

    @Test func holesComeOutNegative() {
        var g = Self.ring([(0, 0), (10, 0), (10, 10), (0, 10), (2, 2), (4, 2), (4, 4), (2, 4)])
        PolygonWinding.orient(0..<4, exterior: true, in: &g)
        #expect(PolygonWinding.orient(4..<8, exterior: false, in: &g) == -8)
        #expect(PolygonWinding.doubledArea(g[0..<4]) > 0)
        #expect(PolygonWinding.doubledArea(g[4..<8]) < 0)
    }

    @Test func doubleFormAgreesWithTheIntegerOne() {
        let pts = [TilePoint(x: 0, y: 0), TilePoint(x: 10, y: 0), TilePoint(x: 10, y: 10), TilePoint(x: 0, y: 0)]
        #expect(PolygonWinding.doubledArea(pts) == 100)
    }
}
