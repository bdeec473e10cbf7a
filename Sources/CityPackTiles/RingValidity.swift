/// Exact tests and repairs on rings of quantised points (integer tile units), the last stage before a polygon is
/// encoded: cleaning (consecutive duplicates, spikes, collinear points), splitting a ring where it passes through
/// the same point twice, point-in-ring, and a search for segments that touch or cross. Every predicate is a sign
/// of an `Int64` cross product, so it is exact for coordinates within ±2³⁰ (``QuantizedBox`` keeps them there).
/// Stateless, thread-safe.
package enum RingValidity {
    /// (a − o) × (b − o): positive when o → a → b turns towards the side MVT exteriors keep their inside on.
    @inline(__always)
    package static func cross(_ o: QuantizedPoint, _ a: QuantizedPoint, _ b: QuantizedPoint) -> Int64 {
        (Int64(a.x) - Int64(o.x)) * (Int64(b.y) - Int64(o.y)) - (Int64(a.y) - Int64(o.y)) * (Int64(b.x) - Int64(o.x))
    }

    /// (a − o) · (b − o).
    @inline(__always)
    static func dot(_ o: QuantizedPoint, _ a: QuantizedPoint, _ b: QuantizedPoint) -> Int64 {
        (Int64(a.x) - Int64(o.x)) * (Int64(b.x) - Int64(o.x)) + (Int64(a.y) - Int64(o.y)) * (Int64(b.y) - Int64(o.y))
    }

    /// Appends a run of points to `out`, skipping a point equal to the one before it and removing spikes: a point
    /// where the run turns straight back on itself (A-B-A, or A-B-C with C on the line back through B). A point in
    /// the middle of a straight stretch is kept (another ring may touch it there). The run's first and last points
    /// are always kept.
    /// - Parameters:
    ///   - run: the points, integer tile units.
    ///   - out: the cleaned run is appended here; what it held before is not touched.
    package static func appendCleaned<C: Collection>(_ run: C, to out: inout ContiguousArray<QuantizedPoint>)
    where C.Element == QuantizedPoint {
        let base = out.count
        for q in run {
            if out.count > base, out[out.count - 1] == q { continue }
            while out.count - base >= 2, foldsBack(out[out.count - 2], out[out.count - 1], q) {
                out.removeLast()
            }
            if out.count > base, out[out.count - 1] == q { continue }
            out.append(q)
        }
    }

    /// Whether a → b → c turns straight back at b (c on the line a–b, on a's side of b).
    @inline(__always)
    static func foldsBack(_ a: QuantizedPoint, _ b: QuantizedPoint, _ c: QuantizedPoint) -> Bool {
        cross(a, b, c) == 0 && dot(b, a, c) > 0
    }

    /// Cleans the ring `out[base...]` as a cycle (after ``appendCleaned(_:to:)`` cleaned it as a run): removes a
    /// closing point equal to the first and the spikes around where the ring closes.
    /// - Parameters:
    ///   - out: holds the ring at its end, open or closed.
    ///   - base: the index of the ring's first point.
    /// - Returns: the ring's point count after cleaning; fewer than 3 means no area (the points are left).
    @discardableResult
    package static func closeCleaned(_ out: inout ContiguousArray<QuantizedPoint>, from base: Int) -> Int {
        var s = base, e = out.count
        while e - s >= 3 {
            if out[s] == out[e - 1] || foldsBack(out[e - 2], out[e - 1], out[s]) {
                e -= 1
            } else if foldsBack(out[e - 1], out[s], out[s + 1]) {
                s += 1
            } else {
                break
            }
        }
        out.removeSubrange(e...)
        out.removeSubrange(base..<s)
        return e - s
    }

    /// Whether a point lies inside a ring: 1 inside, 0 on its outline, −1 outside (even–odd rule, exact).
    /// - Parameters:
    ///   - p: the point, integer tile units.
    ///   - ring: an open ring.
    package static func locate(_ p: QuantizedPoint, in ring: ArraySlice<QuantizedPoint>) -> Int {
        guard var a = ring.last else { return -1 }
        var inside = false
        for b in ring {
            let c = cross(a, b, p)
            if c == 0, Swift.min(a.x, b.x) <= p.x, p.x <= Swift.max(a.x, b.x),
                Swift.min(a.y, b.y) <= p.y, p.y <= Swift.max(a.y, b.y) {
                return 0
            }
            if (a.y > p.y) != (b.y > p.y), (b.y > a.y) == (c > 0) { inside.toggle() }
            a = b
        }
        return inside ? 1 : -1
    }

    /// Whether ring `inner` lies inside ring `outer`, judged by its first point that is not on `outer`'s outline
    /// (true when every point is on it).
    package static func isInside(_ inner: ArraySlice<QuantizedPoint>, _ outer: ArraySlice<QuantizedPoint>) -> Bool {
        for p in inner {
            let where_ = locate(p, in: outer)
            if where_ != 0 { return where_ > 0 }
        }
        return true
    }

    /// Whether closed segments a–b and c–d share any point.
    @inline(__always)
    static func intersects(_ a: QuantizedPoint, _ b: QuantizedPoint, _ c: QuantizedPoint, _ d: QuantizedPoint) -> Bool {
        let o1 = cross(a, b, c).signum(), o2 = cross(a, b, d).signum()
        let o3 = cross(c, d, a).signum(), o4 = cross(c, d, b).signum()
        if o1 * o2 < 0 && o3 * o4 < 0 { return true }
        @inline(__always) func on(_ p: QuantizedPoint, _ q: QuantizedPoint, _ r: QuantizedPoint) -> Bool {
            Swift.min(p.x, q.x) <= r.x && r.x <= Swift.max(p.x, q.x) && Swift.min(p.y, q.y) <= r.y && r.y <= Swift.max(p.y, q.y)
        }
        return (o1 == 0 && on(a, b, c)) || (o2 == 0 && on(a, b, d)) || (o3 == 0 && on(c, d, a)) || (o4 == 0 && on(c, d, b))
    }

    /// Whether segments v → x and v → y, which share the point v, overlap beyond it (same direction, collinear).
    @inline(__always)
    static func overlapAt(_ v: QuantizedPoint, _ x: QuantizedPoint, _ y: QuantizedPoint) -> Bool {
        cross(v, x, y) == 0 && dot(v, x, y) > 0
    }
}
