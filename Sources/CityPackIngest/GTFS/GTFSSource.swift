import CityPackDiagnostics
import Foundation
import ZIPFoundation

/// Failures that are not findings about the data: the path itself cannot be used.
public enum GTFSReadError: Error, Sendable, Equatable {
    /// Nothing exists at the path.
    case notFound(String)
}

/// Where a feed's files come from: a directory or a zip archive. Files are looked up by name in the root or in
/// a single top-level folder. Sizes are bounded; unsafe zip entries are rejected.
struct GTFSSource {
    private enum Kind {
        case directory(URL)
        case zip(Archive, [String: Entry])
    }

    private let kind: Kind
    /// Size of the archive on disk: no entry can hold more compressed bytes than that, whatever its header says.
    private var archiveBytes: UInt64 = 0
    /// File name (`stops.txt`) → display path (`feed.zip/stops.txt`).
    let displayPaths: [String: String]
    /// File names present, sorted.
    var fileNames: [String] { displayPaths.keys.sorted() }
    private let displayPath: String
    private let options: GTFSReadOptions
    private var decompressed = 0

    /// Opens a feed. Returns nil (after reporting) when the path is not a usable directory or archive.
    /// - Throws: ``GTFSReadError/notFound(_:)`` when nothing exists at `path`.
    static func open(path: String, displayPath: String, options: GTFSReadOptions, bag: DiagnosticBag) throws
        -> GTFSSource?
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GTFSReadError.notFound(path)
        }
        let url = URL(fileURLWithPath: path)
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            var paths: [String: String] = [:]
            var root = url
            var prefix = displayPath
            var files = names.filter { isFile(url.appendingPathComponent($0)) }
            let dirs = names.filter { !isFile(url.appendingPathComponent($0)) && !$0.hasPrefix(".") }
            if !files.contains(where: { $0.hasSuffix(".txt") }), dirs.count == 1 {
                root = url.appendingPathComponent(dirs[0])
                prefix = "\(displayPath)/\(dirs[0])"
                files = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
                    .filter { isFile(root.appendingPathComponent($0)) }
            }
            for name in files where !name.hasPrefix(".") { paths[name] = "\(prefix)/\(name)" }
            return GTFSSource(kind: .directory(root), displayPaths: paths, displayPath: displayPath, options: options)
        }
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            bag.report(Rules.gtfsInvalidArchive, "not a directory or a readable zip archive",
                at: SourceLocation(file: displayPath))
            return nil
        }
        var entries: [String: Entry] = [:]
        var nested: [String: [String: Entry]] = [:]
        var declared: UInt64 = 0
        var count = 0
        for entry in archive {
            count += 1
            if count > options.maxEntries {
                bag.report(Rules.gtfsArchiveTooManyEntries,
                    "archive has more than \(options.maxEntries) entries; not read", at: SourceLocation(file: displayPath))
                return nil
            }
            guard entry.type == .file else { continue }
            let name = entry.path
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            // `..` as a component with either separator (zip tools on Windows honour backslashes), absolute
            // paths and drive letters: never used, since entries are read into memory, but a sign of zip-slip.
            let components = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
            if name.hasPrefix("/") || name.hasPrefix("\\") || components.contains("..") || name.contains(":")
            {
                bag.report(Rules.gtfsUnsafeArchiveEntry, "zip entry `\(name)` has an unsafe path; ignored",
                    at: SourceLocation(file: displayPath), entity: name)
                continue
            }
            let (sum, overflow) = declared.addingReportingOverflow(entry.uncompressedSize)
            declared = overflow ? .max : sum
            if parts.count == 1 {
                entries[name] = entry
            } else if parts.count == 2, !parts[0].hasPrefix("__MACOSX"), !parts[1].isEmpty {
                nested[String(parts[0]), default: [:]][String(parts[1])] = entry
            }
        }
        if declared > UInt64(options.maxTotalSize) {
            bag.report(Rules.gtfsArchiveTooLarge,
                "archive declares \(declared) decompressed bytes, over the limit of \(options.maxTotalSize)",
                at: SourceLocation(file: displayPath))
            return nil
        }
        var prefix = displayPath
        if !entries.keys.contains(where: { $0.hasSuffix(".txt") }), nested.count == 1, let (folder, inner) = nested.first {
            entries = inner
            prefix = "\(displayPath)/\(folder)"
        }
        var paths: [String: String] = [:]
        for name in entries.keys { paths[name] = "\(prefix)/\(name)" }
        var source = GTFSSource(kind: .zip(archive, entries), displayPaths: paths, displayPath: displayPath, options: options)
        source.archiveBytes = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.uint64Value ?? 0
        return source
    }

    private init(kind: Kind, displayPaths: [String: String], displayPath: String, options: GTFSReadOptions) {
        self.kind = kind
        self.displayPaths = displayPaths
        self.displayPath = displayPath
        self.options = options
    }

    private static func isFile(_ url: URL) -> Bool {
        var dir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &dir) && !dir.boolValue
    }

    private struct SizeExceeded: Error {}
    private struct RatioExceeded: Error {}

    /// The bytes of one file, or nil (after reporting) when it cannot be read or is too large.
    mutating func load(_ name: String, bag: DiagnosticBag) -> Data? {
        guard let shown = displayPaths[name] else { return nil }
        let whole = SourceLocation(file: shown)
        switch kind {
        case .directory(let root):
            let url = root.appendingPathComponent(name)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            if size > options.maxFileSize {
                bag.report(Rules.csvFileTooLarge, "file is \(size) bytes, over the limit of \(options.maxFileSize)",
                    at: whole)
                return nil
            }
            do {
                return try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                bag.report(Rules.packIOFailure, "cannot read file: \(error.localizedDescription)", at: whole)
                return nil
            }
        case .zip(let archive, let entries):
            guard let entry = entries[name] else { return nil }
            let limit = min(options.maxFileSize, options.maxTotalSize - decompressed)
            if entry.uncompressedSize > UInt64(max(limit, 0)) {
                bag.report(Rules.gtfsArchiveTooLarge,
                    "entry is \(entry.uncompressedSize) bytes decompressed, over the remaining limit of \(limit)",
                    at: whole)
                return nil
            }
            // Headers can lie both ways: the ratio is checked against the smaller of the declared compressed size
            // and the archive's size, with 1 MiB of slack so tiny, very repetitive tables are never flagged.
            let compressed = min(entry.compressedSize, archiveBytes == 0 ? entry.compressedSize : archiveBytes)
            let ratio = UInt64(max(options.maxCompressionRatio, 1))
            let (product, overflow) = max(compressed, 1).multipliedReportingOverflow(by: ratio)
            let ratioLimit = max(overflow ? UInt64.max : product, 1 << 20)
            var data = Data()
            data.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(max(limit, 0)), 64 << 20)))
            do {
                _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: false) { chunk in
                    // Never trust the declared size: enforce the limits on what is actually inflated.
                    if data.count + chunk.count > limit { throw SizeExceeded() }
                    if UInt64(data.count + chunk.count) > ratioLimit { throw RatioExceeded() }
                    data.append(chunk)
                }
            } catch is SizeExceeded {
                bag.report(Rules.gtfsArchiveTooLarge, "entry inflates beyond the limit of \(limit) bytes", at: whole)
                return nil
            } catch is RatioExceeded {
                bag.report(Rules.gtfsZipBomb,
                    "entry inflates to more than \(ratio) times its \(compressed) compressed bytes (a zip bomb?); not read",
                    at: whole)
                return nil
            } catch {
                bag.report(Rules.gtfsInvalidArchive, "cannot decompress entry: \(error)", at: whole)
                return nil
            }
            decompressed += data.count
            return data
        }
    }
}
