/// Turns a feature's geometry in `Double` tile units (``TileParts``, from ``TileProjection``) into MVT-ready
/// ``TileGeometry``: clip to the box, simplify (Douglas–Peucker, ``tolerance``), quantise (round to the nearest
/// integer, once, at the end), remove consecutive duplicate points, drop parts left without length or area, and,
/// for polygons, join the clipped pieces into valid polygons wound as MVT 2.1 says (``polygons(_:exteriors:)``).
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
    private var oriented = ContiguousArray<TilePoint>()
    private var quantised = ContiguousArray<QuantizedPoint>()
    private var assembler: PolygonAssembler?

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

    /// A polygon or multipolygon feature, made valid for MVT 2.1 and OGC: each polygon (an exterior ring and the
    /// holes after it) is clipped to the box ring by ring, keeping the points where a ring crosses the outline
    /// (``TileClipBox/clipRing(_:into:)``); each run inside is simplified with its ends fixed, a ring wholly inside
    /// as a closed ring (one simplified below 4 points, its closing point included, is dropped, an exterior with
    /// its holes); then everything is quantised and joined along the outline by ``PolygonAssembler``. A polygon
    /// may so become several (a U-shape cut across its arms gives two), a hole crossing the outline becomes a
    /// notch of its exterior, and a ring enclosing the box becomes the box.
    ///
    /// Validity is checked on the integer result (no duplicate points, spikes, rings without area, points passed
    /// twice, or segments crossing or touching). When simplification made a polygon invalid it is built again
    /// without simplification; whatever is still invalid then is dropped ring by ring (a hole, or a shell with its
    /// holes: losing a sliver is preferred to emitting a polygon renderers and GIS tools reject).
    /// - Parameters:
    ///   - input: the rings, tile units, closed or not; each exterior ring followed by its holes (holes before the
    ///     first exterior are ignored).
    ///   - exteriors: per ring of `input`, true for an exterior ring and false for a hole.
    /// - Returns: exterior rings (positive area) each followed by its holes (negative area), or nil when nothing is
    ///   left.
    public mutating func polygons(_ input: TileParts, exteriors: [Bool]) -> TileGeometry? {
        precondition(exteriors.count == input.partCount, "one role per ring")
        guard let box = QuantizedBox(clipBox) else { return nil }
        var out = TileGeometry(type: .polygon, points: [], ends: [])
        var i = 0
        while i < input.partCount {
            var j = i + 1
            while j < input.partCount && !exteriors[j] { j += 1 }
            if exteriors[i] {
                if assemble(input, rings: i..<j, box: box, tolerance: tolerance, dropInvalid: tolerance == 0)
                    || assemble(input, rings: i..<j, box: box, tolerance: 0, dropInvalid: true) {
                    assembler?.append(to: &out)
                }
            }
            i = j
        }
        return out.ends.isEmpty ? nil : out
    }

    /// Clips, simplifies and quantises one polygon's rings into ``assembler`` and assembles them.
    /// - Returns: the assembler's verdict (false: a conflict, only when `dropInvalid` is false).
    private mutating func assemble(
        _ input: TileParts, rings: Range<Int>, box: QuantizedBox, tolerance: Double, dropInvalid: Bool
    ) -> Bool {
        if assembler == nil { assembler = PolygonAssembler(box: box) }
        assembler!.reset(box: box)
        var coverage = 0
        for part in rings {
            let exterior = part == rings.lowerBound
            let ring = input.points[input.range(ofPart: part)]
            var n = ring.count
            if n >= 2, ring[ring.startIndex] == ring[ring.endIndex - 1] { n -= 1 }
            oriented.removeAll(keepingCapacity: true)
            oriented.append(contentsOf: ring.prefix(n))
            let area = oriented.withUnsafeBufferPointer(Self.doubledArea)
            guard n >= 3, area != 0, area.isFinite else {
                if exterior { break }
                continue
            }
            let pieces = assembler!.pieceCount
            // Clipped and simplified as given, reversed once quantised: the same points whichever way it runs.
            guard addClipped(box: box, tolerance: tolerance, reversed: (area > 0) != exterior) else {
                if exterior {
                    assembler!.reset(box: box)
                    coverage = 0
                    break
                }
                continue
            }
            if assembler!.pieceCount == pieces, oriented.withUnsafeBufferPointer({ Self.encloses($0, clipBox.centre) }) {
                // Nothing of it is left inside: it encloses the whole box (or it misses it).
                coverage += exterior ? 1 : -1
            }
        }
        return assembler!.assemble(coversBox: coverage > 0, dropInvalid: dropInvalid)
    }

    /// Clips ``oriented`` and hands its runs or whole ring, simplified, quantised and reversed when `reversed`,
    /// to ``assembler``.
    /// - Returns: false when a ring wholly inside the box was simplified below 4 points.
    private mutating func addClipped(box: QuantizedBox, tolerance: Double, reversed: Bool) -> Bool {
        clipped.removeAll()
        let result = oriented.withUnsafeBufferPointer { clipBox.clipRing($0, into: &clipped) }
        for k in 0..<clipped.partCount {
            var run = clipped.points[clipped.range(ofPart: k)]
            if tolerance > 0 {
                simplified.removeAll(keepingCapacity: true)
                let kept = simplifier.simplify(run, tolerance: tolerance, appendingTo: &simplified)
                if result == .inside && kept < 4 { return false }
                run = simplified[...]
            }
            quantised.removeAll(keepingCapacity: true)
            for p in run { quantised.append(box.quantise(p)) }
            if reversed { quantised.reverse() }
            if result == .inside { assembler!.addRing(quantised) } else { assembler!.addRun(quantised) }
        }
        return true
    }

    /// Twice a ring's signed area, square tile units (as ``PolygonWinding``, on a buffer: this is a hot path).
    private static func doubledArea(_ ring: UnsafeBufferPointer<TilePoint>) -> Double {
        guard var a = ring.last else { return 0 }
        var sum = 0.0
        for b in ring {
            sum += a.x * b.y - b.x * a.y
            a = b
        }
        return sum
    }

    /// Whether a point lies inside a ring (even–odd rule), tile units.
    private static func encloses(_ ring: UnsafeBufferPointer<TilePoint>, _ p: TilePoint) -> Bool {
        guard var a = ring.last else { return false }
        var inside = false
        for b in ring {
            if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) { inside.toggle() }
            a = b
        }
        return inside
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
