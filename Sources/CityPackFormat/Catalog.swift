/// `catalog.json`: the summary of every pack in an output folder — what an app fetches (one request) to list
/// downloadable cities and to tell whether an installed city has an update (`dataVersion` greater than the
/// installed one, or a different `sha256`). Fetch it with the server's own validator (`If-None-Match` with the
/// HTTP `ETag` the server sent last time): see `docs/HOSTING.md`.
///
/// Encoded with sorted keys. Optionally signed like a manifest: `keyId` and `signature` members, the signature
/// over the canonical catalog without `signature` (see ``DocumentSignature`` and `docs/RELEASES.md`).
public struct Catalog: Sendable, Codable, Equatable {
    /// One city's current pack.
    public struct Entry: Sendable, Codable, Equatable {
        /// City id (also the folder name).
        public var id: String
        public var name: String
        /// Pack format (schema) version.
        public var formatVersion: Int
        /// Oldest reader format version able to open the pack; nil in catalogs written before it existed.
        public var minReaderVersion: Int?
        /// The city's data version: grows by one each time the content changes.
        public var dataVersion: Int
        public var createdAt: String
        /// ISO 8601 UTC build time of this data version (see ``Manifest/updatedAt``).
        public var updatedAt: String?
        /// The immutable manifest of this data version (`<city>/<city>-<dataVersion>.manifest.json`), relative to
        /// the catalog. `<city>/manifest.json` holds the same bytes.
        package var manifest: String
        /// SHA-256 of the manifest file's bytes, lowercase hex.
        package var manifestSha256: String?
        /// Size of the manifest file in bytes: part of what an install or update fetches, so the size an app shows
        /// counts it (nil in catalogs written before it existed).
        package var manifestBytes: Int? = nil
        /// Pack path relative to the catalog.
        package var path: String
        /// Compressed size of the pack in bytes.
        public var bytes: Int
        /// SHA-256 of the compressed pack, lowercase hex.
        package var sha256: String
        /// Size of the decompressed database in bytes (the storage an install needs).
        public var uncompressedBytes: Int? = nil
        /// A content tag of the pack: its SHA-256 prefix, quoted like an ETag. Kept for compatibility; it is **not**
        /// the HTTP `ETag` a static server sends for the file (nginx, S3 and GitHub Pages send their own), so never
        /// compare it with one. Update detection uses ``dataVersion`` and ``sha256`` (docs/HOSTING.md).
        package var etag: String
        /// `[minLon, minLat, maxLon, maxLat]`.
        public var bbox: [Double]
        public var pois: Int
        public var locales: [String]
        /// Key that signed the manifest; nil when unsigned.
        package var keyId: String?
        /// Deltas to this data version from kept earlier ones (paths relative to the catalog), by `from`: an app
        /// with version `from` installed may fetch `bytes` instead of the full pack. Nil when there are none.
        package var deltas: [Manifest.Delta]? = nil
        /// Patches from kept earlier manifests to this version's (``ManifestPatch``), by `from`: an app with version
        /// `from` installed fetches `bytes` instead of ``manifestBytes``. Nil when there are none.
        package var manifestPatches: [PatchFile]? = nil

        package init(
            id: String, name: String, formatVersion: Int, minReaderVersion: Int?, dataVersion: Int, createdAt: String,
            updatedAt: String?, manifest: String, manifestSha256: String?, path: String, bytes: Int, sha256: String,
            etag: String, bbox: [Double], pois: Int, locales: [String], keyId: String?
        ) {
            self.id = id
            self.name = name
            self.formatVersion = formatVersion
            self.minReaderVersion = minReaderVersion
            self.dataVersion = dataVersion
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.manifest = manifest
            self.manifestSha256 = manifestSha256
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.etag = etag
            self.bbox = bbox
            self.pois = pois
            self.locales = locales
            self.keyId = keyId
        }
    }

    /// A manifest patch file (``ManifestPatch``) a catalog entry lists.
    package struct PatchFile: Sendable, Codable, Equatable {
        package var from: Int
        package var to: Int
        /// Relative to the catalog, e.g. `monaco/monaco-1-2.manifest-patch.json`.
        package var path: String
        package var bytes: Int
        /// SHA-256 of the file's bytes (as stored; a server may compress it in transit), lowercase hex.
        package var sha256: String
        package init(from: Int, to: Int, path: String, bytes: Int, sha256: String) {
            self.from = from
            self.to = to
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// The catalog layout version (1).
    public var formatVersion: Int
    /// Newest ``Entry/updatedAt`` of all packs; nil when empty.
    public var updatedAt: String?
    /// Sorted by city id.
    public var packs: [Entry]
    /// Id of the key that signed the catalog; nil when unsigned.
    package var keyId: String?
    /// Base64 Ed25519 signature over the canonical catalog without this member.
    package var signature: String?

    package init(formatVersion: Int, updatedAt: String?, packs: [Entry], keyId: String? = nil, signature: String? = nil) {
        self.formatVersion = formatVersion
        self.updatedAt = updatedAt
        self.packs = packs
        self.keyId = keyId
        self.signature = signature
    }
}
