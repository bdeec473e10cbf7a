import CityPackEmit
import CityPackSupport
import Foundation

/// SHA-256 of the source files, computed on a background queue; ``wait()`` returns them in input order.
/// Directories (unzipped GTFS feeds, editorial and copy folders) are hashed file by file in name order.
final class SourceHashes: @unchecked Sendable {
    private let group = DispatchGroup()
    private var results: [(String, FileDigest)] = []

    /// Starts hashing `files` (missing ones are skipped).
    init(files: [String]) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var out: [(String, FileDigest)] = []
            for file in files {
                if let digest = Self.digest(file) { out.append((file, digest)) }
            }
            results = out
            group.leave()
        }
    }

    /// Waits for the hashes: (path, digest) of each file that exists, in the order given.
    func wait() -> [(String, FileDigest)] {
        group.wait()
        return results
    }

    /// Digests of plain files already hashed in this process, by real path, size and modification time: the
    /// cities of a fleet name one country file, which is then hashed once, not once per city.
    private static let cache = DigestCache()

    /// A file's digest, or for a folder the digest of its "name\0sha256\n" lines, one per file in name order.
    static func digest(_ path: String) -> FileDigest? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue { return cache.digest(path) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var lines = ""
        var bytes = 0
        for name in names {
            if let d = try? FileDigest(path: (path as NSString).appendingPathComponent(name)) {
                lines += "\(name)\u{0}\(d.sha256)\n"
                bytes += d.bytes
            }
        }
        return FileDigest(bytes: bytes, sha256: FileDigest.sha256(of: Data(lines.utf8)))
    }
}

/// Per-process digests of plain files, keyed by real path, size and modification time (nanoseconds); a file that
/// changes between two builds of one process gets a new key.
private final class DigestCache: @unchecked Sendable {
    private let lock = NSLock()
    private var digests: [String: FileDigest] = [:]
    private var running: [String: DispatchGroup] = [:]

    func digest(_ path: String) -> FileDigest? {
        var info = stat()
        guard stat(path, &info) == 0 else { return try? FileDigest(path: path) }
        let key = "\(Fleet.canonicalPath(path))\u{0}\(info.st_size)\u{0}\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        lock.lock()
        if let known = digests[key] {
            lock.unlock()
            return known
        }
        if let group = running[key] {
            lock.unlock()
            group.wait()
            return lock.withLock { digests[key] } ?? (try? FileDigest(path: path))
        }
        let group = DispatchGroup()
        group.enter()
        running[key] = group
        lock.unlock()
        let digest = try? FileDigest(path: path)
        lock.withLock {
            if let digest { digests[key] = digest }
            running[key] = nil
        }
        group.leave()
        return digest
    }
}
