import Foundation
/// The per-pack manifest (`manifest.json`), what apps download first to decide whether to fetch a pack.
///
/// Encoded with sorted keys so identical builds give identical bytes.
package struct Manifest: Sendable, Codable, Equatable {
    package struct CityInfo: Sendable, Codable, Equatable {
        package var id: String
        package var name: String
        package var names: [String: String]
        package var defaultLocale: String
        package var locales: [String]
        /// The city's IANA time zone (pack meta `timezone`): the clock of "open now"; nil in manifests written
        /// before it.
        package var timezone: String? = nil
        package init(id: String, name: String, names: [String: String], defaultLocale: String, locales: [String]) {
            self.id = id
            self.name = name
            self.names = names
            self.defaultLocale = defaultLocale
            self.locales = locales
        }
    }

    package struct Artifact: Sendable, Codable, Equatable {
        /// Path of the compressed pack, relative to the manifest.
        package var path: String
        /// Compressed size in bytes.
        package var bytes: Int
        /// SHA-256 of the compressed file, lowercase hex.
        package var sha256: String
        package var uncompressedBytes: Int
        /// SHA-256 of the decompressed SQLite database, lowercase hex.
        package var uncompressedSha256: String
        package init(path: String, bytes: Int, sha256: String, uncompressedBytes: Int, uncompressedSha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.uncompressedBytes = uncompressedBytes
            self.uncompressedSha256 = uncompressedSha256
        }
    }

    package struct Counts: Sendable, Codable, Equatable {
        package var pois: Int
        /// POIs per category id.
        package var categories: [String: Int]
        /// GTFS stops in the pack (every location type); nil in manifests written before transit.
        package var stops: Int?
        /// GTFS lines (routes) in the pack; nil in manifests written before transit.
        package var lines: Int?
        /// Problem cards and walking routes in the pack; nil in manifests written before editorial content.
        package var cards: Int?
        package var routes: Int?
        package init(
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

    package struct SourceFile: Sendable, Codable, Equatable {
        /// Path relative to the city directory.
        package var path: String
        package var bytes: Int
        package var sha256: String
        package init(path: String, bytes: Int, sha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// A file written beside the pack (copy tables), listed with its size and hash.
    package struct ArtifactFile: Sendable, Codable, Equatable {
        /// Path relative to the manifest, e.g. `copy/apple/Localizable.xcstrings`.
        package var path: String
        package var bytes: Int
        /// SHA-256, lowercase hex.
        package var sha256: String
        package init(path: String, bytes: Int, sha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// A delta from a kept previous data version to this one (`docs/RELEASES.md`, ``PackDelta``): apply it to the
    /// installed database of version `from` to get this version's database byte for byte.
    package struct Delta: Sendable, Codable, Equatable {
        /// Data version the delta applies to.
        package var from: Int
        /// Data version it produces (this manifest's).
        package var to: Int
        /// Path of the delta file, relative to the manifest (in the catalog: relative to the catalog).
        package var path: String
        /// Size of the delta file (what the app downloads) in bytes.
        package var bytes: Int
        /// SHA-256 of the delta file, lowercase hex.
        package var sha256: String
        /// Size and SHA-256 of the decompressed database of version `from` (the installed base).
        package var baseBytes: Int
        package var baseSha256: String
        /// Size and SHA-256 of the decompressed database the delta produces (`artifact.uncompressedSha256`).
        package var resultBytes: Int
        package var resultSha256: String

        package init(
            from: Int, to: Int, path: String, bytes: Int, sha256: String, baseBytes: Int, baseSha256: String,
            resultBytes: Int, resultSha256: String
        ) {
            self.from = from
            self.to = to
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.baseBytes = baseBytes
            self.baseSha256 = baseSha256
            self.resultBytes = resultBytes
            self.resultSha256 = resultSha256
        }
    }

    /// One content-addressed file of the web flavour (a chunk of a part; see `docs/WEB.md`).
    package struct WebFile: Sendable, Codable, Equatable {
        /// Path relative to the manifest, e.g. `web/rows-5b2c6834cff445de.json.gz`.
        package var path: String
        /// Size of the gzip'd file in bytes.
        package var bytes: Int
        /// SHA-256 of the gzip'd file, lowercase hex.
        package var sha256: String
        /// Size after gunzip, in bytes.
        package var uncompressedBytes: Int
        package init(path: String, bytes: Int, sha256: String, uncompressedBytes: Int) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.uncompressedBytes = uncompressedBytes
        }
    }

    /// One part of the web flavour: a head file (`web/<name>-<sha16>.json.gz`, gzip'd JSON) and, since web format 2,
    /// its chunks in order (see `docs/WEB.md`).
    package struct WebPart: Sendable, Codable, Equatable {
        /// `places`, `search`, `editorial` or `transit` (``WebFlavour``).
        package var name: String
        /// Path of the head file relative to the manifest, e.g. `web/places-5b2c6834cff445de.json.gz`.
        package var path: String
        /// Size of the gzip'd head file in bytes.
        package var bytes: Int
        /// SHA-256 of the gzip'd head file, lowercase hex.
        package var sha256: String
        /// Size of the head's JSON after gunzip, in bytes.
        package var uncompressedBytes: Int
        /// The part's further files in order (row chunks of `places`, JSON text pieces of `transit`); nil (absent)
        /// when the head is the whole part.
        package var chunks: [WebFile]? = nil
        package init(name: String, path: String, bytes: Int, sha256: String, uncompressedBytes: Int, chunks: [WebFile]? = nil) {
            self.name = name
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.uncompressedBytes = uncompressedBytes
            self.chunks = chunks
        }

        /// Every file of the part: the head, then the chunks.
        package var files: [WebFile] {
            [WebFile(path: path, bytes: bytes, sha256: sha256, uncompressedBytes: uncompressedBytes)] + (chunks ?? [])
        }

        /// Bytes of every file of the part.
        package var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }
    }

    /// The web flavour beside the pack: its parts, and the copy tables that hold its strings per locale.
    package struct Web: Sendable, Codable, Equatable {
        /// ``WebFlavour/formatVersion`` of the parts.
        package var format: Int
        /// The parts, sorted by name.
        package var parts: [WebPart]
        /// Locale → path (relative to the manifest) of the strings of that locale: the web copy table
        /// `copy/web/<locale>.json` listed in ``Manifest/copy``.
        package var strings: [String: String]
        /// Every part and chunk file in one (``bundleMembers``, concatenated): what a first download fetches in one
        /// request, resumable with `Range` from the first member it lacks. Nil in manifests written before it existed.
        package var bundle: ArtifactFile? = nil
        package init(format: Int, parts: [WebPart], strings: [String: String], bundle: ArtifactFile? = nil) {
            self.format = format
            self.parts = parts
            self.strings = strings
            self.bundle = bundle
        }

        /// The files of ``bundle`` in order: per part its head then its chunks, each path once.
        package var bundleMembers: [WebFile] {
            var seen = Set<String>()
            return parts.flatMap(\.files).filter { seen.insert($0.path).inserted }
        }
    }

    package var formatVersion: Int
    /// Monotonic per city; bumped only when the pack's content changes.
    package var dataVersion: Int
    /// Oldest `CityPackKit` format version able to read the pack.
    package var minReaderVersion: Int
    /// ISO 8601 UTC (`SOURCE_DATE_EPOCH` when set).
    package var createdAt: String
    package var generator: String
    package var city: CityInfo
    /// `[minLon, minLat, maxLon, maxLat]`.
    package var bbox: [Double]
    package var counts: Counts
    package var artifact: Artifact
    /// `"<sha256 prefix>"` — a content tag of the compressed artifact, quoted like an ETag. Kept for compatibility;
    /// it is not the HTTP `ETag` ordinary static servers send, so never compare the two (docs/HOSTING.md).
    package var etag: String
    /// SHA-256 over the pack content without its data version; decides whether `dataVersion` is bumped.
    package var contentSha256: String
    package var sources: [SourceFile]
    package var attribution: String
    /// Copy tables beside the pack (web JSON, Apple String Catalog, Android strings.xml), sorted by path; nil in
    /// manifests written before copy output existed.
    package var copy: [ArtifactFile]?

    // Release metadata (docs/RELEASES.md). Optional so that manifests written before them still decode; decoding
    // ignores members it does not know, so newer manifests decode too.
    /// The locales the pack carries names and strings for (the city's supported locales).
    package var locales: [String]? = nil
    /// ISO 8601 UTC: the reproducible build time (`SOURCE_DATE_EPOCH`, else the data's newest timestamp) of the
    /// build that produced this data version. Rebuilds with unchanged content keep it; it never moves backwards.
    package var updatedAt: String? = nil
    /// Id of the Ed25519 key that signed the manifest (`DocumentSignature.keyID`); nil when unsigned.
    package var keyId: String? = nil
    /// Base64 Ed25519 signature over the canonical manifest without this member (`DocumentSignature`).
    package var signature: String? = nil
    /// Deltas from kept previous data versions to this one, by `from`; only those under half the pack's bytes.
    /// Nil (absent) when there are none, and in manifests written before deltas existed.
    package var deltas: [Delta]? = nil
    /// The web flavour (`web/`), for clients without SQLite; nil in manifests written before it existed.
    package var web: Web? = nil
    /// Each GTFS feed's time zone (agency_timezone, an IANA name), in feed order: the zone of the pack's
    /// departure and journey times. Nil without transit and in manifests written before journeys.
    package var timezones: [String]? = nil
    /// The dates the timetable covers (`{"first": "YYYY-MM-DD", "last": "YYYY-MM-DD"}`: the first and last dates
    /// any service may run, calendar ranges and added dates of every feed); nil without transit. Lets an app say
    /// "the timetable ended on …" before opening the pack.
    package var timetable: DateRange? = nil

    /// A range of dates, `YYYY-MM-DD`.
    package struct DateRange: Sendable, Codable, Equatable {
        package var first: String
        package var last: String
        package init(first: String, last: String) {
            self.first = first
            self.last = last
        }
    }

    package init(
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

extension Manifest {
    /// A manifest's counts and artifact alone: decoding only them from a manifest file skips its web listing,
    /// most of its bytes (the build cache's stats of a release already in place).
    package struct Head: Sendable, Codable, Equatable {
        package var counts: Counts
        package var artifact: Artifact

        package init(counts: Counts, artifact: Artifact) {
            self.counts = counts
            self.artifact = artifact
        }

        /// The head of the manifest file at `path`; nil when it cannot be read or decoded.
        package static func read(_ path: String) -> Head? {
            FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(Head.self, from: $0) }
        }
    }
}
