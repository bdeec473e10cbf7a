import CityPackIngest
import CityPackSupport
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Content digests remembered beside each file's stat facts, as git's index keeps them: for the build cache's
/// keys, the manifest's source hashes and the emit stage's output check. A rebuild in one process (`build
/// --watch`, `preview`) does not hash a source that did not change again; the cities of a fleet that name one
/// country file hash it once (a file asked for while it is being hashed waits for that hash); and a new process
/// starts from the facts the last build of its city stored in the build cache (``facts`` / ``adopt(_:)``,
/// ``StageWork``'s `sourceFacts` entry), so an unchanged one-shot rebuild reads no source again.
///
/// Files are known by device and inode, whatever path names them. A digest is reused only while the file's size,
/// modification time and status-change time (to the nanosecond) are those it had when hashed, and only when both
/// times are older than the moment its hashing began by more than ``settledSeconds`` (git's "racily clean" rule:
/// a file written in the same clock tick as it was hashed, then written again with the same size, would
/// otherwise keep a stale digest; file-system clocks are coarser than the wall clock, hence the margin). Such a
/// racy file is hashed again each time until it settles. The status-change time cannot be set back by a user, so
/// a rewrite always moves it. Thread-safe.
package enum DigestMemo {
    /// How much older than the start of its hashing a file's times must be for its digest to be reused.
    package static let settledSeconds: Int64 = 2
    /// At most this many facts are handed out for storing (the most recently hashed).
    package static let factLimit = 4096

    /// A file's stat facts and the digest its bytes had, hashed from `hashedAt` (nanoseconds since 1970).
    package struct Fact: Equatable {
        package var device: UInt64
        package var inode: UInt64
        package var size: Int64
        package var modified: Int64
        package var changed: Int64
        package var hashedAt: Int64
        package var digest: FileDigest

        package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64, hashedAt: Int64, digest: FileDigest) {
            (self.device, self.inode, self.size, self.modified, self.changed, self.hashedAt, self.digest) =
                (device, inode, size, modified, changed, hashedAt, digest)
        }

        package var id: String { "\(device):\(inode)" }

        /// Whether the digest holds for a file with stat facts `now`: the same facts, settled when hashed.
        package func holds(for now: Fact) -> Bool {
            device == now.device && inode == now.inode && size == now.size && modified == now.modified
                && changed == now.changed && max(modified, changed) < hashedAt - settledSeconds * 1_000_000_000
        }
    }

    /// A hash under way, which other askers of the same file as it is wait for.
    private final class Running: @unchecked Sendable {
        let stat: Fact
        let group = DispatchGroup()
        var digest: FileDigest?
        init(_ stat: Fact) { self.stat = stat }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: Fact] = [:]
    nonisolated(unsafe) private static var running: [String: Running] = [:]

    /// The stat facts of a regular file (digest and hashing time left empty); nil for anything else.
    package static func statFacts(_ path: String) -> Fact? {
        var s = stat()
        guard stat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
        func ns(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        return Fact(
            device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int64(s.st_size), modified: ns(s.st_mtim),
            changed: ns(s.st_ctim), hashedAt: 0, digest: FileDigest(bytes: 0, sha256: ""))
    }

    private static func sameStat(_ a: Fact, _ b: Fact) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified == b.modified && a.changed == b.changed
    }

    /// The size and SHA-256 of the file at `path`, from the facts when the file is as it was; nil when unreadable.
    package static func digest(_ path: String) -> FileDigest? {
        guard let before = statFacts(path) else { return try? FileDigest(path: path) }
        lock.lock()
        if let hit = known[before.id], hit.holds(for: before) {
            lock.unlock()
            return hit.digest
        }
        if let other = running[before.id], sameStat(other.stat, before) {
            lock.unlock()
            other.group.wait()
            return other.digest
        }
        let mine = Running(before)
        mine.group.enter()
        running[before.id] = mine
        lock.unlock()
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let digest = try? FileDigest(path: path)
        // Kept only when the file did not change while it was read (``Fact/holds(for:)`` decides on reuse).
        let after = statFacts(path)
        lock.withLock {
            if let digest, let after, sameStat(after, before) {
                var fact = before
                fact.hashedAt = now
                fact.digest = digest
                known[before.id] = fact
            }
            if running[before.id] === mine { running[before.id] = nil }
            mine.digest = digest
        }
        mine.group.leave()
        return digest
    }

    /// Remembers a digest another reader computed from the bytes it read (a fleet's shared PBF pass), so the
    /// file is not read again to hash it: kept only when the file's stat facts after the read are `before`, the
    /// facts taken before the read began at `startedAt` (nanoseconds since 1970). Reused as any digest is
    /// (``Fact/holds(for:)``).
    package static func record(_ path: String, before: Fact, startedAt: Int64, digest: FileDigest) {
        guard let after = statFacts(path), sameStat(after, before), Int64(digest.bytes) == before.size else { return }
        var fact = before
        fact.hashedAt = startedAt
        fact.digest = digest
        lock.withLock {
            if (known[fact.id]?.hashedAt ?? .min) < startedAt { known[fact.id] = fact }
        }
    }

    /// The current time as ``Fact/hashedAt`` counts it.
    package static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1e9) }

    /// The SHA-256 (hex) of the file at `path` when a digest is known for it as it is now (never hashes).
    package static func settledSHA256(_ path: String) -> String? {
        guard let now = statFacts(path), let hit = lock.withLock({ known[now.id] }), hit.holds(for: now) else { return nil }
        return hit.digest.sha256
    }

    /// The SHA-256 (hex) of the file at `path` (``digest(_:)``).
    package static func sha256(_ path: String) -> String? { digest(path)?.sha256 }

    /// Whether the digest of the file as it is now would be reused (tests).
    package static func remembers(_ path: String) -> Bool { settledSHA256(path) != nil }

    /// The facts worth storing, the ``factLimit`` most recently hashed, in a stable order (for the build cache):
    /// those of files that were settled when hashed (a racy one is never reused, so it is not kept).
    package static var facts: [Fact] {
        let all = lock.withLock { known.values.filter { $0.holds(for: $0) } }
        let recent = all.count <= factLimit ? all : Array(all.sorted { $0.hashedAt > $1.hashedAt }.prefix(factLimit))
        return recent.sorted { ($0.device, $0.inode) < ($1.device, $1.inode) }
    }

    /// Takes facts stored by an earlier process; a fact this process already has for a file, hashed later, wins.
    package static func adopt(_ facts: [Fact]) {
        lock.withLock {
            for fact in facts where (known[fact.id]?.hashedAt ?? .min) < fact.hashedAt { known[fact.id] = fact }
        }
    }

    /// Forgets what is known of the file at `path` (tests: a new process, as far as that file goes).
    package static func forget(_ path: String) {
        guard let now = statFacts(path) else { return }
        _ = lock.withLock { known.removeValue(forKey: now.id) }
    }
}

/// Category profiles already loaded in this process, by their folder and the digests of the files they were
/// loaded from: a rebuild in a watch loop does not parse `synonyms.json` again. A new process keeps the parsed
/// synonyms in the city's build cache (`synonyms.entry`, under the file's digest), so an unchanged rebuild does
/// not parse its JSON either.
package enum ProfileMemo {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [TemplateSource: (key: [String], profile: TemplatePOIProfile)] = [:]
    package static let synonymsEntry = "synonyms"

    /// - Returns: the profile, and the synonyms' cache entry to store when the build ends without errors (nil: the
    ///   cache had it, or there is no cache).
    package static func load(
        _ source: TemplateSource, cache: StageCache? = nil
    ) throws -> (profile: TemplatePOIProfile, store: (entry: String, key: CacheKey, payload: [UInt8])?) {
        // A folder's files by their digests; the built-in templates by their content hash (they live in the binary).
        let key = ["categories.json", "synonyms.json"].map { file in
            source.builtInKey.map { "\($0) \(file)" } ?? DigestMemo.sha256(source.path(file)) ?? "missing"
        }
        if let hit = lock.withLock({ known[source] }), hit.key == key {
            // Stored when the cache lacks it (a new output folder in the same process).
            return (hit.profile, cache.flatMap { storeSynonyms(
                Dictionary(hit.profile.categories.map { ($0.id, $0.synonyms) }, uniquingKeysWith: { a, _ in a }), digest: key[1], unless: $0) })
        }
        let synonymsKey = synonymsKey(digest: key[1])
        let stored = key[1] == "missing" ? nil : cache?.load(synonymsEntry, key: synonymsKey, quiet: true) { r throws(CacheReader.Malformed) in
            try r.array { r throws(CacheReader.Malformed) in
                (try r.string(), try r.array { r throws(CacheReader.Malformed) in (try r.string(), try r.strings()) })
            }
        }
        let synonyms = try stored.map { pairs in
            Dictionary(pairs.map { ($0.0, Dictionary($0.1, uniquingKeysWith: { a, _ in a })) }, uniquingKeysWith: { a, _ in a })
        } ?? TemplatePOIProfile.synonyms(in: source)
        let profile = try TemplatePOIProfile.load(templates: source, synonyms: synonyms)
        lock.withLock { known[source] = (key, profile) }
        return (profile, stored == nil && key[1] != "missing" && cache != nil ? (synonymsEntry, synonymsKey, encode(synonyms)) : nil)
    }

    package static func synonymsKey(digest: String) -> CacheKey {
        var k = CacheKey(synonymsEntry)
        k.add("synonyms.json", digest)
        return k
    }

    /// The synonyms' entry, unless `cache` already holds it.
    private static func storeSynonyms(
        _ synonyms: [String: [String: [String]]], digest: String, unless cache: StageCache
    ) -> (entry: String, key: CacheKey, payload: [UInt8])? {
        let k = synonymsKey(digest: digest)
        guard digest != "missing", !CacheFile.holds(cache.path(synonymsEntry), scope: cache.cityID, name: synonymsEntry, key: k.digest)
        else { return nil }
        return (synonymsEntry, k, encode(synonyms))
    }

    package static func encode(_ synonyms: [String: [String: [String]]]) -> [UInt8] {
        var w = CacheWriter()
        w.array(synonyms.sorted { $0.key < $1.key }) { w, category in
            w.string(category.key)
            w.array(category.value.sorted { $0.key < $1.key }) { w, locale in
                w.string(locale.key)
                w.strings(locale.value)
            }
        }
        return w.bytes
    }
}
