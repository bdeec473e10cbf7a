import CityPackFormat
import CityPackSupport
import Foundation

/// `citypack publish OUTPUT --site DIR`: the folder to upload, holding exactly what apps read.
///
/// An output folder is a build folder: it holds the build cache (`.cache/`), reports that name the build
/// machine's paths, build statistics, the lock, older versions' packs. A site holds the closure of what the
/// catalog names: `catalog.json`; per city the manifest the catalog names (and `manifest.json` when it is the same
/// bytes), the pack, the deltas and manifest patches to it, the web flavour's parts, chunks and bundle and the copy tables its manifest lists.
/// Every file is checked against the size and SHA-256 its catalog or manifest gives before anything is written,
/// so a damaged build folder is never published.
///
/// Order, as a CDN upload must go: data files first (each through a temporary name and a rename; content-named
/// files already there with the same bytes are left alone), then the manifests, then `catalog.json`, so an app
/// never reads a catalog or manifest naming a file the site lacks. Then files neither this catalog nor the one it
/// replaced names are removed (one release of grace: an app that read the previous catalog can finish).
package enum SitePublisher {
    /// What a publish did.
    package struct Report: Sendable, Equatable, Encodable {
        /// Files the site holds now (relative paths, sorted).
        package var files: [String]
        /// Their bytes.
        package var bytes: Int64
        /// Files written (new or changed).
        package var written: [String]
        /// Files removed (named by neither the new catalog nor the previous one).
        package var removed: [String]
        /// Files kept from the previous release (named by its catalog only), for apps still fetching it.
        package var kept: [String]
    }

    /// Why a publish was refused; nothing was written.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// No such output folder, or no catalog in it.
        case missing(String)
        /// A file the catalog or a manifest names is absent, unreadable or not what it says.
        case damaged(path: String, detail: String)
        /// The site would be inside the output folder or the other way round.
        case overlapping(String)

        package var description: String {
            switch self {
            case .missing(let what): what
            case .damaged(let path, let detail): "\(path): \(detail); rebuild the city before publishing"
            case .overlapping(let detail): detail
            }
        }
    }

    /// One file to publish: its path relative to the site root and what its catalog or manifest says of it.
    struct Item: Hashable {
        var path: String
        var bytes: Int?
        var sha256: String?
    }

    /// Publishes `output` into `site` (created when absent).
    /// - Throws: ``Refusal`` (nothing written) or ``EmitError`` (I/O, located).
    package static func publish(output: String, site: String) throws -> Report {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Refusal.missing("no such folder: \(output)")
        }
        let outputRoot = URL(fileURLWithPath: output).standardizedFileURL.path
        let siteRoot = URL(fileURLWithPath: site).standardizedFileURL.path
        if siteRoot == outputRoot || siteRoot.hasPrefix(outputRoot + "/") || outputRoot.hasPrefix(siteRoot + "/") {
            throw Refusal.overlapping("the site \(site) and the output folder \(output) must not contain each other")
        }
        let lock = try OutputLock(outputDirectory: output)
        defer { lock.release() }
        do {
            let items = try closure(of: output)
            // The previous release's files, kept one release for apps that are fetching it now.
            let previous = (try? closure(of: site, checkFiles: false)).map { Set($0.map(\.path)) } ?? []
            for item in items { try check(item, in: output) }
            try OutputFiles.makeDirectory(site)
            var written: [String] = []
            let isPointer = { (path: String) in path == PackSchema.catalogName || path.hasSuffix(".json") && path.contains("manifest") }
            let data = items.filter { !isPointer($0.path) }.sorted { $0.path < $1.path }
            let manifests = items.filter { isPointer($0.path) && $0.path != PackSchema.catalogName }.sorted { $0.path < $1.path }
            let catalog = items.filter { $0.path == PackSchema.catalogName }
            for item in data + manifests + catalog {
                if try copyIfChanged(item.path, from: output, to: site) { written.append(item.path) }
            }
            AtomicFile.flushFolder(site)
            let wanted = Set(items.map(\.path))
            var removed: [String] = []
            var kept: [String] = []
            for path in files(under: site) where !wanted.contains(path) {
                if previous.contains(path) {
                    kept.append(path)
                } else {
                    unlink((site as NSString).appendingPathComponent(path))
                    removed.append(path)
                }
            }
            removeEmptyFolders(under: site)
            let all = files(under: site)
            let bytes = all.reduce(Int64(0)) { total, path in
                var info = stat()
                return total + (stat((site as NSString).appendingPathComponent(path), &info) == 0 ? Int64(info.st_size) : 0)
            }
            return Report(files: all, bytes: bytes, written: written, removed: removed.sorted(), kept: kept.sorted())
        }
    }

    /// Every file the catalog of `root` names, directly or through its manifests, relative to `root`.
    /// - Parameter checkFiles: whether a manifest that cannot be read is a refusal (else it is skipped: the
    ///   previous site's closure is a best effort).
    static func closure(of root: String, checkFiles: Bool = true) throws -> [Item] {
        let catalogPath = (root as NSString).appendingPathComponent(PackSchema.catalogName)
        guard let catalogBytes = FileManager.default.contents(atPath: catalogPath) else {
            throw Refusal.missing("no \(PackSchema.catalogName) in \(root): build a city there first")
        }
        guard let catalog = try? JSONDecoder().decode(Catalog.self, from: catalogBytes) else {
            throw Refusal.damaged(path: catalogPath, detail: "not a catalog")
        }
        var items: [Item] = [Item(path: PackSchema.catalogName)]
        for entry in catalog.packs {
            let manifestPath = try safe(entry.manifest, in: catalogPath)
            items.append(Item(path: manifestPath, sha256: entry.manifestSha256))
            items.append(Item(path: try safe(entry.path, in: catalogPath), bytes: entry.bytes, sha256: entry.sha256))
            for patch in entry.manifestPatches ?? [] {
                items.append(Item(path: try safe(patch.path, in: catalogPath), bytes: patch.bytes, sha256: patch.sha256))
            }
            let manifestFile = (root as NSString).appendingPathComponent(manifestPath)
            guard let bytes = FileManager.default.contents(atPath: manifestFile),
                let manifest = try? JSONDecoder().decode(Manifest.self, from: bytes)
            else {
                if checkFiles { throw Refusal.damaged(path: manifestFile, detail: "the manifest cannot be read") }
                continue
            }
            let folder = PathText.parent(manifestPath)
            func add(_ path: String, _ bytes: Int?, _ sha256: String?) throws {
                let relative = folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
                items.append(Item(path: try safe(relative, in: manifestFile), bytes: bytes, sha256: sha256))
            }
            for delta in manifest.deltas ?? [] { try add(delta.path, delta.bytes, delta.sha256) }
            for file in manifest.copy ?? [] { try add(file.path, file.bytes, file.sha256) }
            for part in manifest.web?.parts ?? [] {
                for file in part.files { try add(file.path, file.bytes, file.sha256) }
            }
            if let bundle = manifest.web?.bundle { try add(bundle.path, bundle.bytes, bundle.sha256) }
            for path in (manifest.web?.strings ?? [:]).values { try add(path, nil, nil) }
            // `manifest.json` (what README and the web demo open) when it is the same release's manifest.
            let current = folder.isEmpty ? PackSchema.manifestName : (folder as NSString).appendingPathComponent(PackSchema.manifestName)
            if current != manifestPath, FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(current)) == bytes {
                items.append(Item(path: current, sha256: FileDigest.sha256(of: bytes)))
            }
        }
        // One item per path, the one that says the most about it.
        var byPath: [String: Item] = [:]
        for item in items {
            if let known = byPath[item.path], known.sha256 != nil { continue }
            byPath[item.path] = item
        }
        return byPath.values.sorted { $0.path < $1.path }
    }

    /// A relative path a catalog or manifest names, refused when it could leave the site (absolute, `..`).
    static func safe(_ path: String, in document: String) throws -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if path.isEmpty || path.hasPrefix("/") || path.contains("\\") || parts.contains(where: { $0 == ".." || $0.isEmpty }) {
            throw Refusal.damaged(path: document, detail: "names the unsafe path \(path)")
        }
        return parts.filter { $0 != "." }.joined(separator: "/")
    }

    /// The file is there with the size and SHA-256 its document gives.
    static func check(_ item: Item, in root: String) throws {
        let path = (root as NSString).appendingPathComponent(item.path)
        let digest: FileDigest
        do { digest = try FileDigest(path: path) } catch {
            throw Refusal.damaged(path: path, detail: "is named by the catalog or a manifest but cannot be read")
        }
        if let bytes = item.bytes, bytes != digest.bytes {
            throw Refusal.damaged(path: path, detail: "has \(digest.bytes) bytes, its manifest says \(bytes)")
        }
        if let sha256 = item.sha256, sha256 != digest.sha256 {
            throw Refusal.damaged(path: path, detail: "its SHA-256 is \(digest.sha256.prefix(12))…, its manifest says \(sha256.prefix(12))…")
        }
    }

    /// Copies `path` from `from` to `to` through a hidden temporary name, flushed, renamed into place; nothing when
    /// the site already holds the same bytes. - Returns: whether it wrote.
    static func copyIfChanged(_ path: String, from: String, to: String) throws(EmitError) -> Bool {
        let source = (from as NSString).appendingPathComponent(path)
        let target = (to as NSString).appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: source) else {
            throw .io(path: source, message: "cannot read: \(errnoText())")
        }
        if let existing = FileManager.default.contents(atPath: target), existing == data { return false }
        try OutputFiles.createParent(of: target)
        try OutputFiles.writeAtomically(data, to: target)
        return true
    }

    /// Regular files under `root` (relative paths, sorted), hidden ones included: a site holds no hidden files
    /// of its own, so any is debris (an interrupted copy) or something uploaded by hand.
    static func files(under root: String) -> [String] {
        var out: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = (root as NSString).appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out.append(relative)
            }
        }
        return out.sorted()
    }

    /// Removes folders left empty under `root` (deepest first); `root` stays.
    static func removeEmptyFolders(under root: String) {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        var folders: [String] = []
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = (root as NSString).appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                folders.append(path)
            }
        }
        for folder in folders.sorted(by: { $0.count > $1.count }) { rmdir(folder) }
    }
}
