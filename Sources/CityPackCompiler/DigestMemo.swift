import CityPackIngest
import CityPackSupport
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Content digests remembered for the life of the process, for the build cache's keys and the manifest's source
/// hashes: a rebuild in one process (`build --watch`, `preview`) does not hash a source that did not change again,
/// and the cities of a fleet that name one country file hash it once (a file asked for while it is being hashed
/// waits for that hash).
///
/// Files are known by device and inode, whatever path names them. A digest is reused only while the file's size,
/// modification time and status-change time (to the nanosecond) are those it had when hashed; and it is
/// remembered only when both times were at least ``settledSeconds`` old at that moment (git's "racily clean"
/// rule): a file written in the same clock tick as it was hashed, then written again with the same size, could
/// otherwise keep a stale digest. The status-change time cannot be set back by a user, so a rewrite always moves it.
enum DigestMemo {
    /// How old a file's times must be for its digest to be remembered.
    static let settledSeconds: Int64 = 2

    private struct Stamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
        var id: String { "\(device):\(inode)" }
    }

    /// A hash under way, which other askers of the same file as it is wait for.
    private final class Running: @unchecked Sendable {
        let stamp: Stamp
        let group = DispatchGroup()
        var digest: FileDigest?
        init(_ stamp: Stamp) { self.stamp = stamp }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: (Stamp, FileDigest)] = [:]
    nonisolated(unsafe) private static var running: [String: Running] = [:]

    private static func stamp(_ path: String) -> Stamp? {
        var s = stat()
        guard stat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
        func ns(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        return Stamp(
            device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int64(s.st_size), modified: ns(s.st_mtim), changed: ns(s.st_ctim))
    }

    /// The size and SHA-256 of the file at `path`, from the memo when the file is as it was; nil when unreadable.
    static func digest(_ path: String) -> FileDigest? {
        guard let before = stamp(path) else { return try? FileDigest(path: path) }
        lock.lock()
        if let hit = known[before.id], hit.0 == before {
            lock.unlock()
            return hit.1
        }
        if let other = running[before.id], other.stamp == before {
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
        // Remembered only when the file did not change while it was read, and its times are settled.
        let keep = digest != nil && stamp(path) == before
            && now - max(before.modified, before.changed) >= settledSeconds * 1_000_000_000
        lock.withLock {
            if keep, let digest { known[before.id] = (before, digest) }
            if running[before.id] === mine { running[before.id] = nil }
            mine.digest = digest
        }
        mine.group.leave()
        return digest
    }

    /// The SHA-256 (hex) of the file at `path` (``digest(_:)``).
    static func sha256(_ path: String) -> String? { digest(path)?.sha256 }

    /// Whether a digest of the file as it is now is remembered (tests).
    static func remembers(_ path: String) -> Bool {
        guard let now = stamp(path), let hit = lock.withLock({ known[now.id] }) else { return false }
        return hit.0 == now
    }
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
