import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a city's inputs for changes by polling: every ``interval`` it takes the modification time (to the
/// nanosecond), size and inode of every file under the watched paths and compares them with the last look.
/// Polling a city's few hundred files costs well under a millisecond on Linux, works on every file system
/// (inotify misses changes on network and some container mounts) and sees editors' atomic saves (write to a
/// temporary file, rename over the original) like in-place writes.
///
/// A change is reported once the files have stopped changing for ``quiet`` (an editor writing several files,
/// or a copy in progress, gives one rebuild, not one per file). Hidden files and folders (`.git`, editors'
/// `.swp`) and the ``excluded`` folders (the build's own output) are ignored. Not thread-safe: one caller.
package struct SourceWatcher {
    /// What is known of one file: enough to see any write or replacement.
    package struct Stamp: Equatable, Sendable {
        package var modified: Int64
        package var size: Int64
        package var inode: UInt64
    }

    /// Files (or folders, looked into recursively) to watch; a path that does not exist yet is watched for
    /// appearing.
    package var paths: [String]
    /// Folders never looked into (absolute, standardized).
    package var excluded: [String]
    /// How often to look (default 250 ms).
    package var interval: Duration = .milliseconds(250)
    /// How long the files must stay unchanged before a change is reported (default 150 ms).
    package var quiet: Duration = .milliseconds(150)

    package init(paths: [String], excluding excluded: [String] = []) {
        self.paths = paths
        self.excluded = excluded.map { Self.absolute($0) }
    }

    /// Every watched file and its stamp, now.
    package func snapshot() -> [String: Stamp] {
        var out: [String: Stamp] = [:]
        for path in Set(paths.map(Self.absolute)).sorted() { collect(path, into: &out, depth: 0) }
        return out
    }

    /// Blocks until the files differ from `since` and have then been quiet for ``quiet``; returns the new
    /// snapshot and the files that changed (added, removed or modified), sorted. `stop` is asked before each look;
    /// when it returns true, nil is returned.
    package func waitForChange(since: [String: Stamp], stop: () -> Bool = { false }) -> (snapshot: [String: Stamp], changed: [String])? {
        var current = since
        while current == since {
            if stop() { return nil }
            Thread.sleep(forTimeInterval: Self.seconds(interval))
            current = snapshot()
        }
        // Debounce: wait until two looks ``quiet`` apart agree (bounded, so a file rewritten forever still builds).
        for _ in 0..<20 {
            Thread.sleep(forTimeInterval: Self.seconds(quiet))
            let next = snapshot()
            if next == current { break }
            current = next
        }
        let keys = Set(since.keys).union(current.keys)
        return (current, keys.filter { since[$0] != current[$0] }.sorted())
    }

    private func collect(_ path: String, into out: inout [String: Stamp], depth: Int) {
        guard depth < 16, !excluded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                collect(path + "/" + name, into: &out, depth: depth + 1)
            }
        } else {
            out[path] = Self.stamp(info)
        }
    }

    /// The stamp of one file now; nil when it does not exist.
    package static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return stamp(info)
    }

    private static func stamp(_ info: stat) -> Stamp {
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return Stamp(modified: modified, size: Int64(info.st_size), inode: UInt64(info.st_ino))
    }

    package static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        var text = url.standardizedFileURL.path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    package static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
