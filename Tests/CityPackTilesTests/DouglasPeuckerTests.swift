import CityPackTiles
import Foundation
import Testing

/// ``DouglasPeucker``: collinear runs, tolerances, closed rings and very long inputs.
@Suite struct DouglasPeuckerTests {
    @Test func collinearLineOf1000PointsBecomesTwo() {
        let line = ContiguousArray((0..<1000).map { TilePoint(x: Double($0) * 3, y: Double($0) * 2) })
        var dp = DouglasPeucker()
        var out = ContiguousArray<TilePoint>()
        #expect(dp.simplify(line[...], tolerance: 0.5, appendingTo: &out) == 2)
        #expect(Array(out) == [line[0], line[999]])
    }

    @Test func keepsPointsBeyondTheTolerance() {
        let line = [TilePoint(x: 0, y: 0), TilePoint(x: 50, y: 3), TilePoint(x: 100, y: 0), TilePoint(x: 150, y: 0.5),
                    TilePoint(x: 200, y: 0)]
        var dp = DouglasPeucker()
        var out = ContiguousArray<TilePoint>()
        dp.simplify(line[...], tolerance: 1, appendingTo: &out)
        #expect(Array(out) == [line[0], line[1], line[2], line[4]])
        out.removeAll()
        dp.simplify(line[...], tolerance: 5, appendingTo: &out)
        #expect(Array(out) == [line[0], line[4]])
        out.removeAll()
        dp.simplify(line[...], tolerance: 0, appendingTo: &out)
        #expect(Array(out) == line)
    }

    @Test func closedRingKeepsItsClosure() {
        // A square with many points on its sides: its four corners and the closing point remain.
        var ring: [TilePoint] = []
        for i in 0..<100 { ring.append(TilePoint(x: Double(i), y: 0)) }
        for i in 0..<100 { ring.append(TilePoint(x: 100, y: Double(i))) }
        for i in 0..<100 { ring.append(TilePoint(x: Double(100 - i), y: 100)) }
        for i in 0..<100 { ring.append(TilePoint(x: 0, y: Double(100 - i))) }
        ring.append(ring[0])
        var dp = DouglasPeucker()
        var out = ContiguousArray<TilePoint>()
        dp.simplify(ring[...], tolerance: 1, appendingTo: &out)
        #expect(Array(out) == [TilePoint(x: 0, y: 0), TilePoint(x: 100, y: 0), TilePoint(x: 100, y: 100),
                               TilePoint(x: 0, y: 100), TilePoint(x: 0, y: 0)])
    }

    @Test func ringOf100kPointsIsStackSafe() {
        // A circle of 100 000 points: the recursion depth a recursive version would need is not the point, the
        // worst case is; a spiral-free circle still exercises a long explicit stack.
        let n = 100_000
        var ring = (0..<n).map { i -> TilePoint in
            let a = Double(i) / Double(n) * 2 * .pi
            return TilePoint(x: 2048 + 2000 * cos(a), y: 2048 + 2000 * sin(a))
        }
        ring.append(ring[0])
        var dp = DouglasPeucker()
        var out = ContiguousArray<TilePoint>()
        let kept = dp.simplify(ring[...], tolerance: 1, appendingTo: &out)
        #expect(kept > 30 && kept < 200)
        #expect(out.first == out.last)
    }

    @Test func zigzagWorstCaseIsStackSafe() {
        // Every point 10 units off its neighbours' chord: all are kept, and the first of equally far points is
        // split at each time, so a recursive version would nest about 100 000 calls deep.
        let n = 100_000
        let line = (0..<n).map { i in TilePoint(x: Double(i), y: i % 2 == 0 ? 0 : 10) }
        var dp = DouglasPeucker()
        var out = ContiguousArray<TilePoint>()
        #expect(dp.simplify(line[...], tolerance: 1, appendingTo: &out) == n)
        #expect(Array(out) == line)
    }
}
