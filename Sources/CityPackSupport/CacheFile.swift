import Foundation

/// The one on-disk format of the build cache, for the stage entries (`<output>/.cache/<city>/<entry>.entry`) and
/// the emit step's pieces alike: a checked envelope around a payload, so there is one integrity check.
/// ```
/// "CPKCACHE"  magic (8 bytes)
/// UInt32      format version (CacheFile.formatVersion), little-endian
/// String      scope (the city), then name (the entry or piece): UInt32 length + UTF-8
/// 32 bytes    the key (a SHA-256)
/// UInt64      payload length
/// 32 bytes    SHA-256 of the payload
/// payload
/// ```
/// A file under another key is an earlier result (``Loaded/otherKey``, replaced silently by the next store);
/// anything else that does not check out is ``Loaded/damaged(_:)``, with why, and never trusted. Writes go
/// through ``AtomicFile`` without flushing: an entry only saves time, and a torn one fails its checks.
package enum CacheFile {
    static let magic = Array("CPKCACHE".utf8)
    /// Version of the envelope. 3: one format for entries and pieces (2 was the stage entries' own).
    package static let formatVersion: UInt32 = 3

    /// What ``read(_:scope:name:key:)`` found.
    package enum Loaded: Equatable {
        /// No file.
        case missing
        /// A good file under another key.
        case otherKey
        /// A file that does not check out, and why (`payload SHA-256 mismatch`).
        case damaged(String)
        /// The payload: bytes `payloadStart...` of `data`, whose SHA-256 is `sha256`.
        case payload(data: Data, payloadStart: Int, sha256: [UInt8])
    }

    /// The bytes of a file holding `payload` for `scope`, `name` and `key` (32 bytes).
    package static func encode(scope: String, name: String, key: [UInt8], payload: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(key.count == 32, "a cache key is a SHA-256")
        var out = magic
        func fixed<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        func string(_ s: String) {
            fixed(UInt32(s.utf8.count))
            out.append(contentsOf: s.utf8)
        }
        fixed(formatVersion)
        string(scope)
        string(name)
        out.append(contentsOf: key)
        fixed(UInt64(payload.count))
        out.append(contentsOf: FileDigest.sha256Bytes(of: payload))
        out.reserveCapacity(out.count + payload.count)
        out.append(contentsOf: payload)
        return out
    }

    /// Stores `payload` at `path` (atomically; the folder must exist). Returns whether it was written.
    @discardableResult
    package static func write(_ path: String, scope: String, name: String, key: [UInt8], payload: UnsafeRawBufferPointer) -> Bool {
        (try? AtomicFile.write(encode(scope: scope, name: name, key: key, payload: payload), to: path, durable: false)) != nil
    }

    /// Whether the file at `path` is, by its header and length alone, the entry of `scope`, `name` and `key`: a
    /// cheap look before a lazy ``read(_:scope:name:key:)`` (which also checks the payload's SHA-256).
    package static func holds(_ path: String, scope: String, name: String, key: [UInt8]) -> Bool {
        let expected = encode(scope: scope, name: name, key: key, payload: UnsafeRawBufferPointer(start: nil, count: 0))
        // The header up to the key; then the payload length, which must match the file's size.
        let keyEnd = expected.count - 8 - 32
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: keyEnd + 8), head.count == keyEnd + 8,
            Array(head.prefix(keyEnd)) == Array(expected.prefix(keyEnd)),
            let size = try? handle.seekToEnd(), size >= UInt64(expected.count)
        else { return false }
        let length = head.suffix(8).withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        return length == size - UInt64(expected.count)
    }

    /// Reads and checks the file at `path` against `scope`, `name` and `key`.
    package static func read(_ path: String, scope: String, name: String, key: [UInt8]) -> Loaded {
        // Mapped, not copied: a GTFS entry is megabytes, read once and hashed (entries are only ever replaced by a
        // rename, never rewritten in place).
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return .missing }
        return data.withUnsafeBytes { raw -> Loaded in
            var offset = 0
            func take(_ n: Int) -> UnsafeRawBufferPointer? {
                guard n >= 0, raw.count - offset >= n else { return nil }
                defer { offset += n }
                return UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n])
            }
            func fixed<T: FixedWidthInteger>(_: T.Type) -> T? {
                take(MemoryLayout<T>.size).map { T(littleEndian: $0.loadUnaligned(as: T.self)) }
            }
            func string() -> String? {
                guard let n = fixed(UInt32.self), let bytes = take(Int(n)) else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            }
            guard let head = take(magic.count), Array(head) == magic else { return .damaged("not a CityPack cache entry") }
            guard let version = fixed(UInt32.self) else { return .damaged("truncated") }
            guard version == formatVersion else { return .damaged("cache format \(version), not \(formatVersion)") }
            guard let storedScope = string(), let storedName = string() else { return .damaged("truncated") }
            guard storedScope == scope, storedName == name else {
                return .damaged("an entry of city '\(storedScope)', stage \(storedName)")
            }
            guard let storedKey = take(32), let length = fixed(UInt64.self), let hash = take(32) else { return .damaged("truncated") }
            guard Array(storedKey) == key else { return .otherKey }
            let start = offset
            guard length == UInt64(raw.count - start) else {
                return .damaged("payload of \(raw.count - start) bytes, \(length) expected: truncated or extended")
            }
            let sha = FileDigest.sha256Bytes(of: UnsafeRawBufferPointer(rebasing: raw[start...]))
            guard sha == Array(hash) else { return .damaged("payload SHA-256 mismatch") }
            return .payload(data: data, payloadStart: start, sha256: sha)
        }
    }
}
