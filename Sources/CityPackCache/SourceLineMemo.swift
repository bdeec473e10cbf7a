import CityPackDiagnostics
import CityPackSupport
import Foundation

/// The source lines diagnostics showed last time (their excerpts), kept in the build cache
/// (`<output>/.cache/<city>/source-lines.entry`) by each file's path and content digest, so an unchanged rebuild
/// does not scan a large source (44 MB of XML) again for the few lines its findings point at.
///
/// A file's lines are taken from the memo only while ``DigestMemo`` vouches for its digest without hashing (its
/// stat facts unchanged and settled, the racily-clean rule), and only for line numbers that were asked before (a
/// line past the end is remembered as absent); anything else is read from the file. The memo is used once a build
/// with a cache has run (``use(outputDirectory:cityID:writable:)``, from ``StageWork/flushCache()``), and written
/// only after a build without errors, as the other entries are; `--no-cache` turns it off. An entry that does not
/// check out is ignored (the lines are read again). What it holds depends only on each file's path and bytes, so
/// the cities of a fleet may share it whichever city's folder stores it. Thread-safe.
package enum SourceLineMemo {
    /// The entry's name in the city's cache folder.
    package static let entry = "source-lines"

    /// The lines of one file as it was: the line numbers asked for and those of them that exist.
    package struct File: Equatable {
        package var sha256: String
        package var asked: Set<Int>
        package var lines: [Int: [UInt8]]
    }

    private struct Store {
        var cache: StageCache
        var writable: Bool
        /// What the entry held (loaded on first use).
        var stored: [String: File]?
        /// The files this process used, by path: what is written back.
        var used: [String: File] = [:]
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var store: Store?

    /// Longest line kept, in bytes (``CityPackCompiler/SourceLines`` cuts longer ones): part of the entry's key.
    package static let maxLineBytes = 64 * 1024

    /// The key of the entry: what the lines of a file depend on besides its bytes.
    package static var key: CacheKey {
        var k = CacheKey(entry)
        k.add("longest line", "\(maxLineBytes)")
        return k
    }

    /// Uses the memo of the city's cache (nil folder: none); `writable` when the build may write its cache.
    package static func use(outputDirectory: String?, cityID: String, writable: Bool) {
        lock.withLock {
            store = outputDirectory.map {
                // A damaged entry is ignored without a note: the report is written by then.
                Store(cache: StageCache(outputDirectory: $0, cityID: cityID, bag: DiagnosticBag()), writable: writable)
            }
        }
    }

    /// The lines `wanted` of `path` whose content has SHA-256 `sha256`, when all of them were asked for before.
    package static func lines(_ path: String, sha256: String, wanted: Set<Int>) -> [Int: [UInt8]]? {
        lock.withLock {
            guard var s = store else { return nil }
            if s.stored == nil {
                s.stored = s.cache.load(entry, key: key) { r throws(CacheReader.Malformed) in try r.sourceLines() } ?? [:]
            }
            defer { store = s }
            guard let file = s.used[path] ?? s.stored?[path], file.sha256 == sha256, wanted.isSubset(of: file.asked) else {
                return nil
            }
            s.used[path] = file
            return file.lines.filter { wanted.contains($0.key) }
        }
    }

    /// Remembers the lines read for `wanted` of `path` (content `sha256`) and writes the memo when it may.
    package static func remember(_ path: String, sha256: String, wanted: Set<Int>, lines: [Int: [UInt8]]) {
        lock.withLock {
            guard var s = store else { return }
            var file = s.used[path] ?? s.stored?[path] ?? File(sha256: sha256, asked: [], lines: [:])
            if file.sha256 != sha256 { file = File(sha256: sha256, asked: [], lines: [:]) }
            file.asked.formUnion(wanted)
            file.lines.merge(lines) { _, new in new }
            s.used[path] = file
            store = s
            guard s.writable else { return }
            var w = CacheWriter()
            w.sourceLines(s.used)
            s.cache.store(entry, key: key, payload: w.bytes)
        }
    }
}

extension CacheWriter {
    package mutating func sourceLines(_ files: [String: SourceLineMemo.File]) {
        array(files.sorted { $0.key < $1.key }) { w, item in
            w.string(item.key)
            w.string(item.value.sha256)
            w.array(item.value.asked.sorted()) { $0.int($1) }
            w.array(item.value.lines.sorted { $0.key < $1.key }) { w, line in
                w.int(line.key)
                w.bytes(line.value)
            }
        }
    }
}

extension CacheReader {
    package mutating func sourceLines() throws(Malformed) -> [String: SourceLineMemo.File] {
        let items = try array { r throws(Malformed) -> (String, SourceLineMemo.File) in
            let path = try r.string(), sha256 = try r.string()
            let asked = try r.array { r throws(Malformed) in try r.int() }
            let lines = try r.array { r throws(Malformed) -> (Int, [UInt8]) in (try r.int(), try r.bytes()) }
            return (path, SourceLineMemo.File(sha256: sha256, asked: Set(asked), lines: Dictionary(lines) { _, new in new }))
        }
        return Dictionary(items) { _, new in new }
    }
}
