/// Ring orientation as MVT 2.1 (§4.3.4.4) defines it: the surveyor's formula in tile coordinates, y down. An
/// exterior ring has positive area (clockwise as drawn on screen), an interior ring (a hole) negative area.
/// Stateless, thread-safe.
public enum PolygonWinding {
    /// Twice the signed area of an open ring of quantised points (the closing edge back to the first point is
    /// included): Σ (xᵢ·yᵢ₊₁ − xᵢ₊₁·yᵢ), in square tile units. Positive for an MVT exterior ring, 0 for a degenerate
    /// one. Exact: 64-bit integer arithmetic.
    /// - Parameter ring: the ring's points, not repeating the first at the end (a repeated one adds nothing).
    @inlinable
    public static func doubledArea<C: Collection>(_ ring: C) -> Int64 where C.Element == QuantizedPoint {
        guard var previous = ring.first else { return 0 }
        let first = previous
        var sum: Int64 = 0
        for p in ring.dropFirst() {
            sum += Int64(previous.x) * Int64(p.y) - Int64(p.x) * Int64(previous.y)
            previous = p
        }
        sum += Int64(previous.x) * Int64(first.y) - Int64(first.x) * Int64(previous.y)
        return sum
    }

    /// Twice the signed area of a ring in `Double` tile units, with the same sign convention as the integer form.
    /// - Parameter ring: the ring's points, closed or not.
    @inlinable
    public static func doubledArea<C: Collection>(_ ring: C) -> Double where C.Element == TilePoint {
        guard var previous = ring.first else { return 0 }
        let first = previous
        var sum = 0.0
        for p in ring.dropFirst() {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        sum += previous.x * first.y - first.x * previous.y
        return sum
    }

    /// Reverses a ring of `geometry` in place when its winding is not the one its role needs, and reports its area.
    /// - Parameters:
    ///   - range: the ring's index range in `geometry.points` (an open ring).
    ///   - exterior: true for an exterior ring (wanted positive), false for a hole (wanted negative).
    ///   - geometry: holds the ring.
    /// - Returns: the ring's doubled area after the fix (its sign then matches the role), or 0 for a ring without
    ///   area, which is left as it was.
    @discardableResult
    public static func orient(
        _ range: Range<Int>, exterior: Bool, in geometry: inout ContiguousArray<QuantizedPoint>
    ) -> Int64 {
        let area = doubledArea(geometry[range])
        if area == 0 { return 0 }
        if (area > 0) != exterior {
            geometry[range].reverse()
            return -area
        }
        return area
    }
}
