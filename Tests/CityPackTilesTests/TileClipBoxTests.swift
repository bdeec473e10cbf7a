import CityPackTiles
import Testing

/// ``TileClipBox``: points, lines split where they leave and re-enter, Sutherland–Hodgman rings.
@Suite struct TileClipBoxTests {
    /// A 4096 tile with the default 64-unit buffer: −64…4160 on both axes.
    let box = TileProjection(tile: TileID(z: 1, x: 0, y: 0)).clipBox

    static func p(_ x: Double, _ y: Double) -> TilePoint { TilePoint(x: x, y: y) }

    @Test func clipBoxIsTheTilePlusItsBuffer() {
        #expect(box == TileClipBox(minX: -64, minY: -64, maxX: 4160, maxY: 4160))
        let wide = TileProjection(tile: TileID(z: 0, x: 0, y: 0), extent: 512, buffer: 8).clipBox
        #expect(wide == TileClipBox(minX: -8, minY: -8, maxX: 520, maxY: 520))
    }

    @Test func pointsOutsideAreDropped() {
        var out = TileParts()
        box.clipPoints([Self.p(0, 0), Self.p(-65, 10), Self.p(4160, 4160), Self.p(5000, 1), Self.p(2000, -64)], into: &out)
        #expect(out == TileParts([[Self.p(0, 0), Self.p(4160, 4160), Self.p(2000, -64)]]))
    }

    @Test func lineInsideIsCopied() {
        var out = TileParts()
        let line = [Self.p(10, 10), Self.p(100, 200), Self.p(4000, 4000)]
        box.clipLine(line[...], into: &out)
        #expect(out == TileParts([line]))
    }

    @Test func lineCrossingTheTileTwiceGivesTwoParts() {
        // In at the west edge, out at the north, back in from the north, out at the east.
        let line = [Self.p(-1000, 1000), Self.p(1000, 1000), Self.p(1000, -1000), Self.p(3000, -1000),
                    Self.p(3000, 1000), Self.p(6000, 1000)]
        var out = TileParts()
        box.clipLine(line[...], into: &out)
        #expect(out.partCount == 2)
        #expect(Array(out.part(0)) == [Self.p(-64, 1000), Self.p(1000, 1000), Self.p(1000, -64)])
        #expect(Array(out.part(1)) == [Self.p(3000, -64), Self.p(3000, 1000), Self.p(4160, 1000)])
    }

    @Test func segmentCrossingTheWholeBoxIsCut() {
        var out = TileParts()
        box.clipLine([Self.p(-1000, 2048), Self.p(9000, 2048)][...], into: &out)
        #expect(out == TileParts([[Self.p(-64, 2048), Self.p(4160, 2048)]]))
        // A diagonal through two corners' sides.
        out.removeAll()
        box.clipLine([Self.p(-200, -200), Self.p(5000, 5000)][...], into: &out)
        #expect(out == TileParts([[Self.p(-64, -64), Self.p(4160, 4160)]]))
    }

    @Test func lineOutsideGivesNothing() {
        var out = TileParts()
        box.clipLine([Self.p(-1000, -1000), Self.p(-500, 5000)][...], into: &out)
        // Its bounding box overlaps the tile's, but no segment enters.
        box.clipLine([Self.p(-1000, 4000), Self.p(1000, 6000), Self.p(6000, 6000)][...], into: &out)
        #expect(out.partCount == 0 && out.points.isEmpty)
    }

    @Test func polygonBiggerThanTheTileBecomesTheBufferedBox() {
        var out = TileParts()
        let ring = [Self.p(-5000, -5000), Self.p(9000, -5000), Self.p(9000, 9000), Self.p(-5000, 9000), Self.p(-5000, -5000)]
        #expect(box.clipRing(ring[...], into: &out))
        let corners = Set(out.points)
        #expect(corners == [Self.p(-64, -64), Self.p(4160, -64), Self.p(4160, 4160), Self.p(-64, 4160)])
        #expect(out.points.first == out.points.last)
    }

    @Test func ringCrossingOneEdgeIsCut() {
        var out = TileParts()
        let ring = [Self.p(100, 100), Self.p(5000, 100), Self.p(5000, 200), Self.p(100, 200)]  // not closed
        #expect(box.clipRing(ring[...], into: &out))
        #expect(Array(out.part(0)) == [Self.p(100, 100), Self.p(4160, 100), Self.p(4160, 200), Self.p(100, 200), Self.p(100, 100)])
    }

    @Test func ringOutsideOrDegenerateIsDropped() {
        var out = TileParts()
        #expect(!box.clipRing([Self.p(5000, 5000), Self.p(6000, 5000), Self.p(6000, 6000), Self.p(5000, 5000)][...], into: &out))
        #expect(!box.clipRing([Self.p(1, 1), Self.p(2, 2), Self.p(1, 1)][...], into: &out))
        // A triangle whose bounding box overlaps the tile but which lies wholly beyond its corner.
        #expect(!box.clipRing([Self.p(-1000, 3000), Self.p(-100, 5000), Self.p(-1000, 5000)][...], into: &out))
        #expect(out.partCount == 0)
    }
}
