/// MVT 2.1 geometry encoding (§4.3): command integers (`id | count << 3`: MoveTo 1, LineTo 2, ClosePath 7) and
/// zigzag-encoded parameter deltas from a cursor that runs across all parts of a feature. Stateless, thread-safe.
public enum GeometryCommands {
    /// MoveTo: start a new point, line or ring (parameters: dx, dy per point).
    public static let moveTo: UInt32 = 1
    /// LineTo: extend the current line or ring (parameters: dx, dy per point).
    public static let lineTo: UInt32 = 2
    /// ClosePath: close the current ring back to its first point (no parameters).
    public static let closePath: UInt32 = 7

    /// A command integer: `(id & 0x7) | (count << 3)`.
    /// - Parameters:
    ///   - id: ``moveTo``, ``lineTo`` or ``closePath``.
    ///   - count: how many times it repeats, 0…2^29 − 1.
    @inlinable
    public static func command(_ id: UInt32, count: Int) -> UInt32 {
        (id & 0x7) | (UInt32(truncatingIfNeeded: count) << 3)
    }

    /// Zigzag encoding of a signed parameter: 0, −1, 1, −2 … → 0, 1, 2, 3 … (`(n << 1) ^ (n >> 31)`).
    @inlinable
    public static func zigzag(_ n: Int32) -> UInt32 {
        UInt32(bitPattern: (n &<< 1) ^ (n >> 31))
    }

    /// The inverse of ``zigzag(_:)``.
    @inlinable
    public static func unzigzag(_ z: UInt32) -> Int32 {
        Int32(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
    }

    /// Appends the command integers of a geometry: for points one MoveTo of all points; for lines, per part a
    /// MoveTo of its first point and a LineTo of the rest; for polygons the same plus a ClosePath per ring.
    /// - Parameters:
    ///   - geometry: the geometry, assumed to have the part sizes ``TileGeometry`` describes.
    ///   - output: receives the integers (the feature's `geometry` field).
    public static func encode(_ geometry: TileGeometry, into output: inout [UInt32]) {
        var cx: Int32 = 0, cy: Int32 = 0
        output.reserveCapacity(output.count + geometry.points.count * 2 + geometry.partCount * 3)
        geometry.points.withUnsafeBufferPointer { p in
            @inline(__always) func parameters(_ range: Range<Int>) {
                for i in range {
                    let q = p[i]
                    output.append(zigzag(q.x &- cx))
                    output.append(zigzag(q.y &- cy))
                    cx = q.x
                    cy = q.y
                }
            }
            if geometry.type == .point {
                guard !p.isEmpty else { return }
                output.append(command(moveTo, count: p.count))
                parameters(0..<p.count)
                return
            }
            for part in 0..<geometry.partCount {
                let range = geometry.range(ofPart: part)
                guard !range.isEmpty else { continue }
                output.append(command(moveTo, count: 1))
                parameters(range.lowerBound..<(range.lowerBound + 1))
                if range.count > 1 {
                    output.append(command(lineTo, count: range.count - 1))
                    parameters((range.lowerBound + 1)..<range.upperBound)
                }
                if geometry.type == .polygon { output.append(command(closePath, count: 1)) }
            }
        }
    }

    /// The command integers of a geometry (see ``encode(_:into:)``).
    public static func encode(_ geometry: TileGeometry) -> [UInt32] {
        var out: [UInt32] = []
        encode(geometry, into: &out)
        return out
    }
}
