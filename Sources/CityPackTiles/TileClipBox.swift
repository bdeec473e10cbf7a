/// An axis-aligned box in tile units that geometry is clipped to: usually a tile plus its buffer
/// (``TileProjection/clipBox``). Points on the box's edges are inside.
///
/// Clipping works on `Double` tile units (``TilePoint``), before quantisation, so the intersection points keep their
/// fractions until ``TileGeometryBuilder`` rounds once. Lines use Liang–Barsky per segment and split where they
/// leave and re-enter. Polygon rings are cut into the runs that lie inside, each ending on the outline
/// (``clipRing(_:into:)``); ``PolygonAssembler`` joins them along the outline into valid polygons once they are
/// quantised. A ring whose bounding box lies inside the box is copied and one whose box misses it is dropped
/// without clipping. Stateless and `Sendable`; the methods allocate only their outputs.
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

    /// Clips one polygon ring to the box, keeping where it crosses the box's outline, for
    /// ``PolygonAssembler`` to join the pieces along the outline afterwards (Weiler–Atherton on a rectangle).
    ///
    /// The ring is walked from a point outside the box; each run of it inside the box (edges included) is appended
    /// to `output` as one open part that starts where the ring enters the box and ends where it leaves, both points
    /// lying exactly on an edge (snapped onto it, so rounding cannot move them off). A segment that only touches
    /// the box at one point gives nothing. A ring wholly inside the box is appended as one closed part (its first
    /// point repeated at its end). The ring's orientation is kept as given.
    /// - Parameters:
    ///   - ring: the ring's points, tile units, open (its first point not repeated at its end), at least 3.
    ///   - output: the runs or the closed ring are appended here.
    /// - Returns: what was appended.
    package func clipRing(_ ring: UnsafeBufferPointer<TilePoint>, into output: inout TileParts) -> RingClip {
        let n = ring.count
        guard n >= 3 else { return .outside }
        let b = Bounds(ring)
        if b.misses(self) { return .outside }
        if b.isInside(self) {
            output.points.append(contentsOf: ring)
            output.points.append(ring[0])
            output.closePart()
            return .inside
        }
        // Bounds not inside: some point lies outside. Start there, so no run wraps around the ring's end.
        var i = 0
        while contains(ring[i]) { i += 1 }
        var runs = 0
        var pIn = false
        var runStart = output.points.count
        for _ in 0..<n {
            let p = ring[i]
            let j = i + 1 == n ? 0 : i + 1
            let q = ring[j]
            let qIn = contains(q)
            if pIn && qIn {
                output.points.append(q)
            } else if pIn {
                // Leaves the box: p is inside, so Liang–Barsky finds t1 < 1 (0 when p lies on the edge).
                let t1 = segment(p, q)?.1 ?? 0
                output.points.append(snap(Self.lerp(p, q, t1)))
                // A run that only touched the outline at one point has no length: not kept.
                let first = output.points[runStart]
                if output.points[runStart...].contains(where: { $0 != first }) {
                    output.closePart()
                    runs += 1
                } else {
                    output.points.removeSubrange(runStart...)
                }
            } else if qIn {
                runStart = output.points.count
                let t0 = segment(p, q)?.0 ?? 1
                output.points.append(snap(t0 >= 1 ? q : Self.lerp(p, q, t0)))
                output.points.append(q)
            } else if let (t0, t1) = segment(p, q), t0 < t1 {
                // Both ends outside, the middle through the box.
                let a = snap(Self.lerp(p, q, t0)), e = snap(Self.lerp(p, q, t1))
                if a != e {
                    output.points.append(a)
                    output.points.append(e)
                    output.closePart()
                    runs += 1
                }
            }
            pIn = qIn
            i = j
        }
        return runs == 0 ? .outside : .crossing(runs: runs)
    }

    /// A point where a segment crosses the outline, put exactly on the nearest edge (and into the box), so that
    /// floating-point error cannot leave it a hair inside or outside.
    @inline(__always)
    func snap(_ p: TilePoint) -> TilePoint {
        var q = TilePoint(x: Swift.min(Swift.max(p.x, minX), maxX), y: Swift.min(Swift.max(p.y, minY), maxY))
        if q.x == minX || q.x == maxX || q.y == minY || q.y == maxY { return q }
        let dl = q.x - minX, dr = maxX - q.x, dt = q.y - minY, db = maxY - q.y
        let m = Swift.min(dl, dr, dt, db)
        if m == dl { q.x = minX } else if m == dr { q.x = maxX } else if m == dt { q.y = minY } else { q.y = maxY }
        return q
    }

    /// The box's centre, tile units: a point far from the outline, to tell whether a ring that leaves nothing
    /// inside the box encloses it.
    package var centre: TilePoint { TilePoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

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

/// What ``TileClipBox/clipRing(_:into:)`` did with a ring.
package enum RingClip: Sendable, Equatable {
    /// Nothing of the ring lies in the box: it lies outside, or it encloses the whole box.
    case outside
    /// The whole ring lies in the box: appended as one closed part.
    case inside
    /// The ring crosses the outline: `runs` open parts were appended, each from an entry to an exit point.
    case crossing(runs: Int)
}
