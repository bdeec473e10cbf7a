/// Turns a feature's geometry in `Double` tile units (``TileParts``, from ``TileProjection``) into MVT-ready
/// ``TileGeometry``: clip to the box, simplify (Douglas–Peucker, ``tolerance``), quantise (round to the nearest
/// integer, once, at the end), remove consecutive duplicate points, drop parts left without length or area, and wind
/// polygon rings as MVT 2.1 says.
///
/// Holds reusable scratch buffers: keep one builder per thread and feed it feature after feature (it is `Sendable`
/// but not shared). Returns nil for a feature with nothing left to draw.
public struct TileGeometryBuilder: Sendable {
    /// The box geometry is clipped to (the tile plus its buffer), tile units.
    public var clipBox: TileClipBox
    /// Douglas–Peucker tolerance, tile units; 0 keeps every point (quantisation and duplicate removal still apply).
    /// A common choice is about 1/16 of a screen pixel of a 256-pixel tile at 4096: 1…2 units below the last zoom,
    /// 0 at the last one.
    public var tolerance: Double

    private var simplifier = DouglasPeucker()
    private var clipped = TileParts()
    private var simplified = ContiguousArray<TilePoint>()

    /// A builder for one tile's projection.
    /// - Parameters:
    ///   - projection: gives the clip box (tile plus buffer).
    ///   - tolerance: simplification tolerance in tile units (default 0: none).
    public init(projection: TileProjection, tolerance: Double = 0) {
        self.init(clipBox: projection.clipBox, tolerance: tolerance)
    }

    /// A builder clipping to any box.
    /// - Parameters:
    ///   - clipBox: tile units.
    ///   - tolerance: simplification tolerance in tile units (default 0: none).
    public init(clipBox: TileClipBox, tolerance: Double = 0) {
        self.clipBox = clipBox
        self.tolerance = tolerance
    }

    /// A point or multi-point feature: the points inside the box, quantised, in order (duplicates kept).
    /// - Parameter input: the points, tile units, in any number of parts (all are taken).
    /// - Returns: one part of points, or nil when none is inside.
    public mutating func points(_ input: TileParts) -> TileGeometry? {
        var out = TileGeometry(type: .point, points: [], ends: [])
        for p in input.points where clipBox.contains(p) { out.points.append(Self.quantise(p)) }
        guard !out.points.isEmpty else { return nil }
        out.ends.append(out.points.count)
        return out
    }

    /// A linestring or multi-linestring feature: each part clipped (split where it leaves the box), simplified,
    /// quantised and without consecutive duplicates; parts left with fewer than 2 points are dropped.
    /// - Parameter input: the lines, tile units, one part each.
    /// - Returns: the lines left, or nil when none is.
    public mutating func lines(_ input: TileParts) -> TileGeometry? {
        clipped.removeAll()
        for i in 0..<input.partCount {
            clipBox.clipLine(input.points[input.range(ofPart: i)], into: &clipped)
        }
        var out = TileGeometry(type: .lineString, points: [], ends: [])
        out.points.reserveCapacity(clipped.points.count)
        for i in 0..<clipped.partCount {
            let start = out.points.count
            appendSimplified(clipped.points[clipped.range(ofPart: i)], to: &out.points)
            if out.points.count - start >= 2 {
                out.ends.append(out.points.count)
            } else {
                out.points.removeSubrange(start...)
            }
        }
        return out.ends.isEmpty ? nil : out
    }

    /// A polygon or multipolygon feature. Each ring is clipped (Sutherland–Hodgman), simplified (a ring simplified
    /// below 4 points, its closing point included, is dropped rather than shrunk further), quantised, freed of
    /// consecutive duplicates and of its closing point (MVT closes rings itself), dropped when it has fewer than
    /// 3 points or no area, and wound for its role. An exterior ring that is dropped takes its holes with it.
    /// - Parameters:
    ///   - input: the rings, tile units, closed or not; each exterior ring followed by its holes.
    ///   - exteriors: per ring of `input`, true for an exterior ring and false for a hole; the first must be true.
    /// - Returns: exterior rings (positive area) each followed by its holes (negative area), or nil when no exterior
    ///   ring is left.
    public mutating func polygons(_ input: TileParts, exteriors: [Bool]) -> TileGeometry? {
        precondition(exteriors.count == input.partCount, "one role per ring")
        var out = TileGeometry(type: .polygon, points: [], ends: [])
        var exteriorKept = false
        for i in 0..<input.partCount {
            let exterior = exteriors[i]
            if !exterior && !exteriorKept { continue }
            let kept = appendRing(input.points[input.range(ofPart: i)], exterior: exterior, to: &out)
            if exterior { exteriorKept = kept }
        }
        return out.ends.isEmpty ? nil : out
    }

    /// Clips, simplifies, quantises and winds one ring into `out`; returns whether it was kept.
    private mutating func appendRing(_ ring: ArraySlice<TilePoint>, exterior: Bool, to out: inout TileGeometry) -> Bool {
        clipped.removeAll()
        guard clipBox.clipRing(ring, into: &clipped) else { return false }
        let start = out.points.count
        let closed = clipped.points[clipped.range(ofPart: 0)]
        if tolerance > 0 {
            simplified.removeAll(keepingCapacity: true)
            guard simplifier.simplify(closed, tolerance: tolerance, appendingTo: &simplified) >= 4 else { return false }
            Self.appendQuantised(simplified[...], to: &out.points)
        } else {
            Self.appendQuantised(closed, to: &out.points)
        }
        // Open the ring: quantisation can also have made its last points equal its first.
        while out.points.count - start > 1, out.points[out.points.count - 1] == out.points[start] {
            out.points.removeLast()
        }
        let range = start..<out.points.count
        guard range.count >= 3, PolygonWinding.orient(range, exterior: exterior, in: &out.points) != 0 else {
            out.points.removeSubrange(start...)
            return false
        }
        out.ends.append(out.points.count)
        return true
    }

    /// Simplifies a run (when ``tolerance`` > 0) and appends it quantised, without consecutive duplicates.
    private mutating func appendSimplified(_ run: ArraySlice<TilePoint>, to points: inout ContiguousArray<QuantizedPoint>) {
        if tolerance > 0 {
            simplified.removeAll(keepingCapacity: true)
            simplifier.simplify(run, tolerance: tolerance, appendingTo: &simplified)
            Self.appendQuantised(simplified[...], to: &points)
        } else {
            Self.appendQuantised(run, to: &points)
        }
    }

    /// Appends a run rounded to integer tile units, skipping a point equal to the one appended before it in the run.
    private static func appendQuantised(_ run: ArraySlice<TilePoint>, to points: inout ContiguousArray<QuantizedPoint>) {
        var previous: QuantizedPoint?
        for p in run {
            let q = quantise(p)
            if q != previous {
                points.append(q)
                previous = q
            }
        }
    }

    /// A point rounded to the nearest integer tile units (halves away from zero), clamped to the `Int32` range.
    @inline(__always)
    static func quantise(_ p: TilePoint) -> QuantizedPoint {
        QuantizedPoint(x: clampInt32(p.x.rounded()), y: clampInt32(p.y.rounded()))
    }

    /// A rounded value clamped to the `Int32` range (NaN gives 0).
    @inline(__always)
    static func clampInt32(_ v: Double) -> Int32 {
        if v >= Double(Int32.max) { return .max }
        if v <= Double(Int32.min) { return .min }
        return v.isNaN ? 0 : Int32(v)
    }
}
