/// The delta format: how a pack database of one data version becomes the next one's, byte for byte.
///
/// A delta file (`<city>-<from>-<to>.delta`, beside the packs) is one gzip stream (no name, no time) holding:
/// ```
/// magic        8 bytes  "CPKDELT1"
/// baseBytes    8 bytes  little-endian size of the base (decompressed SQLite database of version `from`)
/// baseSha256  32 bytes  SHA-256 of the base
/// targetBytes  8 bytes  little-endian size of the result (decompressed database of version `to`)
/// targetSha256 32 bytes SHA-256 of the result
/// ops …                 until the `end` op, which must be the stream's last byte
/// ```
/// Ops build the result front to back: `copy` (tag 1, unsigned LEB128 base offset, LEB128 length ≥ 1) appends
/// base bytes, `insert` (tag 2, LEB128 length ≥ 1, that many bytes) appends literal bytes, `end` (tag 0) stops.
/// A reader refuses any op that reads outside the base or writes past `targetBytes`, a decompressed stream longer
/// than ``maxStreamBytes(targetBytes:)``, and a result whose size or SHA-256 differs. Deltas apply to the
/// decompressed database (what an app keeps installed), never to the gzip bytes, which change wholesale after
/// the first edit.
package enum PackDelta {
    /// The first 8 bytes of a decompressed delta.
    package static let magic: [UInt8] = Array("CPKDELT1".utf8)
    /// Bytes of the header before the first op.
    package static let headerBytes = 8 + 8 + 32 + 8 + 32
    /// File suffix of a delta.
    package static let suffix = ".delta"
    /// A delta is written only when it is smaller than this fraction of the full compressed pack.
    package static let maxFractionOfPack = 0.5

    /// Op tags.
    package enum Op: UInt8, Sendable {
        case end = 0
        case copy = 1
        case insert = 2
    }

    /// The largest decompressed delta a reader accepts for a result of `targetBytes`: every inserted byte once,
    /// plus generous room for op headers. Writers never produce more (they skip such a delta).
    package static func maxStreamBytes(targetBytes: Int) -> Int { headerBytes + 2 * targetBytes + 4096 }

    /// `<city>-<from>-<to>.delta`.
    package static func fileName(city: String, from: Int, to: Int) -> String { "\(city)-\(from)-\(to)\(suffix)" }

    /// The versions of a delta file name of `city`, or nil when the name is not one.
    package static func versions(fileName name: String, city: String) -> (from: Int, to: Int)? {
        versions(fileName: name, city: city, suffix: suffix)
    }

    /// The versions of a `<city>-<from>-<to><suffix>` file name (a delta, a manifest patch), or nil when the name is
    /// not one (`from` ≥ 1, `to` > `from`).
    package static func versions(fileName name: String, city: String, suffix: String) -> (from: Int, to: Int)? {
        guard name.hasPrefix(city + "-"), name.hasSuffix(suffix) else { return nil }
        let middle = name.dropFirst(city.count + 1).dropLast(suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]), from > 0, to > from else { return nil }
        return (from, to)
    }

    /// Appends `value` as unsigned LEB128.
    package static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Appends `value` as 8 little-endian bytes.
    package static func appendUInt64(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }
}
