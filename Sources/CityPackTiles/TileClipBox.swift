/// An axis-aligned box in tile units that geometry is clipped to: usually a tile plus its buffer
/// (``TileProjection/clipBox``). Points on the box's edges are inside.
///
/// Clipping works on `Double` tile units (``TilePoint``), before quantisation, so the intersection points keep their
/// fractions until ``TileGeometryBuilder`` rounds once. Lines use Liang–Barsky per segment and split where they
/// leave and re-enter; polygon rings use Sutherland–Hodgman against the four edges. A ring whose bounding box lies
/// inside the box is copied and one whose box misses it is dropped without running either. Stateless and
/// `Sendable`; the methods allocate only their outputs (and two scratch arrays for a ring that crosses an edge).
public struct TileClipBox: Sendable, Hashable {
    /// West edge, tile units.
    public let minX: Double
    /// North edge, tile units.
    public let minY: Double
    /// East edge, tile units.
    public let maxX: Double
    /// South edge, tile units.
    public let maxY: Double

    /// A box from its edges in tile units.
    /// - Precondition: `minX ≤ maxX` and `minY ≤ maxY`.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        precondition(minX <= maxX && minY <= maxY, "empty clip box")
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Whether a point lies in the box, edges included.
    @inlinable
    public func contains(_ p: TilePoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// Appends the points that lie in the box, in order, to `output.points` as one part (closed even when empty).
    /// - Parameters:
    ///   - points: the points of a point or multi-point feature, tile units.
    ///   - output: the part of kept points is appended here.
    public func clipPoints<C: Collection>(_ points: C, into output: inout TileParts) where C.Element == TilePoint {
        for p in points where contains(p) { output.points.append(p) }
        output.closePart()
    }

    /// Appends the parts of a linestring that lie in the box: one part for each run inside, split where the line
    /// leaves the box and re-enters it; points where it crosses an edge are added on the edge.
    /// - Parameters:
    ///   - line: the linestring's points, tile units (fewer than 2 give nothing).
    ///   - output: each inside run is appended as one part.
    public func clipLine(_ line: ArraySlice<TilePoint>, into output: inout TileParts) {
        guard line.count >= 2 else { return }
        line.withUnsafeBufferPointer { p in
            let b = Bounds(p)
            if b.isInside(self) {
                output.points.append(contentsOf: p)
                output.closePart()
                return
            }
            if b.misses(self) { return }
            var open = false
            for i in 0..<(p.count - 1) {
                let a = p[i], e = p[i + 1]
                guard let (t0, t1) = segment(a, e) else {
                    if open { output.closePart(); open = false }
                    continue
                }
                if t0 > 0 || !open {
                    if open { output.closePart() }
                    output.points.append(t0 == 0 ? a : Self.lerp(a, e, t0))
                    open = true
                }
                output.points.append(t1 == 1 ? e : Self.lerp(a, e, t1))
                if t1 < 1 { output.closePart(); open = false }
            }
            if open { output.closePart() }
        }
    }

    /// Liang–Barsky: the parameter interval `t0…t1` (0…1 along a → e) of the segment inside the box, or nil.
    @inline(__always)
    func segment(_ a: TilePoint, _ e: TilePoint) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = e.x - a.x, dy = e.y - a.y
        @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 {
                if r > t1 { return false }
                if r > t0 { t0 = r }
            } else {
                if r < t0 { return false }
                if r < t1 { t1 = r }
            }
            return true
        }
        guard edge(-dx, a.x - minX), edge(dx, maxX - a.x), edge(-dy, a.y - minY), edge(dy, maxY - a.y) else {
            return nil
        }
        return (t0, t1)
    }

    /// Appends a polygon ring clipped to the box (Sutherland–Hodgman against the four edges) as one closed part
    /// (its last point repeats its first), or nothing when fewer than 3 points are left. A ring enclosing the whole
    /// box becomes the box. Stretches where the ring ran outside become runs along the box's edges; a concave ring
    /// that leaves and re-enters through the same edge can so get edges that overlap on the box's outline (in the
    /// buffer, never in the visible tile: the known limit of Sutherland–Hodgman).
    /// - Parameters:
    ///   - ring: the ring's points, tile units, closed or not.
    ///   - output: the clipped ring is appended here as one part.
    /// - Returns: whether a ring was appended.
    @discardableResult
    public func clipRing(_ ring: ArraySlice<TilePoint>, into output: inout TileParts) -> Bool {
        var n = ring.count
        if n >= 2, ring[ring.startIndex] == ring[ring.endIndex - 1] { n -= 1 }
        guard n >= 3 else { return false }
        let open = ring.prefix(n)
        let b = open.withUnsafeBufferPointer { Bounds($0) }
        if b.misses(self) { return false }
        let start = output.points.count
        if b.isInside(self) {
            output.points.append(contentsOf: open)
        } else {
            var a = ContiguousArray(open)
            var c = ContiguousArray<TilePoint>()
            c.reserveCapacity(n + 8)
            // Each pass only when the ring crosses that edge's line.
            if b.minX < minX { Self.pass(a, into: &c, edge: .left(minX)); swap(&a, &c) }
            if b.maxX > maxX { Self.pass(a, into: &c, edge: .right(maxX)); swap(&a, &c) }
            if b.minY < minY { Self.pass(a, into: &c, edge: .top(minY)); swap(&a, &c) }
            if b.maxY > maxY { Self.pass(a, into: &c, edge: .bottom(maxY)); swap(&a, &c) }
            guard a.count >= 3 else { return false }
            output.points.append(contentsOf: a)
        }
        output.points.append(output.points[start])
        output.closePart()
        return true
    }

    /// One edge of the box, as Sutherland–Hodgman clips against it, with the edge's coordinate.
    enum Edge {
        case left(Double), right(Double), top(Double), bottom(Double)

        /// Whether a point is on the kept side of the edge (the edge itself included).
        @inline(__always)
        func keeps(_ p: TilePoint) -> Bool {
            switch self {
            case .left(let v): p.x >= v
            case .right(let v): p.x <= v
            case .top(let v): p.y >= v
            case .bottom(let v): p.y <= v
            }
        }

        /// Where segment s → e crosses the edge's line (exactly on it).
        @inline(__always)
        func intersection(_ s: TilePoint, _ e: TilePoint) -> TilePoint {
            switch self {
            case .left(let v), .right(let v):
                TilePoint(x: v, y: s.y + (e.y - s.y) * (v - s.x) / (e.x - s.x))
            case .top(let v), .bottom(let v):
                TilePoint(x: s.x + (e.x - s.x) * (v - s.y) / (e.y - s.y), y: v)
            }
        }
    }

    /// One Sutherland–Hodgman pass: the cyclic ring `input` clipped to one edge, written to `output` (emptied first).
    static func pass(_ input: ContiguousArray<TilePoint>, into output: inout ContiguousArray<TilePoint>, edge: Edge) {
        output.removeAll(keepingCapacity: true)
        guard var s = input.last else { return }
        var sIn = edge.keeps(s)
        for e in input {
            let eIn = edge.keeps(e)
            if eIn {
                if !sIn { output.append(edge.intersection(s, e)) }
                output.append(e)
            } else if sIn {
                output.append(edge.intersection(s, e))
            }
            s = e
            sIn = eIn
        }
    }

    /// The point at parameter `t` along a → e.
    @inline(__always)
    static func lerp(_ a: TilePoint, _ e: TilePoint, _ t: Double) -> TilePoint {
        TilePoint(x: a.x + (e.x - a.x) * t, y: a.y + (e.y - a.y) * t)
    }

    /// The bounding box of a run of points, to skip clipping runs wholly inside or outside.
    struct Bounds {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity

        init(_ p: UnsafeBufferPointer<TilePoint>) {
            for q in p {
                if q.x < minX { minX = q.x }
                if q.x > maxX { maxX = q.x }
                if q.y < minY { minY = q.y }
                if q.y > maxY { maxY = q.y }
            }
        }

        /// Whether every point lies in the box.
        func isInside(_ box: TileClipBox) -> Bool {
            minX >= box.minX && maxX <= box.maxX && minY >= box.minY && maxY <= box.maxY
        }

        /// Whether no point or segment can touch the box.
        func misses(_ box: TileClipBox) -> Bool {
            minX > box.maxX || maxX < box.minX || minY > box.maxY || maxY < box.minY
        }
    }
}
