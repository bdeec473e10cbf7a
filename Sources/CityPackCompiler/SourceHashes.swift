import CityPackCache
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

    /// A file's digest, or for a folder the digest of its "name\0sha256\n" lines, one per file in name order.
    static func digest(_ path: String) -> FileDigest? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        // Plain files through the process's memo: the cities of a fleet name one country file, hashed once.
        if !isDirectory.boolValue { return DigestMemo.digest(path) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var lines = ""
        var bytes = 0
        for name in names {
            if let d = DigestMemo.digest((path as NSString).appendingPathComponent(name)) {
                lines += "\(name)\u{0}\(d.sha256)\n"
                bytes += d.bytes
            }
        }
        return FileDigest(bytes: bytes, sha256: FileDigest.sha256(of: Data(lines.utf8)))
    }
}
