import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import Foundation

/// The build cache's binary encoding: little-endian fixed-width integers, lengths as UInt32, strings as UTF-8
/// bytes after their length, arrays of numbers copied as one block (a GTFS feed's ~10^5–10^6 stop_times rows are
/// eight such blocks). Written by hand because it is a hot path (the model types are not `Codable`, and a keyed
/// container per row of 10^5–10^6 rows is what the block copies avoid; `JSONEncoder` was not measured): Milan's
/// feed, a 9.7 MB entry, loads with its checks in 60–125 ms (docs/ARCHITECTURE.md, "Build cache"). Only
/// ``StageCache`` reads it, after the
/// payload's SHA-256 was checked; a malformed payload still never traps: every read is bounds-checked and throws.
///
/// Each model type's layout is one ``CacheCodable`` conformance, its encode beside its decode
/// (`CacheCodec+Diagnostics.swift`, `CacheCodec+OSM.swift`, `CacheCodec+GTFS.swift`); `CacheCodecGoldenTests`
/// pins each type's bytes, so a layout change without a ``StageCache/formatVersion`` bump fails a test.
package struct CacheWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    package mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    package mutating func int(_ v: Int) { fixed(Int64(v)) }
    package mutating func count(_ v: Int) { fixed(UInt32(truncatingIfNeeded: v)) }
    package mutating func double(_ v: Double) { fixed(v.bitPattern) }
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
    package mutating func optional<T>(_ v: T?, _ write: (inout CacheWriter, T) -> Void) {
        if let v {
            u8(1)
            write(&self, v)
        } else {
            u8(0)
        }
    }
    package mutating func string(_ s: String?) { optional(s) { $0.string($1) } }
    package mutating func array<T>(_ values: [T], _ write: (inout CacheWriter, T) -> Void) {
        count(values.count)
        for v in values { write(&self, v) }
    }
    /// Numbers of a fixed size as one block (the host is little-endian: x86-64 and arm64).
    package mutating func block<T: BitwiseCopyable>(_ values: [T]) {
        count(values.count)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
    package mutating func strings(_ values: [String]) { array(values) { $0.string($1) } }
    package mutating func dictionary(_ d: [String: String]) {
        count(d.count)
        for (k, v) in d.sorted(by: { $0.key < $1.key }) {
            string(k)
            string(v)
        }
    }
    package mutating func bytes(_ data: [UInt8]) {
        count(data.count)
        bytes.append(contentsOf: data)
    }
}

/// Reads what ``CacheWriter`` wrote; every read checks the bounds and throws ``Malformed`` past the end.
package struct CacheReader {
    package struct Malformed: Error, CustomStringConvertible {
        package var description: String { "malformed cache payload" }
        package init() {}
    }

    private let base: UnsafeRawBufferPointer
    package private(set) var offset = 0

    package init(_ base: UnsafeRawBufferPointer) { self.base = base }

    package var atEnd: Bool { offset == base.count }

    private mutating func take(_ n: Int) throws(Malformed) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= base.count - offset else { throw Malformed() }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: base[offset..<offset + n])
    }

    package mutating func fixed<T: FixedWidthInteger>(_: T.Type = T.self) throws(Malformed) -> T {
        let raw = try take(MemoryLayout<T>.size)
        var v = T.zero
        withUnsafeMutableBytes(of: &v) { $0.copyMemory(from: raw) }
        return T(littleEndian: v)
    }
    package mutating func u8() throws(Malformed) -> UInt8 { try take(1)[0] }
    package mutating func bool() throws(Malformed) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }
    package mutating func int() throws(Malformed) -> Int { Int(try fixed(Int64.self)) }
    package mutating func count() throws(Malformed) -> Int {
        let n = Int(try fixed(UInt32.self))
        // Every element takes at least one byte: a count beyond the rest is malformed (no huge reservations).
        guard n <= base.count - offset else { throw Malformed() }
        return n
    }
    package mutating func double() throws(Malformed) -> Double { Double(bitPattern: try fixed(UInt64.self)) }
    package mutating func string() throws(Malformed) -> String {
        let n = try count()
        return String(decoding: try take(n), as: UTF8.self)
    }
    package mutating func optional<T>(_ read: (inout CacheReader) throws(Malformed) -> T) throws(Malformed) -> T? {
        switch try u8() {
        case 0: return nil
        case 1: return try read(&self)
        default: throw Malformed()
        }
    }
    package mutating func optionalString() throws(Malformed) -> String? { try optional { r throws(Malformed) in try r.string() } }
    package mutating func array<T>(_ read: (inout CacheReader) throws(Malformed) -> T) throws(Malformed) -> [T] {
        let n = try count()
        var out: [T] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try read(&self)) }
        return out
    }
    package mutating func block<T: BitwiseCopyable>(_: T.Type = T.self) throws(Malformed) -> [T] {
        let n = Int(try fixed(UInt32.self))
        let size = MemoryLayout<T>.stride
        guard n <= (base.count - offset) / max(size, 1) else { throw Malformed() }
        let raw = try take(n * size)
        return [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            initialized = n
        }
    }
    package mutating func strings() throws(Malformed) -> [String] { try array { r throws(Malformed) in try r.string() } }
    package mutating func dictionary() throws(Malformed) -> [String: String] {
        let n = try count()
        var d: [String: String] = [:]
        d.reserveCapacity(n)
        for _ in 0..<n {
            let k = try string()
            d[k] = try string()
        }
        return d
    }
    package mutating func bytes() throws(Malformed) -> [UInt8] {
        let n = try count()
        return Array(try take(n))
    }
}

/// A type the build cache stores: how it is written and read, side by side, so a field added to one is seen in
/// the other. Changing a layout means bumping ``StageCache/formatVersion`` (`CacheCodecGoldenTests` checks).
package protocol CacheCodable {
    /// Appends the value.
    func encode(to w: inout CacheWriter)
    /// Reads a value written by ``encode(to:)``.
    /// - Throws: ``CacheReader/Malformed`` when the bytes are not such a value.
    init(from r: inout CacheReader) throws(CacheReader.Malformed)
}

extension CacheWriter {
    /// Appends a ``CacheCodable`` value.
    package mutating func value<T: CacheCodable>(_ v: T) { v.encode(to: &self) }
}

extension CacheReader {
    /// Reads a ``CacheCodable`` value.
    package mutating func value<T: CacheCodable>(_: T.Type = T.self) throws(Malformed) -> T { try T(from: &self) }
}
