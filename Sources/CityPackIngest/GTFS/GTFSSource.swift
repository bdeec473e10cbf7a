import CityPackDiagnostics
import Foundation

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
        case zip(ZipReader, [String: ZipReader.Entry])
    }

    private let kind: Kind
    /// File name (`stops.txt`) → display path (`feed.zip/stops.txt`).
    let displayPaths: [String: String]
    /// File names present, sorted.
    var fileNames: [String] { displayPaths.keys.sorted() }
    /// The newest modification time recorded inside a zip for the feed's files (seconds since 1970, UTC); nil
    /// for a folder (its files' times are the file system's, not the data's) or when the archive records none.
    var archiveTime: Int64? {
        if case .zip(_, let entries) = kind { return entries.values.compactMap(\.modified).max() }
        return nil
    }
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
            let dirs = names.filter { !isFile(url.appendingPathComponent($0)) && !$0.hasPrefix(".") }.sorted()
            if !files.contains(where: { $0.hasSuffix(".txt") }) {
                var byFolder: [String: [String]] = [:]
                for dir in dirs {
                    let inner = ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(dir).path)) ?? [])
                        .filter { isFile(url.appendingPathComponent(dir).appendingPathComponent($0)) }
                    byFolder[dir] = inner
                }
                // No GTFS file one folder down either: say where the feed is, if it is somewhere.
                if !byFolder.values.contains(where: { $0.contains { GTFSSchema.isKnownFile($0) } }),
                    let why = Self.whereTheFeedIs(directory: url, displayPath: displayPath)
                {
                    bag.report(Rules.gtfsFeedNotFound, why, at: SourceLocation(file: displayPath))
                    return nil
                }
                switch subfolders(byFolder, displayPath: displayPath, bag: bag) {
                case .split: return nil
                case .one(let dir):
                    root = url.appendingPathComponent(dir)
                    prefix = "\(displayPath)/\(dir)"
                    files = byFolder[dir] ?? []
                case .none: break
                }
            }
            for name in files where !name.hasPrefix(".") { paths[name] = "\(prefix)/\(name)" }
            return GTFSSource(kind: .directory(root), displayPaths: paths, displayPath: displayPath, options: options)
        }
        let archive: ZipReader
        do {
            archive = try ZipReader(path: path, maxEntries: options.maxEntries)
        } catch {
            bag.report(Rules.gtfsInvalidArchive, "not a directory or a readable zip archive (\(error))",
                at: SourceLocation(file: displayPath))
            return nil
        }
        if archive.entryCountExceeded {
            bag.report(Rules.gtfsArchiveTooManyEntries,
                "archive has more than \(options.maxEntries) entries; not read", at: SourceLocation(file: displayPath))
            return nil
        }
        var entries: [String: ZipReader.Entry] = [:]
        var nested: [String: [String: ZipReader.Entry]] = [:]
        var declared: UInt64 = 0
        for entry in archive.entries where entry.isFile {
            let name = entry.path
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            // `..` as a component with either separator (zip tools on Windows honour backslashes), absolute
            // paths and drive letters: never used, since entries are never written to disk, but a sign of zip-slip.
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
        if !entries.keys.contains(where: { $0.hasSuffix(".txt") }) {
            if !nested.values.contains(where: { $0.keys.contains { GTFSSchema.isKnownFile($0) } }),
                let why = Self.whereTheFeedIs(archive: archive.entries.filter(\.isFile).map(\.path), displayPath: displayPath)
            {
                bag.report(Rules.gtfsFeedNotFound, why, at: SourceLocation(file: displayPath))
                return nil
            }
            switch subfolders(nested.mapValues { Array($0.keys) }, displayPath: displayPath, bag: bag) {
            case .split: return nil
            case .one(let folder):
                entries = nested[folder] ?? [:]
                prefix = "\(displayPath)/\(folder)"
            case .none: break
            }
        }
        var paths: [String: String] = [:]
        for name in entries.keys { paths[name] = "\(prefix)/\(name)" }
        return GTFSSource(kind: .zip(archive, entries), displayPaths: paths, displayPath: displayPath, options: options)
    }

    /// Why an archive with no GTFS file at its root or one folder down holds no feed, from its entry paths: a
    /// zip inside it, or GTFS files further down. Nil when neither (its files are then reported missing).
    static func whereTheFeedIs(archive paths: [String], displayPath: String) -> String? {
        let visible = paths.filter { !$0.hasPrefix("__MACOSX") }
        if let deep = visible.filter({ ($0 as NSString).lastPathComponent == "stops.txt" }).min(by: { $0.count < $1.count }) {
            let folder = (deep as NSString).deletingLastPathComponent
            return "no GTFS file at the archive's root: stops.txt is in `\(folder)/`, "
                + "\(folder.split(separator: "/").count) folders down; unzip it and pass that folder"
        }
        let zips = visible.filter { $0.lowercased().hasSuffix(".zip") }.sorted()
        if let inner = zips.first {
            return "the archive holds \(zips.count == 1 ? "another zip" : "\(zips.count) zips"), `\(inner)`, and no GTFS "
                + "file: unzip it and pass the inner zip (`unzip \(displayPath) \(inner)`, then --gtfs \(inner))"
        }
        return nil
    }

    /// Why a folder with no GTFS file at its root or one folder down holds no feed: zips in it, or GTFS files
    /// further down (up to 4 folders). Nil when neither.
    static func whereTheFeedIs(directory url: URL, displayPath: String) -> String? {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
        let zips = names.filter { $0.lowercased().hasSuffix(".zip") && isFile(url.appendingPathComponent($0)) }
        if let zip = zips.first {
            return "the folder holds \(zips.count == 1 ? "a zip" : "\(zips.count) zips"), `\(zip)`, and no GTFS file: "
                + "pass the zip itself (--gtfs \(displayPath)/\(zip))"
        }
        var level = [(url, "")]
        for depth in 1...4 {
            var next: [(URL, String)] = []
            for (dir, relative) in level {
                let children = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
                for child in children where !isFile(dir.appendingPathComponent(child)) {
                    let path = relative.isEmpty ? child : "\(relative)/\(child)"
                    let childURL = dir.appendingPathComponent(child)
                    if depth >= 2 && isFile(childURL.appendingPathComponent("stops.txt")) {
                        return "no GTFS file at the folder's root: stops.txt is in `\(path)/`, \(depth) folders down; "
                            + "pass that folder (--gtfs \(displayPath)/\(path))"
                    }
                    next.append((childURL, path))
                }
            }
            level = next
        }
        return nil
    }

    private enum Subfolders {
        case none
        case one(String)
        case split
    }

    /// A feed without GTFS files at its root: the folders inside that hold GTFS files (`files`: folder → file
    /// names). One such folder is read (`gtfs.files_in_subfolder`, info); several are an error naming them
    /// (`gtfs.invalid_input_files_in_subfolder`) and nothing is read, instead of every file being reported missing.
    private static func subfolders(_ files: [String: [String]], displayPath: String, bag: DiagnosticBag) -> Subfolders {
        let holding = files.filter { $0.value.contains { GTFSSchema.isKnownFile($0) } }.keys.sorted()
        guard !holding.isEmpty else {
            // No GTFS file anywhere: a lone folder is still tried (its files are then reported as missing there).
            if files.count == 1, let only = files.keys.first { return .one(only) }
            return .none
        }
        if holding.count == 1 {
            let folder = holding[0]
            bag.report(Rules.gtfsFilesInSubfolder,
                "the feed's files are in `\(folder)/`, not at its root; read from there",
                at: SourceLocation(file: "\(displayPath)/\(folder)"))
            return .one(folder)
        }
        let listing = holding.map { folder in
            "`\(folder)/` (" + files[folder, default: []].filter { GTFSSchema.isKnownFile($0) }.sorted().joined(separator: ", ") + ")"
        }.joined(separator: ", ")
        bag.report(Rules.gtfsFilesSplitAcrossSubfolders,
            "the feed's files are split across \(holding.count) folders: \(listing); GTFS files must all be at the "
                + "root of the feed, so none is read", at: SourceLocation(file: displayPath))
        return .split
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



    /// Opens one file for reading in pieces, or returns nil (after reporting) when it cannot be read or is
    /// declared too large. A zip entry may still fail while it is read (``GTFSFileStream/canFailLate``); call
    /// ``close(_:succeeded:)`` when done so its bytes count against the archive's `zip_size`.
    mutating func open(_ name: String, bag: DiagnosticBag) -> GTFSFileStream? {
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
                return try GTFSFileStream.file(url, path: shown, size: size, limit: options.maxFileSize)
            } catch {
                bag.report(Rules.packIOFailure, "cannot read file: \(error)", at: whole)
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
            // Sizes in headers are whatever the archive's author wrote: the limits hold on the inflated bytes.
            do {
                let stream = try archive.stream(entry, maxBytes: limit, maxRatio: options.maxCompressionRatio)
                return GTFSFileStream.entry(stream, path: shown, limit: limit)
            } catch {
                bag.report(Rules.gtfsInvalidArchive, "cannot read entry: \(error)", at: whole)
                return nil
            }
        }
    }

    /// A file opened with ``open(_:bag:)`` is done: a zip entry read whole counts against `zip_size`.
    mutating func close(_ stream: GTFSFileStream, succeeded: Bool) {
        if succeeded && stream.canFailLate { decompressed += stream.bytesRead }
    }
}
