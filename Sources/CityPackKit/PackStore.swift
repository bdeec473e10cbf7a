import CityPackSupport
import Foundation

/// What ``PackStore`` found left over by an interrupted run (a killed process, a full disk) and removed.
package struct StoreCleanup: Sendable, Equatable {
    /// Removed entries, relative to the storage root (`monaco/.staging-…`, `monaco/v3`, …), sorted.
    package var removed: [String] = []
    /// Cities whose pointer named a version that was missing and fell back to the previous one.
    package var repaired: [String] = []

    package init(removed: [String] = [], repaired: [String] = []) {
        self.removed = removed
        self.repaired = repaired
    }
}

/// One installed city, as ``PackLibrary/installed()`` lists it.
public struct InstalledPack: Sendable, Equatable {
    /// The city id.
    public var city: String
    /// The installed (current) data version.
    public var version: Int
    /// Bytes the city takes on disk (every file of its folder, the kept previous version included).
    public var bytesOnDisk: Int64
    /// The dates the installed timetable covers (the manifest's `timetable`); nil without transit and for versions
    /// whose manifest predates it.
    public var timetable: TimetableCoverage? = nil
    /// The city's IANA time zone (the manifest's `city.timezone`, else its first feed's); nil when it names none.
    public var timeZone: String? = nil

    /// The last date of the timetable when it has ended by `date` in the city's time zone (the city's "data is
    /// old" mark: apps say so and offer the update), else nil.
    public func timetableEnded(at date: Date = Date()) -> ServiceDate? {
        guard let timetable else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        guard let today = ServiceDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) else { return nil }
        return timetable.position(of: today) == .after ? timetable.last : nil
    }
}

/// The on-disk layout of a ``PackLibrary`` (one folder per city):
///
/// ```
/// <root>/<city>/v<version>/pack.sqlite      the decompressed database
/// <root>/<city>/v<version>/manifest.json    the manifest as downloaded (its signature intact)
/// <root>/<city>/current.json                {"current":N} or {"current":N,"previous":M}: the pointer
/// <root>/<city>/.partial-v<version>/       a download being fetched and verified: manifest.json, the pack
///                                           or delta so far, resume.json (what it is and the server's validator)
/// <root>/.catalog/                          the last accepted catalog and its HTTP validators
/// ```
///
/// A version folder is complete before it is renamed into place, and it becomes the installed one only when the
/// pointer file (written under a temporary name, flushed, renamed, folder flushed) names it. The previous version
/// stays until the new one has opened. Anything else — staging folders, temporary files, versions the pointer does
/// not name — is debris of an interrupted run, removed by ``cleanUp()``, but a partial download with its
/// `resume.json`: the next run goes on from its bytes, and it is dropped only when the catalog no longer offers its
/// version, on cancel or removal, or when its bytes fail verification. Not thread-safe: one ``PackLibrary``
/// (one process) per root.
struct PackStore: Sendable {
    struct Pointer: Codable, Equatable, Sendable {
        var current: Int
        var previous: Int?
    }

    static let pointerName = "current.json"
    static let databaseName = "pack.sqlite"
    static let manifestName = "manifest.json"
    static let catalogFolder = ".catalog"

    let root: URL

    init(root: URL) throws(PackError) {
        self.root = root
        do { try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true) } catch {
            throw PackError.io(path: root.path, message: "\(error)")
        }
    }

    /// Whether `city` can name a folder: not empty, no slash, not hidden, no `..`.
    static func isValidCity(_ city: String) -> Bool {
        !city.isEmpty && !city.hasPrefix(".") && !city.contains("/") && !city.contains("\\") && city.utf8.count <= 200
    }

    func cityFolder(_ city: String) -> URL { root.appendingPathComponent(city, isDirectory: true) }
    func versionFolder(_ city: String, _ version: Int) -> URL { cityFolder(city).appendingPathComponent("v\(version)", isDirectory: true) }
    func database(_ city: String, _ version: Int) -> URL { versionFolder(city, version).appendingPathComponent(Self.databaseName) }
    func manifest(_ city: String, _ version: Int) -> URL { versionFolder(city, version).appendingPathComponent(Self.manifestName) }
    var catalogFolder: URL { root.appendingPathComponent(Self.catalogFolder, isDirectory: true) }

    // MARK: - Pointer

    func pointer(_ city: String) -> Pointer? {
        let url = cityFolder(city).appendingPathComponent(Self.pointerName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try? JSONDecoder().decode(Pointer.self, from: data)
    }

    /// Replaces the pointer atomically (temporary file, fsync, rename, folder fsync).
    func writePointer(_ pointer: Pointer, city: String) throws(PackError) {
        let folder = cityFolder(city)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(pointer) } catch { throw PackError.io(path: folder.path, message: "\(error)") }
        try Self.writeAtomically(data, to: folder.appendingPathComponent(Self.pointerName))
    }

    /// Writes `data` to a hidden temporary file beside `url`, flushes it, renames it over `url`, flushes the folder.
    static func writeAtomically(_ data: Data, to url: URL) throws(PackError) {
        do { try AtomicFile.write(data, to: url.path, mode: 0o600) } catch {
            throw PackError.io(path: url.path, message: error.message)
        }
    }

    // MARK: - Partial downloads

    /// What a partial download is, so a later run can go on from it.
    struct Partial: Codable, Equatable, Sendable {
        /// The data version being downloaded.
        var version: Int
        /// The file fetched (the catalog's path of the pack or delta) and what it must be.
        var path: String
        var bytes: Int
        var sha256: String
        /// The installed version it applies to (a delta's base), nil for a full pack.
        var base: Int?
        /// The server's validator of the bytes kept (strong ETag, else Last-Modified), for `If-Range`.
        var validator: String?
    }

    static let partialPrefix = ".partial-v"
    static let resumeName = "resume.json"

    func partialFolder(_ city: String, _ version: Int) -> URL {
        cityFolder(city).appendingPathComponent("\(Self.partialPrefix)\(version)", isDirectory: true)
    }

    /// The partial download of `city` (the newest, when several), with the bytes of it kept on disk.
    /// The newest partial download of `city`: its folder, its record, the bytes of its download file kept, and
    /// whether its manifest is kept (fetched whole or made from a patch: what it cost is the plan's to say).
    func partial(_ city: String) -> (folder: URL, info: Partial, keptBytes: Int64, manifestKept: Bool)? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: cityFolder(city).path)) ?? [])
            .filter { $0.hasPrefix(Self.partialPrefix) }
        var best: (folder: URL, info: Partial, keptBytes: Int64, manifestKept: Bool)?
        for name in names {
            let folder = cityFolder(city).appendingPathComponent(name, isDirectory: true)
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(Self.resumeName).path),
                let info = try? JSONDecoder().decode(Partial.self, from: data)
            else { continue }
            if let current = best, current.info.version >= info.version { continue }
            let kept = PackLibrary.size(of: folder.appendingPathComponent(Self.downloadName(info)))
            best = (folder, info, kept, FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.manifestName).path))
        }
        return best
    }

    /// The name of the downloaded file inside a partial folder.
    static func downloadName(_ info: Partial) -> String { info.base == nil ? "pack.citypack.gz" : "update.delta" }

    /// The folder for a download of `info`: the partial one of the same file when there is one (its bytes and
    /// validator kept), else a fresh one; partial folders of other versions are removed.
    func preparePartial(_ city: String, _ info: Partial) throws(PackError) -> (folder: URL, info: Partial) {
        let folder = partialFolder(city, info.version)
        var kept = info
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: cityFolder(city).path)) ?? [])
        for name in names where name.hasPrefix(Self.partialPrefix) && name != folder.lastPathComponent {
            removeTree(cityFolder(city).appendingPathComponent(name))
        }
        if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(Self.resumeName).path),
            let old = try? JSONDecoder().decode(Partial.self, from: data),
            old.path == info.path, old.sha256 == info.sha256, old.base == info.base
        {
            kept.validator = old.validator
        } else {
            removeTree(folder)
        }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw PackError.io(path: folder.path, message: "\(error)")
        }
        try writePartial(kept, in: folder)
        return (folder, kept)
    }

    /// Records what a partial folder holds (atomically; flushed, so it survives the app being killed).
    func writePartial(_ info: Partial, in folder: URL) throws(PackError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(info) } catch { throw PackError.io(path: folder.path, message: "\(error)") }
        try Self.writeAtomically(data, to: folder.appendingPathComponent(Self.resumeName))
    }

    /// Removes every partial download of `city`.
    func dropPartials(_ city: String) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: cityFolder(city).path)) ?? [])
        for name in names where name.hasPrefix(Self.partialPrefix) { removeTree(cityFolder(city).appendingPathComponent(name)) }
    }

    // MARK: - Staging and switching

    /// A new empty staging folder for a download of `city`.
    func newStaging(_ city: String) throws(PackError) -> URL {
        let url = cityFolder(city).appendingPathComponent(".staging-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw PackError.io(path: url.path, message: "\(error)")
        }
        return url
    }

    /// Renames a complete, verified staging folder to `v<version>` (replacing a stale folder of that name) and
    /// flushes the city folder. The version is not installed until ``writePointer(_:city:)`` names it.
    func commit(staging: URL, city: String, version: Int) throws(PackError) {
        let target = versionFolder(city, version)
        if FileManager.default.fileExists(atPath: target.path) { removeTree(target) }
        try PackFiles.replace(staging.path, with: target.path)
    }

    /// Removes a folder or file, tolerating its absence.
    func removeTree(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Removes a version folder and flushes the city folder.
    func removeVersion(_ city: String, _ version: Int) {
        removeTree(versionFolder(city, version))
        PackFiles.syncDirectory(cityFolder(city).path)
    }

    /// Removes a city: its folder is first renamed to a hidden name (atomic: the city is gone at once), then deleted.
    func remove(_ city: String) throws(PackError) {
        let folder = cityFolder(city)
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        let doomed = root.appendingPathComponent(".removing-\(city)-\(UUID().uuidString.prefix(8))")
        try PackFiles.replace(folder.path, with: doomed.path)
        removeTree(doomed)
        PackFiles.syncDirectory(root.path)
    }

    // MARK: - Listing and cleaning

    /// City folders (not hidden).
    func cities() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && isDirectory(root.appendingPathComponent($0)) }.sorted()
    }

    func isDirectory(_ url: URL) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &directory) && directory.boolValue
    }

    /// Installed cities with their current version and bytes on disk.
    func installed() -> [InstalledPack] {
        cities().compactMap { city in
            guard let pointer = pointer(city) else { return nil }
            var pack = InstalledPack(city: city, version: pointer.current, bytesOnDisk: bytes(under: cityFolder(city)))
            let manifestURL = versionFolder(city, pointer.current).appendingPathComponent(Self.manifestName)
            if let data = try? Data(contentsOf: manifestURL), let manifest = try? JSONDecoder().decode(Manifest.self, from: data) {
                if let range = manifest.timetable, let first = ServiceDate(range.first), let last = ServiceDate(range.last) {
                    pack.timetable = TimetableCoverage(first: first, last: last)
                }
                pack.timeZone = manifest.city.timezone ?? manifest.timezones?.first
            }
            return pack
        }
    }

    func bytes(under url: URL) -> Int64 {
        var total: Int64 = 0
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        for case let file as URL in walker {
            total += Int64((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
        return total
    }

    /// Removes what interrupted runs left: staging folders, temporary files, folders of removed cities, and version
    /// folders the pointer names neither as current nor as previous. A pointer whose current version folder is
    /// missing falls back to the previous one (or is removed when there is none).
    func cleanUp() -> StoreCleanup {
        var report = StoreCleanup()
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] where name.hasPrefix(".removing-") {
            removeTree(root.appendingPathComponent(name))
            report.removed.append(name)
        }
        for city in cities() {
            let folder = cityFolder(city)
            var pointer = self.pointer(city)
            if var p = pointer, !fm.fileExists(atPath: database(city, p.current).path) {
                if let previous = p.previous, fm.fileExists(atPath: database(city, previous).path) {
                    p = Pointer(current: previous, previous: nil)
                    try? writePointer(p, city: city)
                    pointer = p
                } else {
                    unlink(folder.appendingPathComponent(Self.pointerName).path)
                    pointer = nil
                }
                report.repaired.append(city)
            }
            let keep: Set<String> = Set([pointer?.current, pointer?.previous].compactMap { $0 }.map { "v\($0)" })
            for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
                if name == Self.pointerName || keep.contains(name) { continue }
                // A partial download with its resume record is kept: the next download goes on from it.
                if name.hasPrefix(Self.partialPrefix),
                    fm.fileExists(atPath: folder.appendingPathComponent(name).appendingPathComponent(Self.resumeName).path)
                {
                    continue
                }
                let isVersion = name.hasPrefix("v") && Int(name.dropFirst()) != nil
                if name.hasPrefix(".") || isVersion {
                    removeTree(folder.appendingPathComponent(name))
                    report.removed.append("\(city)/\(name)")
                }
            }
            if pointer == nil && ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty {
                removeTree(folder)
            }
            PackFiles.syncDirectory(folder.path)
        }
        for name in (try? fm.contentsOfDirectory(atPath: catalogFolder.path)) ?? [] where name.hasPrefix(".") {
            removeTree(catalogFolder.appendingPathComponent(name))
            report.removed.append("\(Self.catalogFolder)/\(name)")
        }
        report.removed.sort()
        return report
    }

    /// Free bytes for an unprivileged user on the file system holding the root (`statvfs`), nil when unknown.
    static func freeBytes(at url: URL) -> Int64? {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
