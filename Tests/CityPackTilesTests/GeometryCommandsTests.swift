import CityPackTiles
import Testing

/// ``GeometryCommands`` against the examples of the MVT 2.1 spec (README §4.3.5) and zigzag's definition.
@Suite struct GeometryCommandsTests {
    @Test func specPoint() {
        // §4.3.5.1: a point at (25, 17).
        let g = TileGeometry(type: .point, parts: [[(25, 17)]])
        #expect(GeometryCommands.encode(g) == [9, 50, 34])
    }

    @Test func specMultiPoint() {
        // §4.3.5.2: (5, 7) and (3, 2).
        let g = TileGeometry(type: .point, parts: [[(5, 7), (3, 2)]])
        #expect(GeometryCommands.encode(g) == [17, 10, 14, 3, 9])
    }

    @Test func specLineString() {
        // §4.3.5.3: (2,2) (2,10) (10,10).
        let g = TileGeometry(type: .lineString, parts: [[(2, 2), (2, 10), (10, 10)]])
        #expect(GeometryCommands.encode(g) == [9, 4, 4, 18, 0, 16, 16, 0])
    }

    @Test func specMultiLineString() {
        // §4.3.5.4: the cursor carries over from the first line to the second.
        let g = TileGeometry(type: .lineString, parts: [[(2, 2), (2, 10), (10, 10)], [(1, 1), (3, 5)]])
        #expect(GeometryCommands.encode(g) == [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8])
    }

    @Test func specPolygon() {
        // §4.3.5.5: (3,6) (8,12) (20,34), closed by ClosePath.
        let g = TileGeometry(type: .polygon, parts: [[(3, 6), (8, 12), (20, 34)]])
        #expect(GeometryCommands.encode(g) == [9, 6, 12, 18, 10, 12, 24, 44, 15])
        #expect(PolygonWinding.doubledArea(g.points) > 0)
    }

    @Test func specMultiPolygon() {
        // §4.3.5.6: two exteriors, the second with a hole.
        let g = TileGeometry(type: .polygon, parts: [
            [(0, 0), (10, 0), (10, 10), (0, 10)],
            [(11, 11), (20, 11), (20, 20), (11, 20)],
            [(13, 13), (13, 17), (17, 17), (17, 13)],
        ])
        #expect(GeometryCommands.encode(g) == [
            9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15,
            9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
            9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15,
        ])
        #expect(PolygonWinding.doubledArea(g.points[g.range(ofPart: 0)]) > 0)
        #expect(PolygonWinding.doubledArea(g.points[g.range(ofPart: 2)]) < 0)
    }

    @Test(arguments: [(Int32(0), UInt32(0)), (-1, 1), (1, 2), (-2, 3), (2, 4), (Int32.max, UInt32.max - 1), (Int32.min, UInt32.max)])
    func zigzag(_ n: Int32, _ z: UInt32) {
        #expect(GeometryCommands.zigzag(n) == z)
        #expect(GeometryCommands.unzigzag(z) == n)
    }

    @Test func commandIntegers() {
        #expect(GeometryCommands.command(GeometryCommands.moveTo, count: 1) == 9)
        #expect(GeometryCommands.command(GeometryCommands.lineTo, count: 3) == 26)
        #expect(GeometryCommands.command(GeometryCommands.closePath, count: 1) == 15)
    }
}
