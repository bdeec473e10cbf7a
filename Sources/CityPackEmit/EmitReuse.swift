import CityPackFormat
import CityPackSupport
import Foundation

/// The pieces of the previous build's emit step that the next one may reuse (part of the build cache), so that
/// an edit of an editorial row or a copy string rewrites only what it touches:
/// - `base.entry`: the pack database before the editorial and copy tables (``PackWriter/writeBase(_:to:)``),
///   under ``baseKey``;
/// - `web.entry`: the web parts made from the base alone (places, search, transit), under the base's SHA-256;
/// - `sizes.entry`: what each table's and index's pages compressed to (`build-stats.json`'s sizes), by the
///   pages' SHA-256.
///
/// A clean build takes the very same steps (base, then editorial tables), so the bytes are the
/// same with or without these pieces. Every piece is a ``CacheFile`` (the stage entries' format: one integrity
/// check); one that does not check out is left unused, named in ``notes`` (the build reports
/// `pack.cache_ignored`), and made again.
package final class EmitReuse: @unchecked Sendable {
    /// Folder of the pieces (`<output>/.cache/<city>/emit`).
    package let directory: String
    /// Key of everything the base database is made from (all the emit stage reads but the editorial and copy
    /// folders), as the build cache computes it.
    package let baseKey: String
    private let lock = NSLock()
    private var ignored: [(path: String, why: String)] = []
    /// The ``CacheFile`` scope of the pieces.
    static let scope = "emit"

    package init(directory: String, baseKey: String) {
        self.directory = directory
        self.baseKey = baseKey
    }

    /// The pieces that were found damaged or foreign, with why.
    package var notes: [(path: String, why: String)] { lock.withLock { ignored } }

    func ignore(_ path: String, _ why: String) { lock.withLock { ignored.append((path, why)) } }

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// The payload of piece `name` (file `name` under ``directory``) stored under `key`, and its SHA-256; nil when
    /// there is none for the key, or it is damaged (then in ``notes``).
    func load<T>(_ name: String, key: String, _ use: (UnsafeRawBufferPointer, [UInt8]) -> T?) -> T? {
        switch CacheFile.read(path(name), scope: Self.scope, name: name, key: FileDigest.sha256Bytes(of: Array(key.utf8))) {
        case .missing, .otherKey: return nil
        case .damaged(let why):
            ignore(path(name), why)
            return nil
        case .payload(let data, let start, let sha256):
            guard let value = data.withUnsafeBytes({ use(UnsafeRawBufferPointer(rebasing: $0[start...]), sha256) }) else {
                ignore(path(name), "its payload does not decode")
                return nil
            }
            return value
        }
    }

    /// Stores `payload` as piece `name` under `key` (its folder made when missing).
    func store(_ name: String, key: String, payload: UnsafeRawBufferPointer) {
        guard (try? OutputFiles.makeDirectory(PathText.parent(path(name)))) != nil else { return }
        CacheFile.write(path(name), scope: Self.scope, name: name, key: FileDigest.sha256Bytes(of: Array(key.utf8)), payload: payload)
    }

    // MARK: the base database

    /// Writes the stored base database to `database` when it was made under ``baseKey``, and returns its digest.
    func loadBase(to database: String) -> FileDigest? {
        load("base.entry", key: baseKey) { bytes, sha256 -> FileDigest? in
            // A staged working copy: not flushed (``OutputFiles/copy(_:to:)``).
            guard (try? Data(bytes).write(to: URL(fileURLWithPath: database))) != nil else { return nil }
            return FileDigest(bytes: bytes.count, sha256: FileDigest.hex(sha256))
        }
    }

    /// Keeps a copy of the base database just written.
    func storeBase(from database: String, digest: FileDigest) {
        guard let data = FileManager.default.contents(atPath: database), data.count == digest.bytes else { return }
        data.withUnsafeBytes { store("base.entry", key: baseKey, payload: $0) }
    }

    // MARK: the web parts made from the base

    /// The web parts stored for the base with SHA-256 `base`, copied into the staged web `folder`; nil when there
    /// are none for it or they do not check out. Payload: the parts as JSON (UInt32 length first), then each
    /// part's file bytes (UInt64 length first), in the parts' order.
    func loadWebParts(base: String, into folder: String, prefix: String) -> [Manifest.WebPart]? {
        load("web.entry", key: Self.webKey(base)) { payload, _ -> [Manifest.WebPart]? in
            var offset = 0
            func take(_ n: Int) -> UnsafeRawBufferPointer? {
                guard n >= 0, payload.count - offset >= n else { return nil }
                defer { offset += n }
                return UnsafeRawBufferPointer(rebasing: payload[offset..<offset + n])
            }
            func length<T: FixedWidthInteger>(_: T.Type) -> Int? { take(MemoryLayout<T>.size).map { Int(T(littleEndian: $0.loadUnaligned(as: T.self))) } }
            guard let n = length(UInt32.self), let json = take(n),
                let parts = try? JSONDecoder().decode([Manifest.WebPart].self, from: Data(json))
            else { return nil }
            for part in parts.flatMap(\.files) {
                let file = (part.path as NSString).lastPathComponent
                guard part.path == "\(prefix)/\(file)", let n = length(UInt64.self), let bytes = take(n),
                    (try? Data(bytes).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(file)))) != nil
                else { return nil }
            }
            return offset == payload.count ? parts : nil
        }
    }

    /// Keeps the web parts made from the base with SHA-256 `base` (staged in `folder`), replacing older ones.
    func storeWebParts(_ parts: [Manifest.WebPart], base: String, from folder: String) {
        guard let json = try? JSONEncoder().encode(parts) else { return }
        var payload: [UInt8] = []
        func length<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { payload.append(contentsOf: $0) } }
        length(UInt32(json.count))
        payload.append(contentsOf: json)
        for part in parts.flatMap(\.files) {
            guard let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent((part.path as NSString).lastPathComponent))
            else { return }
            length(UInt64(data.count))
            payload.append(contentsOf: data)
        }
        payload.withUnsafeBytes { store("web.entry", key: Self.webKey(base), payload: $0) }
    }

    /// The key of stored web parts: the base's SHA-256 and the web format (parts of another layout never return).
    static func webKey(_ base: String) -> String { "\(base) web \(WebFlavour.formatVersion)" }

    // MARK: measured sizes

    /// Compressed sizes of the last pack's objects by their pages' SHA-256.
    func knownSizes() -> [String: Int] {
        load("sizes.entry", key: "sizes") { payload, _ in try? JSONDecoder().decode([String: Int].self, from: Data(payload)) } ?? [:]
    }

    /// Keeps this build's measured sizes for the next.
    func storeSizes(_ sizes: [String: Int]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(sizes) else { return }
        data.withUnsafeBytes { store("sizes.entry", key: "sizes", payload: $0) }
    }

    /// Removes the compressed chunks an earlier version kept (`gz/`): the pack is now compressed whole, faster
    /// than the chunks could be looked up.
    func removeChunks() {
        let folder = path("gz")
        guard FileManager.default.fileExists(atPath: folder) else { return }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
