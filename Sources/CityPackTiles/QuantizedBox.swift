/// The clip box in integer tile units: the largest integer box inside a ``TileClipBox`` (edges rounded inwards,
/// limited to ±2³⁰ so that every cross product of two differences fits in `Int64`).
///
/// Clipped polygon pieces are joined along its outline once they are quantised, where equality is exact. The
/// outline is walked in the direction MVT exterior rings take (positive area by the surveyor's formula in tile
/// coordinates, y down): west to east along the north edge, then south along the east edge, east to west along
/// the south edge, north along the west edge. A point's place on that walk is its perimeter position, in tile
/// units from the north-west corner. A small `Sendable` value.
package struct QuantizedBox: Sendable, Hashable {
    /// West edge, integer tile units.
    package let minX: Int32
    /// North edge, integer tile units.
    package let minY: Int32
    /// East edge, integer tile units.
    package let maxX: Int32
    /// South edge, integer tile units.
    package let maxY: Int32

    /// The integer box inside `box`, or nil when that is less than one unit wide or high.
    /// - Parameter box: the clip box, tile units.
    package init?(_ box: TileClipBox) {
        let limit = Double(1 << 30)
        let x0 = Swift.max(-limit, box.minX.rounded(.up)), y0 = Swift.max(-limit, box.minY.rounded(.up))
        let x1 = Swift.min(limit, box.maxX.rounded(.down)), y1 = Swift.min(limit, box.maxY.rounded(.down))
        guard x0 < x1, y0 < y1 else { return nil }
        minX = Int32(x0)
        minY = Int32(y0)
        maxX = Int32(x1)
        maxY = Int32(y1)
    }

    /// Width, tile units.
    var width: Int64 { Int64(maxX) - Int64(minX) }
    /// Height, tile units.
    var height: Int64 { Int64(maxY) - Int64(minY) }
    /// Length of the outline, tile units.
    var perimeter: Int64 { 2 * (width + height) }

    /// A point rounded to the nearest integer (halves away from zero) and moved into the box (NaN counts as 0).
    /// - Parameter p: tile units.
    @inline(__always)
    package func quantise(_ p: TilePoint) -> QuantizedPoint {
        @inline(__always) func fit(_ v: Double, _ lo: Int32, _ hi: Int32) -> Int32 {
            let r = v.isNaN ? 0 : v.rounded()
            if r <= Double(lo) { return lo }
            if r >= Double(hi) { return hi }
            return Int32(r)
        }
        return QuantizedPoint(x: fit(p.x, minX, maxX), y: fit(p.y, minY, maxY))
    }

    /// Whether a point of the box lies on its outline.
    @inline(__always)
    package func isOnOutline(_ p: QuantizedPoint) -> Bool {
        p.x == minX || p.x == maxX || p.y == minY || p.y == maxY
    }

    /// Whether the segment a → b runs along one edge of the outline (both ends on the same edge).
    @inline(__always)
    package func runsAlongOutline(_ a: QuantizedPoint, _ b: QuantizedPoint) -> Bool {
        (a.x == b.x && (a.x == minX || a.x == maxX)) || (a.y == b.y && (a.y == minY || a.y == maxY))
    }

    /// The nearest point of the outline to a point of the box (a guard: the clipper only hands over run ends that
    /// lie on it already).
    func ontoOutline(_ p: QuantizedPoint) -> QuantizedPoint {
        if isOnOutline(p) { return p }
        let dl = Int64(p.x) - Int64(minX), dr = Int64(maxX) - Int64(p.x)
        let dt = Int64(p.y) - Int64(minY), db = Int64(maxY) - Int64(p.y)
        let m = Swift.min(dl, dr, dt, db)
        if m == dl { return QuantizedPoint(x: minX, y: p.y) }
        if m == dr { return QuantizedPoint(x: maxX, y: p.y) }
        if m == dt { return QuantizedPoint(x: p.x, y: minY) }
        return QuantizedPoint(x: p.x, y: maxY)
    }

    /// A point of the outline's perimeter position (0 at the north-west corner, growing along the walk; a corner
    /// belongs to the edge that leaves it) and the walk's direction there, one unit along an axis.
    func place(_ p: QuantizedPoint) -> (position: Int64, dx: Int64, dy: Int64) {
        if p.y == minY && p.x < maxX { return (Int64(p.x) - Int64(minX), 1, 0) }
        if p.x == maxX && p.y < maxY { return (width + Int64(p.y) - Int64(minY), 0, 1) }
        if p.y == maxY && p.x > minX { return (width + height + Int64(maxX) - Int64(p.x), -1, 0) }
        return (2 * width + height + Int64(maxY) - Int64(p.y), 0, -1)
    }

    /// Corner `k` (0 north-west, 1 north-east, 2 south-east, 3 south-west) and its perimeter position.
    func corner(_ k: Int) -> (position: Int64, point: QuantizedPoint) {
        switch k {
        case 0: (0, QuantizedPoint(x: minX, y: minY))
        case 1: (width, QuantizedPoint(x: maxX, y: minY))
        case 2: (width + height, QuantizedPoint(x: maxX, y: maxY))
        default: (2 * width + height, QuantizedPoint(x: minX, y: maxY))
        }
    }
}
