/// Douglas–Peucker simplification in tile units, iterative (an explicit stack on the heap, so a ring of 100 000
/// points cannot overflow the thread's stack).
///
/// A point is kept when it lies farther than the tolerance from the segment between the points kept around it;
/// the first and last points are always kept, so a closed ring stays closed (its first split is at the point
/// farthest from its start). Distances are to the segment, not its infinite line. A value holding scratch buffers
/// that are reused from call to call: keep one per thread (it is `Sendable` but not shared).
public struct DouglasPeucker: Sendable {
    /// Per point of the current run: kept or not.
    private var keep: [Bool] = []
    /// Index pairs still to examine.
    private var stack: [(Int, Int)] = []

    /// A simplifier with empty scratch buffers.
    public init() {}

    /// Appends the kept points of a run, in order, to `output`.
    /// - Parameters:
    ///   - points: a linestring, or a closed ring (last point equal to its first), tile units.
    ///   - tolerance: tile units; a point nearer than this to its simplified segment is removed. 0 or less copies
    ///     the run unchanged.
    ///   - output: the kept points are appended here.
    /// - Returns: how many points were appended (all of them for runs of up to 2 points).
    @discardableResult
    public mutating func simplify(
        _ points: ArraySlice<TilePoint>, tolerance: Double, appendingTo output: inout ContiguousArray<TilePoint>
    ) -> Int {
        let n = points.count
        guard tolerance > 0, n > 2 else {
            output.append(contentsOf: points)
            return n
        }
        let tol2 = tolerance * tolerance
        keep.removeAll(keepingCapacity: true)
        keep.append(contentsOf: repeatElement(false, count: n))
        keep[0] = true
        keep[n - 1] = true
        stack.removeAll(keepingCapacity: true)
        stack.append((0, n - 1))
        return points.withUnsafeBufferPointer { p in
            while let (s, e) = stack.popLast() {
                guard e > s + 1 else { continue }
                let a = p[s], b = p[e]
                let dx = b.x - a.x, dy = b.y - a.y
                let len2 = dx * dx + dy * dy
                var farthest = -1.0
                var index = s
                for i in (s + 1)..<e {
                    let q = p[i]
                    var px = q.x - a.x, py = q.y - a.y
                    if len2 > 0 {
                        let t = Swift.min(1, Swift.max(0, (px * dx + py * dy) / len2))
                        px -= t * dx
                        py -= t * dy
                    }
                    let d2 = px * px + py * py
                    if d2 > farthest {
                        farthest = d2
                        index = i
                    }
                }
                if farthest > tol2 {
                    keep[index] = true
                    stack.append((s, index))
                    stack.append((index, e))
                }
            }
            var kept = 0
            for i in 0..<n where keep[i] {
                output.append(p[i])
                kept += 1
            }
            return kept
        }
    }
}
