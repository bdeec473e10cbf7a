import CityPackGeometry
import CityPackTiles
import Foundation
import Testing

/// ``TileGeometryBuilder``: the whole chain from tile units to MVT-ready geometry.
@Suite struct TileGeometryBuilderTests {
    let projection = TileProjection(tile: TileID(z: 14, x: 8529, y: 5974))

    static func p(_ x: Double, _ y: Double) -> TilePoint { TilePoint(x: x, y: y) }
    static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, counterClockwise: Bool) -> [TilePoint] {
        let cw = [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1), p(x0, y0)]
        return counterClockwise ? cw.reversed() : cw
    }
    static func points(_ g: TileGeometry, part: Int) -> [QuantizedPoint] { Array(g.points[g.range(ofPart: part)]) }

    @Test func projectsMonacoIntoItsTile() throws {
        let q = projection.project(Coordinate(lat: 43.7384, lon: 7.4246))
        // The fractional parts of the global tile position (8529.9018, 5974.0600) times 4096.
        #expect(abs(q.x - 0.901795555556 * 4096) < 0.01)
        #expect(abs(q.y - 0.059972716703 * 4096) < 0.01)
        var parts = TileParts()
        projection.appendPart([Coordinate(lat: 43.7384, lon: 7.4246)], to: &parts)
        var b = TileGeometryBuilder(projection: projection)
        let built = b.points(parts)
        let g = try #require(built)
        #expect(g.points == [QuantizedPoint(x: 3694, y: 246)])
    }

    @Test func pointsAreClippedAndRounded() throws {
        var b = TileGeometryBuilder(projection: projection)
        let built = b.points(TileParts([[Self.p(0.4, 0.6), Self.p(-100, 5), Self.p(4159.5, 10)]]))
        let g = try #require(built)
        #expect(g.points == [QuantizedPoint(x: 0, y: 1), QuantizedPoint(x: 4160, y: 10)])
        #expect(b.points(TileParts([[Self.p(-100, 5)]])) == nil)
    }

    @Test func lineCrossingTwiceIsTwoParts() throws {
        var b = TileGeometryBuilder(projection: projection)
        let line = [Self.p(-1000, 1000), Self.p(1000, 1000), Self.p(1000, -1000), Self.p(3000, -1000),
                    Self.p(3000, 1000), Self.p(6000, 1000)]
        let built = b.lines(TileParts([line]))
        let g = try #require(built)
        #expect(g.partCount == 2)
        #expect(Self.points(g, part: 0) == [QuantizedPoint(x: -64, y: 1000), QuantizedPoint(x: 1000, y: 1000), QuantizedPoint(x: 1000, y: -64)])
    }

    @Test func straightLineOf1000PointsBecomesTwo() throws {
        var b = TileGeometryBuilder(projection: projection, tolerance: 1)
        let line = (0..<1000).map { Self.p(Double($0) * 4, 100 + Double($0) * 2) }
        let built = b.lines(TileParts([line]))
        let g = try #require(built)
        #expect(g.points == [QuantizedPoint(x: 0, y: 100), QuantizedPoint(x: 3996, y: 2098)])
    }

    @Test func duplicatesAfterRoundingAreRemovedAndShortLinesDropped() throws {
        var b = TileGeometryBuilder(projection: projection)
        let built = b.lines(TileParts([[Self.p(1, 1), Self.p(1.2, 1.3), Self.p(5, 5), Self.p(5.1, 4.9)],
                                                 [Self.p(7, 7), Self.p(7.3, 6.8)]]))
        let g = try #require(built)
        #expect(g.partCount == 1)
        #expect(g.points == [QuantizedPoint(x: 1, y: 1), QuantizedPoint(x: 5, y: 5)])
    }

    @Test func counterClockwiseExteriorComesOutPositiveAndHolesNegative() throws {
        var b = TileGeometryBuilder(projection: projection)
        let rings = TileParts([Self.square(100, 100, 1000, 1000, counterClockwise: true),
                               Self.square(200, 200, 300, 300, counterClockwise: false),
                               Self.square(2000, 2000, 3000, 3000, counterClockwise: false),
                               Self.square(2100, 2100, 2200, 2200, counterClockwise: true)])
        let built = b.polygons(rings, exteriors: [true, false, true, false])
        let g = try #require(built)
        #expect(g.partCount == 4)
        #expect(PolygonWinding.doubledArea(g.points[g.range(ofPart: 0)]) == 2 * 900 * 900)
        #expect(PolygonWinding.doubledArea(g.points[g.range(ofPart: 1)]) == -2 * 100 * 100)
        #expect(PolygonWinding.doubledArea(g.points[g.range(ofPart: 2)]) > 0)
        #expect(PolygonWinding.doubledArea(g.points[g.range(ofPart: 3)]) < 0)
        // Open rings: MVT's ClosePath closes them.
        #expect(g.range(ofPart: 0).count == 4)
    }

    @Test func polygonBiggerThanTheTileIsTheBufferedBox() throws {
        var b = TileGeometryBuilder(projection: projection, tolerance: 2)
        let built = b.polygons(TileParts([Self.square(-9000, -9000, 9000, 9000, counterClockwise: false)]),
                                        exteriors: [true])
        let g = try #require(built)
        #expect(g.partCount == 1)
        #expect(Set(g.points) == [QuantizedPoint(x: -64, y: -64), QuantizedPoint(x: 4160, y: -64),
                                  QuantizedPoint(x: 4160, y: 4160), QuantizedPoint(x: -64, y: 4160)])
        #expect(g.points.count == 4)
        #expect(PolygonWinding.doubledArea(g.points) > 0)
    }

    @Test func holeOutsideTheTileDisappears() throws {
        var b = TileGeometryBuilder(projection: projection)
        let rings = TileParts([Self.square(-9000, -9000, 9000, 9000, counterClockwise: false),
                               Self.square(6000, 6000, 7000, 7000, counterClockwise: true),
                               Self.square(1000, 1000, 2000, 2000, counterClockwise: true)])
        let built = b.polygons(rings, exteriors: [true, false, false])
        let g = try #require(built)
        #expect(g.partCount == 2)
        #expect(Set(Self.points(g, part: 1)) == [QuantizedPoint(x: 1000, y: 1000), QuantizedPoint(x: 2000, y: 1000),
                                                  QuantizedPoint(x: 2000, y: 2000), QuantizedPoint(x: 1000, y: 2000)])
    }

    @Test func holesOfADroppedExteriorGoWithIt() throws {
        var b = TileGeometryBuilder(projection: projection)
        let rings = TileParts([Self.square(6000, 6000, 9000, 9000, counterClockwise: false),
                               Self.square(6100, 6100, 6200, 6200, counterClockwise: true),
                               Self.square(10, 10, 20, 20, counterClockwise: false)])
        let built = b.polygons(rings, exteriors: [true, false, true])
        let g = try #require(built)
        #expect(g.partCount == 1)
        #expect(b.polygons(TileParts([Self.square(6000, 6000, 9000, 9000, counterClockwise: false)]), exteriors: [true]) == nil)
    }

    @Test func ringIsNeverSimplifiedBelowFourPoints() {
        // A thin sliver: Douglas–Peucker with a tolerance wider than it keeps only its two ends and the closure.
        var b = TileGeometryBuilder(projection: projection, tolerance: 5)
        let sliver = [Self.p(100, 100), Self.p(600, 101), Self.p(1100, 100), Self.p(600, 99), Self.p(100, 100)]
        #expect(b.polygons(TileParts([sliver]), exteriors: [true]) == nil)
        // Without simplification the same ring stays, with its 4 distinct points.
        b.tolerance = 0
        #expect(b.polygons(TileParts([sliver]), exteriors: [true])?.points.count == 4)
    }

    @Test func ringsWithoutAreaAfterRoundingAreDropped() {
        var b = TileGeometryBuilder(projection: projection)
        let tiny = [Self.p(10, 10), Self.p(10.2, 10.1), Self.p(10.1, 10.3), Self.p(10, 10)]
        let flat = [Self.p(10, 10), Self.p(20, 20), Self.p(30, 30), Self.p(10, 10)]
        #expect(b.polygons(TileParts([tiny]), exteriors: [true]) == nil)
        #expect(b.polygons(TileParts([flat]), exteriors: [true]) == nil)
    }

    @Test func everyOutputRingIsLongEnoughForItsType() throws {
        // A ring of 100 000 points around the tile's middle, simplified, clipped by the east edge.
        let n = 100_000
        var ring = (0..<n).map { i -> TilePoint in
            let a = Double(i) / Double(n) * 2 * .pi
            return Self.p(3000 + 1500 * cos(a), 2048 + 1500 * sin(a))
        }
        ring.append(ring[0])
        var b = TileGeometryBuilder(projection: projection, tolerance: 1)
        let built = b.polygons(TileParts([ring]), exteriors: [true])
        let g = try #require(built)
        #expect(g.partCount == 1 && g.points.count >= 3 && g.points.count < 400)
        #expect(g.points.allSatisfy { $0.x <= 4160 })
        #expect(PolygonWinding.doubledArea(g.points) > 0)
    }
}
