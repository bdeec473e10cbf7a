import CityPackDiagnostics
import CityPackFormat
import CityPackSupport
import Foundation

/// The build cache of one city: `<output>/.cache/<city-id>/<entry>.entry`, one file per entry name (a stage, or
/// a part of validation), each replaced by the next result of its kind, so the cache never grows beyond a few
/// files per city.
///
/// An entry is usable only for its key: the SHA-256 of exactly what its stage reads (``CacheKey``). Entries are
/// ``CityPackSupport/CacheFile``s (the format of the emit step's pieces too): scope the city id, name the entry
/// name, payload ``CacheCodec`` bytes. An entry with another key is a previous result (silently replaced).
/// Anything else that does not check out — magic, version, city, entry name, length, payload hash, or a payload
/// that does not decode — is never trusted: a `pack.cache_ignored` note names the file and the stage runs.
/// Writes are atomic (``AtomicFile``); a failed write is not a build failure (the next build runs the stage
/// again). Never prints.
package final class StageCache: @unchecked Sendable {
    /// The format of the entries (``CacheFile/formatVersion``), in every key.
    package static var formatVersion: UInt32 { CacheFile.formatVersion }
    /// Folder under the output root.
    package static let folderName = ".cache"

    package let directory: String
    package let cityID: String
    private let bag: DiagnosticBag

    package init(outputDirectory: String, cityID: String, bag: DiagnosticBag) {
        directory = ((outputDirectory as NSString).appendingPathComponent(Self.folderName) as NSString)
            .appendingPathComponent(cityID)
        self.cityID = cityID
        self.bag = bag
    }

    package func path(_ entry: String) -> String { (directory as NSString).appendingPathComponent("\(entry).entry") }

    /// The payload stored for `entry` under `key`, decoded by `decode`; nil when there is none for this key, or
    /// when the entry is damaged or foreign (then reported as a note, unless `quiet`: a load after the build's
    /// findings were rendered).
    package func load<T>(
        _ entry: String, key: CacheKey, quiet: Bool = false, decode: (inout CacheReader) throws(CacheReader.Malformed) -> T
    ) -> T? {
        let file = path(entry)
        func ignored(_ why: String) -> T? {
            if quiet { return nil }
            bag.report(
                Rules.packCacheIgnored, "cache entry ignored (\(why)); the \(entry) stage ran instead",
                at: SourceLocation(file: file))
            return nil
        }
        switch CacheFile.read(file, scope: cityID, name: entry, key: key.digest) {
        case .missing, .otherKey: return nil
        case .damaged(let why): return ignored(why)
        case .payload(let data, let start, _):
            let value = data.withUnsafeBytes { raw -> T? in
                var r = CacheReader(UnsafeRawBufferPointer(rebasing: raw[start...]))
                guard let value = try? decode(&r), r.atEnd else { return nil }
                return value
            }
            return value ?? ignored("payload does not decode")
        }
    }

    /// Stores `payload` (``CacheWriter`` bytes) as `entry` for `key` (atomically: a temporary file renamed over the
    /// previous entry). Returns whether it was written; a failure is not reported (the cache only saves time).
    @discardableResult
    package func store(_ entry: String, key: CacheKey, payload: [UInt8]) -> Bool {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return false
        }
        // Debris of a killed build's writes.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.contains(".tmp-") {
            unlink((directory as NSString).appendingPathComponent(name))
        }
        return payload.withUnsafeBytes { CacheFile.write(path(entry), scope: cityID, name: entry, key: key.digest, payload: $0) }
    }
}

extension StageCache {
    /// Hashed through ``DigestMemo``, which reuses a digest only for a file whose inode, size and times (to the
    /// nanosecond) are unchanged and were settled when it was hashed, so an edit always changes the key.
    /// The SHA-256 of a file's bytes, or of a folder's files (every file below it, `relative path\0sha256\n` in
    /// path order; hidden files included); nil when the path does not exist.
    package static func contentDigest(_ path: String) -> String? {
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
    package static func bagSettings(_ bag: DiagnosticBag) -> String {
        let overrides = bag.overrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }
        let pinned = bag.pinned.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value?.rawValue ?? "off")" }
        return "overrides \(overrides) disabled \(bag.disabled.sorted()) pinned \(pinned) werror \(bag.warningsAsErrors) max \(bag.maxPerCode)"
    }
}
