import CityPackFormat
import Foundation

/// What ``PackEmitter/emit(_:outputDirectory:options:)`` produced.
package struct EmitResult: Sendable {
    /// The manifest written. A result the build cache made reads it from ``manifestPath`` when first asked for:
    /// most of its 100 KB (a city with a web flavour) is the web listing, which a rebuild's stats never read.
    package var manifest: Manifest {
        get { lazyManifest.value }
        set {
            lazyManifest = LazyManifest(newValue)
            head = Manifest.Head(counts: newValue.counts, artifact: newValue.artifact)
        }
    }
    private var lazyManifest: LazyManifest
    /// The manifest's counts and artifact (what build-stats.json reads).
    package private(set) var head: Manifest.Head
    /// `<output>/<city>/manifest.json`.
    package var manifestPath: String
    /// The compressed pack.
    package var packPath: String
    /// `<output>/catalog.json`.
    package var catalogPath: String
    /// False when the content equals the previous build's (same data version, same bytes).
    package var changed: Bool
    /// Data versions whose pack and manifest were removed because they fell out of the kept window.
    package var pruned: [Int] = []
    /// Where the pack's bytes go (``EmitOptions/measureSizes``); nil when not measured or measuring failed.
    package var sizes: PackSizes?

    /// A result (the build cache makes one for a release that is already in place).
    package init(
        manifest: Manifest, manifestPath: String, packPath: String, catalogPath: String, changed: Bool,
        pruned: [Int] = [], sizes: PackSizes? = nil
    ) {
        lazyManifest = LazyManifest(manifest)
        head = Manifest.Head(counts: manifest.counts, artifact: manifest.artifact)
        self.manifestPath = manifestPath
        self.packPath = packPath
        self.catalogPath = catalogPath
        self.changed = changed
        self.pruned = pruned
        self.sizes = sizes
    }

    /// A result for a release already in place (the build cache): `head` read from the manifest at `manifestPath`
    /// (``Manifest/Head/read(_:)``), the whole manifest decoded from it when first asked for.
    package init(
        manifestAt manifestPath: String, head: Manifest.Head, packPath: String, catalogPath: String, sizes: PackSizes? = nil
    ) {
        lazyManifest = LazyManifest(path: manifestPath, head: head)
        self.head = head
        self.manifestPath = manifestPath
        self.packPath = packPath
        self.catalogPath = catalogPath
        self.changed = false
        self.sizes = sizes
    }
}

/// A manifest decoded on first use (it was checked when the result was made: an unreadable one gives an empty
/// manifest rather than a crash).
private final class LazyManifest: @unchecked Sendable {
    private let lock = NSLock()
    private var manifest: Manifest?
    private let path: String?
    private let head: Manifest.Head?

    init(_ manifest: Manifest) {
        self.manifest = manifest
        path = nil
        head = nil
    }

    init(path: String, head: Manifest.Head) {
        self.path = path
        self.head = head
    }

    var value: Manifest {
        lock.withLock {
            if let manifest { return manifest }
            let read = path.flatMap { FileManager.default.contents(atPath: $0) }.flatMap { try? JSONDecoder().decode(Manifest.self, from: $0) }
            let made = read ?? Manifest(
                formatVersion: 0, dataVersion: 0, minReaderVersion: 0, createdAt: "", generator: "",
                city: .init(id: "", name: "", names: [:], defaultLocale: "", locales: []), bbox: [],
                counts: head?.counts ?? .init(pois: 0, categories: [:]),
                artifact: head?.artifact ?? .init(path: "", bytes: 0, sha256: "", uncompressedBytes: 0, uncompressedSha256: ""),
                etag: "", contentSha256: "", sources: [], attribution: "")
            manifest = made
            return made
        }
    }
}
