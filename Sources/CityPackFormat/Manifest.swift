/// The per-pack manifest (`manifest.json`), what apps download first to decide whether to fetch a pack.
///
/// Encoded with sorted keys so identical builds give identical bytes.
public struct Manifest: Sendable, Codable, Equatable {
    public struct CityInfo: Sendable, Codable, Equatable {
        public var id: String
        public var name: String
        public var names: [String: String]
        public var defaultLocale: String
        public var locales: [String]
        public init(id: String, name: String, names: [String: String], defaultLocale: String, locales: [String]) {
            self.id = id
            self.name = name
            self.names = names
            self.defaultLocale = defaultLocale
            self.locales = locales
        }
    }

    public struct Artifact: Sendable, Codable, Equatable {
        /// Path of the compressed pack, relative to the manifest.
        public var path: String
        /// Compressed size in bytes.
        public var bytes: Int
        /// SHA-256 of the compressed file, lowercase hex.
        public var sha256: String
        public var uncompressedBytes: Int
        /// SHA-256 of the decompressed SQLite database, lowercase hex.
        public var uncompressedSha256: String
        public init(path: String, bytes: Int, sha256: String, uncompressedBytes: Int, uncompressedSha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.uncompressedBytes = uncompressedBytes
            self.uncompressedSha256 = uncompressedSha256
        }
    }

    public struct Counts: Sendable, Codable, Equatable {
        public var pois: Int
        /// POIs per category id.
        public var categories: [String: Int]
        /// GTFS stops in the pack (every location type); nil in manifests written before transit.
        public var stops: Int?
        /// GTFS lines (routes) in the pack; nil in manifests written before transit.
        public var lines: Int?
        /// Problem cards and walking routes in the pack; nil in manifests written before editorial content.
        public var cards: Int?
        public var routes: Int?
        public init(
            pois: Int, categories: [String: Int], stops: Int? = nil, lines: Int? = nil, cards: Int? = nil,
            routes: Int? = nil
        ) {
            self.pois = pois
            self.categories = categories
            self.stops = stops
            self.lines = lines
            self.cards = cards
            self.routes = routes
        }
    }

    public struct SourceFile: Sendable, Codable, Equatable {
        /// Path relative to the city directory.
        public var path: String
        public var bytes: Int
        public var sha256: String
        public init(path: String, bytes: Int, sha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// A file written beside the pack (copy tables), listed with its size and hash.
    public struct ArtifactFile: Sendable, Codable, Equatable {
        /// Path relative to the manifest, e.g. `copy/apple/Localizable.xcstrings`.
        public var path: String
        public var bytes: Int
        /// SHA-256, lowercase hex.
        public var sha256: String
        public init(path: String, bytes: Int, sha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// One part of the web flavour (`web/<name>.json.gz`, gzip'd JSON; see `docs/WEB.md`).
    public struct WebPart: Sendable, Codable, Equatable {
        /// `places`, `search`, `editorial` or `transit` (``WebFlavour``).
        public var name: String
        /// Path relative to the manifest, e.g. `web/places.json.gz`.
        public var path: String
        /// Size of the gzip'd file in bytes.
        public var bytes: Int
        /// SHA-256 of the gzip'd file, lowercase hex.
        public var sha256: String
        /// Size of the JSON after gunzip, in bytes.
        public var uncompressedBytes: Int
        public init(name: String, path: String, bytes: Int, sha256: String, uncompressedBytes: Int) {
            self.name = name
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.uncompressedBytes = uncompressedBytes
        }
    }

    /// The web flavour beside the pack: its parts, and the copy tables that hold its strings per locale.
    public struct Web: Sendable, Codable, Equatable {
        /// ``WebFlavour/formatVersion`` of the parts.
        public var format: Int
        /// The parts, sorted by name.
        public var parts: [WebPart]
        /// Locale → path (relative to the manifest) of the strings of that locale: the web copy table
        /// `copy/web/<locale>.json` listed in ``Manifest/copy``.
        public var strings: [String: String]
        public init(format: Int, parts: [WebPart], strings: [String: String]) {
            self.format = format
            self.parts = parts
            self.strings = strings
        }
    }

    public var formatVersion: Int
    /// Monotonic per city; bumped only when the pack's content changes.
    public var dataVersion: Int
    /// Oldest `CityPackKit` format version able to read the pack.
    public var minReaderVersion: Int
    /// ISO 8601 UTC (`SOURCE_DATE_EPOCH` when set).
    public var createdAt: String
    public var generator: String
    public var city: CityInfo
    /// `[minLon, minLat, maxLon, maxLat]`.
    public var bbox: [Double]
    public var counts: Counts
    public var artifact: Artifact
    /// `"<sha256 prefix>"` — a strong HTTP ETag for the compressed artifact.
    public var etag: String
    /// SHA-256 over the pack content without its data version; decides whether `dataVersion` is bumped.
    public var contentSha256: String
    public var sources: [SourceFile]
    public var attribution: String
    /// Copy tables beside the pack (web JSON, Apple String Catalog, Android strings.xml), sorted by path; nil in
    /// manifests written before copy output existed.
    public var copy: [ArtifactFile]?

    // Release metadata (docs/RELEASES.md). Optional so that manifests written before them still decode; decoding
    // ignores members it does not know, so newer manifests decode too.
    /// The locales the pack carries names and strings for (the city's supported locales).
    public var locales: [String]? = nil
    /// ISO 8601 UTC: the reproducible build time (`SOURCE_DATE_EPOCH`, else the data's newest timestamp) of the
    /// build that produced this data version. Rebuilds with unchanged content keep it; it never moves backwards.
    public var updatedAt: String? = nil
    /// Id of the Ed25519 key that signed the manifest (`DocumentSignature.keyID`); nil when unsigned.
    public var keyId: String? = nil
    /// Base64 Ed25519 signature over the canonical manifest without this member (`DocumentSignature`).
    public var signature: String? = nil
    /// The web flavour (`web/`), for clients without SQLite; nil in manifests written before it existed.
    public var web: Web? = nil

    public init(
        formatVersion: Int, dataVersion: Int, minReaderVersion: Int, createdAt: String, generator: String,
        city: CityInfo, bbox: [Double], counts: Counts, artifact: Artifact, etag: String, contentSha256: String,
        sources: [SourceFile], attribution: String, copy: [ArtifactFile]? = nil
    ) {
        self.formatVersion = formatVersion
        self.dataVersion = dataVersion
        self.minReaderVersion = minReaderVersion
        self.createdAt = createdAt
        self.generator = generator
        self.city = city
        self.bbox = bbox
        self.counts = counts
        self.artifact = artifact
        self.etag = etag
        self.contentSha256 = contentSha256
        self.sources = sources
        self.attribution = attribution
        self.copy = copy
    }
}
