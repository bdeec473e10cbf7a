import CityPackTiles
import Testing

/// ``TileClipBox``: points, lines split where they leave and re-enter, rings cut into the runs inside.
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

    /// Runs `clipRing` on an array.
    func clip(_ ring: [TilePoint], into out: inout TileParts) -> RingClip {
        ring.withUnsafeBufferPointer { box.clipRing($0, into: &out) }
    }

    @Test func ringEnclosingTheBoxLeavesNothingInside() {
        var out = TileParts()
        let ring = [Self.p(-5000, -5000), Self.p(9000, -5000), Self.p(9000, 9000), Self.p(-5000, 9000)]
        #expect(clip(ring, into: &out) == .outside)
        #expect(out.partCount == 0)
    }

    @Test func ringInsideIsCopiedClosed() {
        var out = TileParts()
        let ring = [Self.p(100, 100), Self.p(200, 100), Self.p(200, 200)]
        #expect(clip(ring, into: &out) == .inside)
        #expect(Array(out.part(0)) == ring + [ring[0]])
    }

    @Test func ringCrossingOneEdgeGivesOneRunBetweenItsCrossings() {
        var out = TileParts()
        let ring = [Self.p(100, 100), Self.p(5000, 100), Self.p(5000, 200), Self.p(100, 200)]
        #expect(clip(ring, into: &out) == .crossing(runs: 1))
        // From where it enters (east edge, y 200) to where it leaves (east edge, y 100).
        #expect(Array(out.part(0)) == [Self.p(4160, 200), Self.p(100, 200), Self.p(100, 100), Self.p(4160, 100)])
    }

    @Test func uShapeThroughOneEdgeGivesTwoRuns() {
        var out = TileParts()
        // Two arms reaching into the tile from the east, joined outside it.
        let ring = [Self.p(3000, 100), Self.p(6000, 100), Self.p(6000, 900), Self.p(3000, 900), Self.p(3000, 700),
                    Self.p(5000, 700), Self.p(5000, 300), Self.p(3000, 300)]
        #expect(clip(ring, into: &out) == .crossing(runs: 2))
        #expect(out.points.allSatisfy { $0.x <= 4160 })
        for k in 0..<2 {
            #expect(out.part(k).first!.x == 4160 && out.part(k).last!.x == 4160)
        }
    }

    @Test func crossingPointsLieExactlyOnTheEdge() {
        var out = TileParts()
        let ring = [Self.p(-100.3, 17.1), Self.p(333.7, -91.9), Self.p(1000.1, 2000.7)]
        _ = clip(ring, into: &out)
        for k in 0..<out.partCount {
            for q in [out.part(k).first!, out.part(k).last!] {
                #expect(q.x == -64 || q.x == 4160 || q.y == -64 || q.y == 4160)
            }
        }
    }

    @Test func ringOutsideOrDegenerateGivesNothing() {
        var out = TileParts()
        #expect(clip([Self.p(5000, 5000), Self.p(6000, 5000), Self.p(6000, 6000)], into: &out) == .outside)
        #expect(clip([Self.p(1, 1), Self.p(2, 2)], into: &out) == .outside)
        // A triangle whose bounding box overlaps the tile but which lies wholly beyond its corner.
        #expect(clip([Self.p(-1000, 3000), Self.p(-100, 5000), Self.p(-1000, 5000)], into: &out) == .outside)
        // Touching the box at one corner only.
        #expect(clip([Self.p(-64, -64), Self.p(-100, -200), Self.p(-200, -100)], into: &out) == .outside)
        #expect(out.partCount == 0)
    }
}
