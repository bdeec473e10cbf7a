import CityPackFormat
import CityPackSupport
import Foundation

/// The pieces of the previous build's emit step that the next one may reuse (part of the build cache), so that
/// an edit of an editorial row or a copy string rewrites only what it touches:
/// - `base.sqlite`: the pack database before the editorial and copy tables (``PackWriter/writeBase(_:to:)``),
///   under ``baseKey``;
/// - `web/`: the web parts made from the base alone (places, search, transit), under the base's SHA-256;
/// - `gz/`: the compressed chunks of the last pack (``ChunkedGzip``), under their input's SHA-256;
/// - `sizes-values.json`: what each table's and index's pages compressed to (`build-stats.json`'s sizes), under
///   the pages' SHA-256.
///
/// A clean build takes the very same steps (base, then editorial tables, then chunks), so the bytes are the
/// same with or without these pieces. Every piece is checked against a SHA-256 before use; one that does not
/// check out is left unused, named in ``notes`` (the build reports `pack.cache_ignored`), and made again.
public final class EmitReuse: @unchecked Sendable {
    /// Folder of the pieces (`<output>/.cache/<city>/emit`).
    public let directory: String
    /// Key of everything the base database is made from (all the emit stage reads but the editorial and copy
    /// folders), as the build cache computes it.
    public let baseKey: String
    private let lock = NSLock()
    private var ignored: [(path: String, why: String)] = []

    public init(directory: String, baseKey: String) {
        self.directory = directory
        self.baseKey = baseKey
    }

    /// The pieces that were found damaged or foreign, with why.
    public var notes: [(path: String, why: String)] { lock.withLock { ignored } }

    func ignore(_ path: String, _ why: String) { lock.withLock { ignored.append((path, why)) } }

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// What a stored piece is: its key and the SHA-256 and size of its bytes.
    struct Stamp: Codable, Equatable {
        var key: String
        var sha256: String
        var bytes: Int
        /// The web parts made from a base (for `web.json`).
        var parts: [Manifest.WebPart]?
    }

    func stamp(_ name: String) -> Stamp? {
        guard let data = FileManager.default.contents(atPath: path(name)) else { return nil }
        guard let stamp = try? JSONDecoder().decode(Stamp.self, from: data) else {
            ignore(path(name), "not a stamp this version writes")
            return nil
        }
        return stamp
    }

    func setStamp(_ name: String, _ stamp: Stamp) {
        guard let data = try? JSONEncoder().encode(stamp) else { return }
        try? OutputFiles.writeAtomically(data, to: path(name))
    }

    // MARK: the base database

    /// Copies the stored base database to `database` when it was made under ``baseKey`` and still has its bytes,
    /// and returns its digest.
    func loadBase(to database: String) -> FileDigest? {
        guard let stamp = stamp("base.json"), stamp.key == baseKey else { return nil }
        guard (try? OutputFiles.copy(path("base.sqlite"), to: database)) != nil,
            let digest = try? OutputFiles.digest(database), digest.sha256 == stamp.sha256, digest.bytes == stamp.bytes
        else {
            unlink(database)
            ignore(path("base.sqlite"), "its bytes do not match base.json")
            return nil
        }
        return digest
    }

    /// Keeps a copy of the base database just written.
    func storeBase(from database: String, digest: FileDigest) {
        guard (try? OutputFiles.makeDirectory(directory)) != nil else { return }
        let temporary = path(".base.sqlite.tmp")
        guard (try? OutputFiles.copy(database, to: temporary)) != nil, (try? OutputFiles.rename(temporary, path("base.sqlite"))) != nil
        else {
            unlink(temporary)
            return
        }
        setStamp("base.json", Stamp(key: baseKey, sha256: digest.sha256, bytes: digest.bytes))
    }

    // MARK: the web parts made from the base

    /// The web parts stored for the base with SHA-256 `base`, copied into the staged web `folder`; nil when there
    /// are none for it or one does not check out.
    func loadWebParts(base: String, into folder: String, prefix: String) -> [Manifest.WebPart]? {
        guard let stamp = stamp("web.json"), stamp.key == Self.webKey(base), let parts = stamp.parts else { return nil }
        for part in parts.flatMap(\.files) {
            let file = (part.path as NSString).lastPathComponent
            let staged = (folder as NSString).appendingPathComponent(file)
            guard part.path == "\(prefix)/\(file)", (try? OutputFiles.copy(path("web/\(file)"), to: staged)) != nil,
                let digest = try? OutputFiles.digest(staged), digest.sha256 == part.sha256, digest.bytes == part.bytes
            else {
                ignore(path("web/\(file)"), "its bytes do not match web.json")
                return nil
            }
        }
        return parts
    }

    /// Keeps the web parts made from the base with SHA-256 `base` (staged in `folder`), replacing older ones.
    func storeWebParts(_ parts: [Manifest.WebPart], base: String, from folder: String) {
        let web = path("web")
        try? FileManager.default.removeItem(atPath: web)
        guard (try? OutputFiles.makeDirectory(web)) != nil else { return }
        for part in parts.flatMap(\.files) {
            let file = (part.path as NSString).lastPathComponent
            guard (try? OutputFiles.copy((folder as NSString).appendingPathComponent(file), to: path("web/\(file)"))) != nil else { return }
        }
        setStamp("web.json", Stamp(key: Self.webKey(base), sha256: "", bytes: 0, parts: parts))
    }

    /// The key of stored web parts: the base's SHA-256 and the web format (parts of another layout never return).
    static func webKey(_ base: String) -> String { "\(base) web \(WebFlavour.formatVersion)" }

    // MARK: measured sizes

    /// Compressed sizes of the last pack's objects by their pages' SHA-256 (`sizes.json`, checked by its stamp).
    func knownSizes() -> [String: Int] {
        guard let stamp = stamp("sizes.json"), let data = FileManager.default.contents(atPath: path("sizes-values.json")) else { return [:] }
        guard FileDigest.sha256(of: data) == stamp.sha256, let sizes = try? JSONDecoder().decode([String: Int].self, from: data) else {
            ignore(path("sizes-values.json"), "its bytes do not match sizes.json")
            return [:]
        }
        return sizes
    }

    /// Keeps this build's measured sizes for the next.
    func storeSizes(_ sizes: [String: Int]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard (try? OutputFiles.makeDirectory(directory)) != nil, let data = try? encoder.encode(sizes),
            (try? OutputFiles.writeAtomically(data, to: path("sizes-values.json"))) != nil
        else { return }
        setStamp("sizes.json", Stamp(key: "sizes", sha256: FileDigest.sha256(of: data), bytes: data.count))
    }

    // MARK: compressed chunks

    /// The chunk store of the pack's gzip.
    var chunks: GzipChunkStore { GzipChunkStore(reuse: self) }
}

/// Compressed chunks by the SHA-256 (and level) of their input: `gz/<key>`, each file the SHA-256 of the
/// compressed bytes followed by them.
final class GzipChunkStore {
    private let reuse: EmitReuse
    private let folder: String
    private var ready = false

    init(reuse: EmitReuse) {
        self.reuse = reuse
        folder = reuse.path("gz")
    }

    /// The compressed bytes stored for `key`, when they check out.
    func chunk(_ key: String) -> [UInt8]? {
        let file = (folder as NSString).appendingPathComponent(key)
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let payload = [UInt8](data.dropFirst(32))
        guard data.count > 32, FileDigest.sha256Bytes(of: payload) == [UInt8](data.prefix(32)) else {
            reuse.ignore(file, "its bytes do not match their SHA-256")
            return nil
        }
        return payload
    }

    /// Stores the compressed bytes of `key`.
    func put(_ key: String, _ compressed: [UInt8]) {
        if !ready {
            ready = (try? OutputFiles.makeDirectory(folder)) != nil
            guard ready else { return }
        }
        let file = (folder as NSString).appendingPathComponent(key)
        try? OutputFiles.writeAtomically(Data(compressed.withUnsafeBytes { FileDigest.sha256Bytes(of: $0) } + compressed), to: file)
    }

    /// Removes every stored chunk but `keys` (the last pack's): the store never outgrows one pack.
    func keepOnly(_ keys: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !keys.contains(name) {
            unlink((folder as NSString).appendingPathComponent(name))
        }
    }
}
