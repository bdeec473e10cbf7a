import CityPackDiagnostics
import CityPackFormat
import CityPackSupport
import Foundation

/// The build cache of one city: `<output>/.cache/<city-id>/<entry>.entry`, one file per entry name (a stage, or
/// a part of validation), each replaced by the next result of its kind, so the cache never grows beyond a few
/// files per city.
///
/// An entry is usable only for its key: the SHA-256 of exactly what its stage reads (``CacheKey``). Layout:
/// ```
/// "CPKCACHE"  magic (8 bytes)
/// UInt32      cache format version (StageCache.formatVersion)
/// String      city id, entry name (UInt32 length + UTF-8)
/// 32 bytes    the key
/// UInt64      payload length
/// 32 bytes    SHA-256 of the payload
/// payload     (CacheCodec)
/// ```
/// An entry with another key is a previous result (silently replaced). Anything else that does not check out —
/// magic, version, city, entry name, length, payload hash, or a payload that does not decode — is never trusted:
/// a `pack.cache_ignored` note names the file and the stage runs. Writes go to a temporary file renamed into
/// place (``AtomicFile``); a failed write is not a build failure (the next build runs the stage again). Never prints.
final class StageCache: @unchecked Sendable {
    static let magic = Array("CPKCACHE".utf8)
    static let formatVersion: UInt32 = 2
    /// Folder under the output root.
    static let folderName = ".cache"

    let directory: String
    let cityID: String
    private let bag: DiagnosticBag

    init(outputDirectory: String, cityID: String, bag: DiagnosticBag) {
        directory = ((outputDirectory as NSString).appendingPathComponent(Self.folderName) as NSString)
            .appendingPathComponent(cityID)
        self.cityID = cityID
        self.bag = bag
    }

    func path(_ entry: String) -> String { (directory as NSString).appendingPathComponent("\(entry).entry") }

    /// The payload stored for `entry` under `key`, decoded by `decode`; nil when there is none for this key, or
    /// when the entry is damaged or foreign (then reported as a note).
    func load<T>(_ entry: String, key: CacheKey, decode: (inout CacheReader) throws(CacheReader.Malformed) -> T) -> T? {
        let file = path(entry)
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        func ignored(_ why: String) -> T? {
            bag.report(
                Rules.packCacheIgnored, "cache entry ignored (\(why)); the \(entry) stage ran instead",
                at: SourceLocation(file: file))
            return nil
        }
        return data.withUnsafeBytes { raw -> T? in
            var r = CacheReader(raw)
            do throws(CacheReader.Malformed) {
                guard raw.count >= Self.magic.count, Array(raw.prefix(Self.magic.count)) == Self.magic else {
                    return ignored("not a CityPack cache entry")
                }
                _ = try r.fixed(UInt64.self)  // the magic
                let version = try r.fixed(UInt32.self)
                guard version == Self.formatVersion else { return ignored("cache format \(version), not \(Self.formatVersion)") }
                let city = try r.string()
                let name = try r.string()
                guard city == cityID, name == entry else { return ignored("an entry of city '\(city)', stage \(name)") }
                let storedKey = try r.fixed(UInt64.self), k2 = try r.fixed(UInt64.self), k3 = try r.fixed(UInt64.self),
                    k4 = try r.fixed(UInt64.self)
                // Another key: an earlier result of this stage, replaced once the stage has run.
                guard [storedKey, k2, k3, k4] == key.words else { return nil }
                let length = try r.fixed(UInt64.self)
                var hash: [UInt8] = []
                for _ in 0..<32 { hash.append(try r.u8()) }
                let start = r.offset
                guard length == UInt64(raw.count - start) else {
                    return ignored("payload of \(raw.count - start) bytes, \(length) expected: truncated or extended")
                }
                let payload = UnsafeRawBufferPointer(rebasing: raw[start...])
                guard FileDigest.sha256Bytes(of: payload) == hash else { return ignored("payload SHA-256 mismatch") }
                var p = CacheReader(payload)
                let value = try decode(&p)
                guard p.atEnd else { return ignored("payload does not decode") }
                return value
            } catch {
                return ignored(raw.count < 64 ? "truncated" : "payload does not decode")
            }
        }
    }

    /// Stores `payload` (``CacheWriter`` bytes) as `entry` for `key` (atomically: a temporary file renamed over the
    /// previous entry). Returns whether it was written; a failure is not reported (the cache only saves time).
    @discardableResult
    func store(_ entry: String, key: CacheKey, payload: [UInt8]) -> Bool {
        var w = CacheWriter(capacity: 128)
        for byte in Self.magic { w.u8(byte) }
        w.fixed(Self.formatVersion)
        w.string(cityID)
        w.string(entry)
        for word in key.words { w.fixed(word) }
        w.fixed(UInt64(payload.count))
        for byte in FileDigest.sha256Bytes(of: payload) { w.u8(byte) }
        let file = path(entry)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // Debris of a killed build's writes.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.contains(".tmp-") {
                unlink((directory as NSString).appendingPathComponent(name))
            }
            var bytes = w.bytes
            bytes.append(contentsOf: payload)
            // Not flushed: an entry only saves time, and a torn one fails its checks.
            try AtomicFile.write(bytes, to: file, durable: false)
            return true
        } catch {
            return false
        }
    }
}

extension StageCache {
    /// Hashed through ``DigestMemo``, which reuses a digest only for a file whose inode, size and times (to the
    /// nanosecond) are unchanged and were settled when it was hashed, so an edit always changes the key.
    /// The SHA-256 of a file's bytes, or of a folder's files (every file below it, `relative path\0sha256\n` in
    /// path order; hidden files included); nil when the path does not exist.
    static func contentDigest(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue { return DigestMemo.sha256(path) ?? "unreadable" }
        var lines = ""
        let files = (FileManager.default.subpaths(atPath: path) ?? []).sorted()
        for file in files {
            let full = (path as NSString).appendingPathComponent(file)
            var sub: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue else { continue }
            lines += "\(file)\u{0}\(DigestMemo.sha256(full) ?? "unreadable")\n"
        }
        return FileDigest.sha256(of: Data(lines.utf8))
    }

    /// What the bag does with findings: the same recorded findings give other diagnostics under other settings,
    /// and a stage may skip a rule that is off.
    static func bagSettings(_ bag: DiagnosticBag) -> String {
        let overrides = bag.overrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }
        let pinned = bag.pinned.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value?.rawValue ?? "off")" }
        return "overrides \(overrides) disabled \(bag.disabled.sorted()) pinned \(pinned) werror \(bag.warningsAsErrors) max \(bag.maxPerCode)"
    }
}
