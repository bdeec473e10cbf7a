import CityPackIngest
import CityPackSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Content digests remembered for the life of the process (a `build --watch` or `preview` loop rebuilds in one
/// process), so a rebuild does not hash a source that did not change again.
///
/// A digest is reused only while the file's device, inode, size, modification time and status-change time (to the
/// nanosecond) are those it had when hashed; and it is remembered only when both times were at least
/// ``settledSeconds`` old at that moment (git's "racily clean" rule): a file written in the same clock tick as it
/// was hashed, then written again with the same size, could otherwise keep a stale digest. The status-change time
/// cannot be set back by a user, so a rewrite always moves it.
enum DigestMemo {
    /// How old a file's times must be for its digest to be remembered.
    static let settledSeconds: Int64 = 2

    private struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: (Stamp, String)] = [:]

    private static func stamp(_ path: String) -> Stamp? {
        var s = stat()
        guard stat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
        func ns(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        return Stamp(
            device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int64(s.st_size), modified: ns(s.st_mtim), changed: ns(s.st_ctim))
    }

    /// The SHA-256 of the file at `path` (hex), from the memo when the file is as it was; nil when unreadable.
    static func sha256(_ path: String) -> String? {
        let before = stamp(path)
        if let before, let hit = lock.withLock({ known[path] }), hit.0 == before { return hit.1 }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        guard let digest = try? FileDigest(path: path) else { return nil }
        // Remembered only when the file did not change while it was read, and its times are settled.
        if let before, stamp(path) == before, now - max(before.modified, before.changed) >= settledSeconds * 1_000_000_000 {
            lock.withLock { known[path] = (before, digest.sha256) }
        }
        return digest.sha256
    }

    /// Whether a digest of the file as it is now is remembered (tests).
    static func remembers(_ path: String) -> Bool {
        guard let now = stamp(path), let hit = lock.withLock({ known[path] }) else { return false }
        return hit.0 == now
    }

    /// Forgets everything (tests).
    static func reset() { lock.withLock { known = [:] } }
}

/// Category profiles already loaded in this process, by their folder and the digests of the files they were
/// loaded from: a rebuild in a watch loop does not parse `synonyms.json` again.
enum ProfileMemo {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: (key: [String], profile: TemplatePOIProfile)] = [:]

    static func load(_ directory: String) throws -> TemplatePOIProfile {
        let key = ["categories.json", "synonyms.json"].map { DigestMemo.sha256((directory as NSString).appendingPathComponent($0)) ?? "missing" }
        if let hit = lock.withLock({ known[directory] }), hit.key == key { return hit.profile }
        let profile = try TemplatePOIProfile.load(templatesDirectory: URL(fileURLWithPath: directory))
        lock.withLock { known[directory] = (key, profile) }
        return profile
    }
}
