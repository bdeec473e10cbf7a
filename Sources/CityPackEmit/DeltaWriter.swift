import CityPackFormat
import CityPackSupport
import Foundation

/// Computes ``CityPackFormat/PackDelta`` deltas between two pack databases: a block-matching binary diff of the
/// decompressed SQLite files (why this method: `docs/RELEASES.md`, "Deltas").
///
/// The base is cut into aligned 16-byte blocks indexed by a hash; the target is scanned with a rolling hash of
/// the same width, and every block hit is extended backwards and forwards into the longest equal run, which
/// becomes one `copy`; the bytes between copies become `insert`s. Any run of 31 or more equal bytes (at any
/// offset: SQLite moves cells when a row grows) is found. Deterministic: same inputs, same bytes. Pure.
enum DeltaWriter {
    /// Width of the hashed blocks in bytes.
    static let blockBytes = 16

    /// The decompressed delta stream (header and ops) turning `base` into `target`.
    static func ops(base: [UInt8], target: [UInt8]) -> [UInt8] {
        var out: [UInt8] = PackDelta.magic
        PackDelta.appendUInt64(UInt64(base.count), to: &out)
        out += FileDigest.sha256Bytes(of: base)
        PackDelta.appendUInt64(UInt64(target.count), to: &out)
        out += FileDigest.sha256Bytes(of: target)

        let B = blockBytes
        base.withUnsafeBufferPointer { b in
            target.withUnsafeBufferPointer { t in
                let n = t.count
                // Hash table of base blocks: offset + 1, first block wins (0 = empty).
                let blocks = b.count / B
                var bits = 10
                while (1 << bits) < blocks * 2 { bits += 1 }
                var table = [Int32](repeating: 0, count: 1 << bits)
                let shift = UInt64(64 - bits)
                var power: UInt64 = 1  // P^(B-1)
                for _ in 1..<B { power = power &* prime }
                func slot(_ h: UInt64) -> Int { Int((h &* 0x9E37_79B9_7F4A_7C15) >> shift) }
                for block in 0..<blocks {
                    let h = hash(b, block * B, B)
                    let s = slot(h)
                    if table[s] == 0 { table[s] = Int32(block * B + 1) }
                }

                var literalStart = 0
                func flushLiteral(upTo end: Int) {
                    guard end > literalStart else { return }
                    out.append(PackDelta.Op.insert.rawValue)
                    PackDelta.appendVarint(UInt64(end - literalStart), to: &out)
                    out.append(contentsOf: t[literalStart..<end])
                }
                var i = 0
                var h: UInt64 = n >= B ? hash(t, 0, B) : 0
                while blocks > 0 && i + B <= n {
                    let candidate = Int(table[slot(h)]) - 1
                    if candidate >= 0 && equal(b, candidate, t, i, B) {
                        var start = i
                        var baseStart = candidate
                        while start > literalStart && baseStart > 0 && t[start - 1] == b[baseStart - 1] {
                            start -= 1
                            baseStart -= 1
                        }
                        var end = i + B
                        var baseEnd = candidate + B
                        while end < n && baseEnd < b.count && t[end] == b[baseEnd] {
                            end += 1
                            baseEnd += 1
                        }
                        flushLiteral(upTo: start)
                        out.append(PackDelta.Op.copy.rawValue)
                        PackDelta.appendVarint(UInt64(baseStart), to: &out)
                        PackDelta.appendVarint(UInt64(end - start), to: &out)
                        i = end
                        literalStart = end
                        if i + B <= n { h = hash(t, i, B) }
                        continue
                    }
                    if i + B < n {
                        h = (h &- UInt64(t[i]) &* power) &* prime &+ UInt64(t[i + B])
                    }
                    i += 1
                }
                flushLiteral(upTo: n)
            }
        }
        out.append(PackDelta.Op.end.rawValue)
        return out
    }

    /// The delta file's bytes (``ops(base:target:)`` gzip-compressed), or nil when its decompressed stream would
    /// exceed what readers accept (``CityPackFormat/PackDelta/maxStreamBytes(targetBytes:)``).
    static func delta(base: [UInt8], target: [UInt8]) throws(EmitError) -> [UInt8]? {
        // Base offsets are indexed as Int32; a database of 2 GiB or more gets no delta (the full pack is offered).
        guard base.count < Int(Int32.max) - blockBytes else { return nil }
        let stream = ops(base: base, target: target)
        guard stream.count <= PackDelta.maxStreamBytes(targetBytes: target.count) else { return nil }
        return try Gzip.compress(bytes: stream, level: Gzip.packLevel)
    }

    private static let prime: UInt64 = 0x100_0000_01B3

    private static func hash(_ p: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> UInt64 {
        var h: UInt64 = 0
        for k in offset..<(offset + count) { h = h &* prime &+ UInt64(p[k]) }
        return h
    }

    private static func equal(
        _ a: UnsafeBufferPointer<UInt8>, _ ao: Int, _ b: UnsafeBufferPointer<UInt8>, _ bo: Int, _ count: Int
    ) -> Bool {
        memcmp(a.baseAddress! + ao, b.baseAddress! + bo, count) == 0
    }
}
