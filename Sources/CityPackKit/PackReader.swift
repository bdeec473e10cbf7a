import CityPackFormat
import Foundation

/// Reads a CityPack pack: proximity queries, full-text search and POI details, as an app does offline.
///
/// Open a compressed `.citypack.gz` (streamed through zlib into a private temporary SQLite file that is deleted on
/// ``close()``), an already decompressed database, or a `manifest.json` beside its pack. The database is opened
/// read-only; its `application_id` and format version (`user_version`) are checked, and with a manifest the
/// SHA-256 and sizes of the artifact are verified before any query.
///
/// At open the reader loads the proximity buckets (`poi_bucket`: cell, id, latitude, longitude; 32 bytes per POI)
/// into sorted arrays, so ``nearby(lat:lon:radius:limit:locale:)`` needs no SQL except for details of the results,
/// which are cached (up to ``Options/detailCacheLimit`` POIs).
///
/// Thread safety: the reader is `Sendable`; every call takes an internal lock, so calls from several threads are
/// serialised (one query at a time). Closing is idempotent; any call after ``close()`` throws `PackError.closed`.
public final class PackReader: @unchecked Sendable {
    /// How to open a pack.
    public struct Options: Sendable {
        /// When set, the artifact's SHA-256 and byte sizes are checked against it (`artifact.sha256` and `bytes`
        /// for a compressed pack, `uncompressedSha256` and `uncompressedBytes` for the database).
        public var manifest: Manifest?
        /// Where a compressed pack is decompressed; default `FileManager.default.temporaryDirectory`.
        public var temporaryDirectory: URL?
        /// Refuse compressed packs that expand beyond this many bytes (default 4 GiB).
        public var maxUncompressedBytes: Int
        /// How many POIs' details are kept in memory (default 50 000; 0 disables the cache).
        public var detailCacheLimit: Int
        /// Signature, rollback and city checks (``PackTrust``); needs ``PackReader/open(manifest:options:)``,
        /// which verifies the manifest file before opening the pack. Default nil: no such checks.
        public var trust: PackTrust? = nil

        public init(
            manifest: Manifest? = nil, temporaryDirectory: URL? = nil, maxUncompressedBytes: Int = 4 << 30,
            detailCacheLimit: Int = 50_000
        ) {
            self.manifest = manifest
            self.temporaryDirectory = temporaryDirectory
            self.maxUncompressedBytes = maxUncompressedBytes
            self.detailCacheLimit = detailCacheLimit
        }

        /// Set by ``PackReader/open(manifest:options:)`` once the manifest passed ``trust``.
        var verifiedManifest: Manifest?
    }

    /// The pack's `meta` table.
    public let meta: PackMeta
    /// The database's format version (`user_version`); always ``CityPackFormat/PackSchema/formatVersion``.
    public let formatVersion: Int32
    /// Number of rows of `poi`.
    public let poiCount: Int
    /// Path of the SQLite database being read (a temporary file for compressed packs).
    public let databasePath: String

    let lock = NSLock()
    var database: SQLiteDatabase?
    let ownedFile: String?
    let detailCacheLimit: Int

    // Proximity index: parallel arrays sorted by (cell, id).
    let cells: [Int64]
    let lats: [Double]
    let lons: [Double]
    let ids: [Int64]

    var poiStatement: SQLiteStatement?
    var stopStatement: SQLiteStatement?
    /// Statements of `departures`, prepared on first use.
    var transitStatements: TransitStatements?
    /// Latest departure in seconds of its service day (meta `transit_max_seconds`), 0 without transit.
    let transitMaxSeconds: Int64
    var namesStatement: SQLiteStatement?
    var searchStatement: SQLiteStatement?
    var detailCache: [Int64: Details] = [:]
    /// Written by the benchmark so timed work is not optimised away.
    var benchmarkSink = 0

    /// A POI's stored fields, independent of locale and query.
    struct Details {
        var osm: String
        var lat: Double
        var lon: Double
        var category: String
        var name: String?
        var names: [String: String]
        var tags: [String: String]
        var stopID: String? = nil
    }

    // MARK: - Opening

    /// Opens a compressed (`.citypack.gz`) or decompressed pack; the kind is detected from the file's first bytes.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - options: Manifest to verify against, temporary directory, limits.
    /// - Throws: `PackError` — `.fileNotFound`, `.corruptCompressedData`, `.notAPack`, `.wrongApplicationID`,
    ///   `.unsupportedFormatVersion`, `.hashMismatch`, `.sizeMismatch`, `.io`.
    public static func open(_ url: URL, options: Options = Options()) throws(PackError) -> PackReader {
        let path = url.path
        if options.trust != nil && options.verifiedManifest == nil {
            // A trust policy is about the manifest's signature: only open(manifest:) has its bytes.
            throw PackError.signatureMissing(path: path)
        }
        switch try PackFiles.kind(ofFileAt: path) {
        case .gzip:
            let directory = options.temporaryDirectory ?? FileManager.default.temporaryDirectory
            let destination = directory.appendingPathComponent("citypack-\(UUID().uuidString).sqlite").path
            try decompress(path, to: destination, manifest: options.manifest, maxBytes: options.maxUncompressedBytes)
            do {
                return try PackReader(databasePath: destination, ownedFile: destination, options: options)
            } catch {
                unlink(destination)
                throw error
            }
        case .sqlite:
            if let artifact = options.manifest?.artifact {
                let (hash, bytes) = try PackFiles.sha256(ofFileAt: path)
                try check(.uncompressed, bytes: bytes, hash: hash, against: artifact)
            }
            return try PackReader(databasePath: path, ownedFile: nil, options: options)
        case .other:
            throw PackError.notAPack(path: path, message: "neither gzip nor SQLite data")
        }
    }

    /// Reads a `manifest.json`, then opens and verifies the pack at its `artifact.path` (relative to the manifest).
    ///
    /// With ``Options/trust`` the manifest is verified first (signature, city, rollback; see ``PackTrust``). With
    /// or without it, the pack's hashes and sizes and its `meta` (city, data version, format version) must match
    /// the manifest.
    /// - Parameters:
    ///   - manifestURL: The manifest file.
    ///   - options: As for ``open(_:options:)``; its `manifest` is replaced by the one read.
    /// - Throws: `PackError.invalidManifest` when it cannot be decoded, its artifact path is absolute or climbs out
    ///   of the manifest's folder, or its `minReaderVersion` is newer than this reader
    ///   (`.unsupportedFormatVersion`); with a trust policy `.signatureMissing`, `.untrustedKey`,
    ///   `.signatureInvalid`, `.wrongCity`, `.rollback`; `.manifestMismatch`; then everything
    ///   ``open(_:options:)`` throws.
    public static func open(manifest manifestURL: URL, options: Options = Options()) throws(PackError) -> PackReader {
        let manifest: Manifest
        if let trust = options.trust {
            guard let bytes = FileManager.default.contents(atPath: manifestURL.path) else {
                throw PackError.fileNotFound(path: manifestURL.path)
            }
            manifest = try PackVerifier.verifyManifest(bytes, path: manifestURL.path, trust: trust)
        } else {
            manifest = try readManifest(manifestURL)
        }
        if manifest.minReaderVersion > Int(PackSchema.formatVersion) {
            throw PackError.unsupportedFormatVersion(
                found: Int32(clamping: manifest.minReaderVersion), supported: PackSchema.formatVersion)
        }
        let relative = manifest.artifact.path
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !components.contains("..") else {
            throw PackError.invalidManifest(path: manifestURL.path, message: "unsafe artifact path \(relative)")
        }
        let packURL = manifestURL.deletingLastPathComponent().appendingPathComponent(relative)
        var options = options
        options.manifest = manifest
        options.verifiedManifest = manifest
        return try open(packURL, options: options)
    }

    /// Decompresses a `.citypack.gz` to a database file an app can keep and open directly next time.
    /// - Parameters:
    ///   - source: The compressed pack.
    ///   - destination: The database file to write (replaced if present).
    ///   - manifest: When set, compressed and decompressed hashes and sizes are verified; on mismatch the
    ///     destination is removed.
    ///   - maxUncompressedBytes: Refuse streams expanding beyond this size.
    /// - Throws: `PackError.corruptCompressedData`, `.hashMismatch`, `.sizeMismatch`, `.io`, `.fileNotFound`.
    public static func decompress(
        _ source: URL, to destination: URL, verifying manifest: Manifest? = nil, maxUncompressedBytes: Int = 4 << 30
    ) throws(PackError) {
        try decompress(source.path, to: destination.path, manifest: manifest, maxBytes: maxUncompressedBytes)
    }

    /// SHA-256 of a file as lowercase hex, as in ``CityPackFormat/Manifest/Artifact/sha256``.
    /// - Throws: `PackError.fileNotFound` or `.io`.
    public static func sha256(ofFileAt url: URL) throws(PackError) -> String {
        try PackFiles.sha256(ofFileAt: url.path).hex
    }

    /// Reads and decodes a manifest.
    /// - Throws: `PackError.fileNotFound` or `.invalidManifest`.
    public static func readManifest(_ url: URL) throws(PackError) -> Manifest {
        guard FileManager.default.fileExists(atPath: url.path) else { throw PackError.fileNotFound(path: url.path) }
        do {
            return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url))
        } catch {
            throw PackError.invalidManifest(path: url.path, message: "\(error)")
        }
    }

    static func decompress(_ source: String, to destination: String, manifest: Manifest?, maxBytes: Int) throws(PackError) {
        let digests: PackFiles.Digests
        do {
            // With a manifest, the database may not grow beyond the size it declares.
            let limit = manifest.map { min(maxBytes, $0.artifact.uncompressedBytes) } ?? maxBytes
            digests = try PackFiles.inflate(gzip: source, to: destination, maxBytes: limit)
        } catch {
            // A damaged or substituted download: report it against the manifest's hash when that differs.
            if let artifact = manifest?.artifact, let (hash, bytes) = try? PackFiles.sha256(ofFileAt: source) {
                try check(.compressed, bytes: bytes, hash: hash, against: artifact)
            }
            throw error
        }
        guard let artifact = manifest?.artifact else { return }
        do {
            try check(.compressed, bytes: digests.compressedBytes, hash: digests.compressedSHA256, against: artifact)
            try check(.uncompressed, bytes: digests.uncompressedBytes, hash: digests.uncompressedSHA256, against: artifact)
        } catch {
            unlink(destination)
            throw error
        }
    }

    static func check(_ which: PackError.Artifact, bytes: Int, hash: String, against artifact: Manifest.Artifact) throws(PackError) {
        let expectedHash = which == .compressed ? artifact.sha256 : artifact.uncompressedSha256
        let expectedBytes = which == .compressed ? artifact.bytes : artifact.uncompressedBytes
        if hash != expectedHash.lowercased() { throw PackError.hashMismatch(which, expected: expectedHash, actual: hash) }
        if bytes != expectedBytes { throw PackError.sizeMismatch(which, expected: expectedBytes, actual: bytes) }
    }

    init(databasePath: String, ownedFile: String?, options: Options) throws(PackError) {
        self.databasePath = databasePath
        self.ownedFile = ownedFile
        self.detailCacheLimit = max(0, options.detailCacheLimit)
        let db = try SQLiteDatabase(readOnlyPath: databasePath)

        // A file that is not a database fails on its first read, which is here.
        let applicationID: Int64
        let userVersion: Int64
        do {
            applicationID = try db.scalarInt("PRAGMA application_id")
            userVersion = try db.scalarInt("PRAGMA user_version")
        } catch {
            throw PackError.notAPack(path: databasePath, message: db.errorMessage)
        }
        guard applicationID == Int64(PackSchema.applicationID) else {
            throw PackError.wrongApplicationID(found: Int32(truncatingIfNeeded: applicationID), expected: PackSchema.applicationID)
        }
        guard userVersion == Int64(PackSchema.formatVersion) else {
            throw PackError.unsupportedFormatVersion(found: Int32(truncatingIfNeeded: userVersion), supported: PackSchema.formatVersion)
        }
        formatVersion = Int32(userVersion)

        do {
            var values: [String: String] = [:]
            let metaRows = try db.prepare("SELECT key, value FROM \(PackSchema.Table.meta)")
            while try metaRows.step() { values[metaRows.text(0) ?? ""] = metaRows.text(1) ?? "" }
            meta = PackMeta(values: values)
            if let manifest = options.manifest {
                try PackVerifier.checkPack(meta: meta, formatVersion: formatVersion, against: manifest)
            }
            poiCount = Int(try db.scalarInt("SELECT count(*) FROM \(PackSchema.Table.poi)"))

            var cells: [Int64] = []
            var lats: [Double] = []
            var lons: [Double] = []
            var ids: [Int64] = []
            // POIs and stops share one index; stop ids are ≡ 3 (mod 4), so the id tells them apart.
            let rows = try db.prepare(
                "SELECT cell, poi, lat, lon FROM \(PackSchema.Table.poiBucket) UNION ALL "
                    + "SELECT cell, stop, lat, lon FROM \(PackSchema.Table.stopBucket) ORDER BY 1, 2")
            while try rows.step() {
                cells.append(rows.int64(0))
                ids.append(rows.int64(1))
                lats.append(rows.double(2))
                lons.append(rows.double(3))
            }
            (self.cells, self.ids, self.lats, self.lons) = (cells, ids, lats, lons)

            stopStatement = try db.prepare(
                "SELECT stop_id, name, lat, lon, location_type FROM \(PackSchema.Table.stop) WHERE id = ?1")
            transitMaxSeconds = values[PackSchema.MetaKey.transitMaxSeconds].flatMap { Int64($0) } ?? 0
            poiStatement = try db.prepare("SELECT osm, lat, lon, category, name, tags FROM \(PackSchema.Table.poi) WHERE id = ?1")
            namesStatement = try db.prepare("SELECT locale, name FROM \(PackSchema.Table.poiName) WHERE poi = ?1")
            searchStatement = try db.prepare(
                "SELECT rowid FROM \(PackSchema.Table.search) WHERE \(PackSchema.Table.search) MATCH ?1 "
                    + "ORDER BY bm25(\(PackSchema.Table.search), 10.0, 1.0), rowid LIMIT ?2")
        } catch {
            if error.isManifestMismatch { throw error }
            throw PackError.notAPack(path: databasePath, message: "\(error)")
        }
        database = db
    }

    deinit { closeLocked() }

    /// Releases the database and deletes the temporary decompressed file, if any. Idempotent.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        closeLocked()
    }

    private func closeLocked() {
        poiStatement = nil
        stopStatement = nil
        transitStatements = nil
        namesStatement = nil
        searchStatement = nil
        database?.close()
        database = nil
        detailCache = [:]
        if let ownedFile { unlink(ownedFile) }
    }

    // MARK: - Queries

    /// POIs and transit stops (``PlaceResult/kind`` `.stop`) within `radius` metres of a point by great-circle
    /// distance, nearest first (ties by id).
    ///
    /// Exact: every POI within the radius and none outside it, across geohash cell edges, the antimeridian and
    /// high latitudes.
    /// - Parameters:
    ///   - lat: Latitude in degrees.
    ///   - lon: Longitude in degrees.
    ///   - radius: Metres (default 25). A negative or non-finite radius, or a non-finite position, yields `[]`.
    ///   - limit: At most this many results (default 50); ≤ 0 yields `[]`.
    ///   - locale: Locale for ``PlaceResult/name`` (BCP 47 such as `de-AT`); nil = the POI's plain name.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func nearby(lat: Double, lon: Double, radius: Double = 25, limit: Int = 50, locale: String? = nil)
        throws(PackError) -> [PlaceResult]
    {
        lock.lock()
        defer { lock.unlock() }
        guard database != nil else { throw PackError.closed }
        let hits = nearestLocked(lat: lat, lon: lon, radius: radius, limit: limit)
        var out: [PlaceResult] = []
        out.reserveCapacity(hits.count)
        for hit in hits {
            guard let d = try detailsLocked(hit.id) else { continue }
            out.append(Self.result(hit.id, d, locale: locale, distance: hit.distance))
        }
        return out
    }

    /// Full-text search over names (every locale) and category terms/synonyms, best match first (bm25, names
    /// weighted 10× over terms; ties by id).
    ///
    /// The text is split into words (letters and digits); each word is quoted, so no FTS5 syntax can be injected;
    /// all words must match (diacritics and case are ignored), the last one as a prefix (`caf` finds `Café`).
    /// Results matching every word whole come first, then those matching only through the prefix.
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - locale: Locale for ``PlaceResult/name``.
    ///   - limit: At most this many results (default 20); ≤ 0 yields `[]`.
    /// - Returns: Results with `distanceMetres` nil; `[]` when the text has no words.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func search(_ text: String, locale: String? = nil, limit: Int = 20) throws(PackError) -> [PlaceResult] {
        lock.lock()
        defer { lock.unlock() }
        guard database != nil, let stmt = searchStatement else { throw PackError.closed }
        guard limit > 0, let prefixed = Self.matchExpression(for: text) else { return [] }
        // Whole-word matches rank before prefix-only ones: `metro` lists metro stations before "Metropole".
        let exact = Self.matchExpression(for: text, prefixLast: false)
        var ids: [Int64] = []
        var seen: Set<Int64> = []
        for expression in [exact, prefixed].compactMap({ $0 }) where ids.count < limit {
            stmt.reset()
            stmt.bind(1, expression)
            stmt.bind(2, Int64(limit))
            while try stmt.step() {
                let id = stmt.int64(0)
                if ids.count < limit && seen.insert(id).inserted { ids.append(id) }
            }
            stmt.reset()
        }
        var out: [PlaceResult] = []
        for id in ids {
            guard let d = try detailsLocked(id) else { continue }
            out.append(Self.result(id, d, locale: locale, distance: nil))
        }
        return out
    }

    /// One POI by its stable id, or nil when the pack has no such POI.
    /// - Parameters:
    ///   - id: `poi.id`.
    ///   - locale: Locale for ``PlaceResult/name``.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func poi(id: Int64, locale: String? = nil) throws(PackError) -> PlaceResult? {
        lock.lock()
        defer { lock.unlock() }
        guard database != nil else { throw PackError.closed }
        return try detailsLocked(id).map { Self.result(id, $0, locale: locale, distance: nil) }
    }

    /// Number of POIs per category id.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func categoryCounts() throws(PackError) -> [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        guard let db = database else { throw PackError.closed }
        let stmt = try db.prepare("SELECT category, count(*) FROM \(PackSchema.Table.poi) GROUP BY category")
        var out: [String: Int] = [:]
        while try stmt.step() { out[stmt.text(0) ?? ""] = Int(stmt.int64(1)) }
        return out
    }

    // MARK: - Internals (lock held)

    /// Ids and distances within the radius, sorted by (distance, id), at most `limit`.
    /// Cell budget of a proximity cover (see ``nearestLocked(lat:lon:radius:limit:)``); measured on the
    /// Liechtenstein and Monaco packs, 4 beats 64 for 25 m queries.
    static let coverCells = 4

    func nearestLocked(lat: Double, lon: Double, radius: Double, limit: Int) -> [(id: Int64, distance: Double)] {
        guard limit > 0 else { return [] }
        var hits: [(id: Int64, distance: Double)] = []
        // The hot path of an app: an allocation-free cover of at most `Self.coverCells` coarse cells (each a
        // contiguous range of the sorted precision-8 cells), a binary search per range, then a latitude-band
        // test before the exact great-circle distance. Fewer, larger ranges beat a dozen tiny ones: a binary
        // search costs more than rejecting a few extra candidates by latitude.
        let band = radius / GreatCircle.earthRadius * 180 / Double.pi * (1 + 1e-9) + 1e-9
        cells.withUnsafeBufferPointer { cells in
            lats.withUnsafeBufferPointer { lats in
                lons.withUnsafeBufferPointer { lons in
                    GeohashCover.forEachRange(lat: lat, lon: lon, radius: radius, maxCells: Self.coverCells) { first, last in
                        var lo = 0
                        var hi = cells.count
                        while lo < hi {
                            let mid = (lo + hi) >> 1
                            if cells[mid] < first { lo = mid + 1 } else { hi = mid }
                        }
                        var i = lo
                        while i < cells.count && cells[i] <= last {
                            if abs(lats[i] - lat) <= band {
                                let d = GreatCircle.distance(lat, lon, lats[i], lons[i])
                                if d <= radius { hits.append((ids[i], d)) }
                            }
                            i += 1
                        }
                    }
                }
            }
        }
        if hits.count > 1 { hits.sort { ($0.distance, $0.id) < ($1.distance, $1.id) } }
        if hits.count > limit { hits.removeSubrange(limit...) }
        return hits
    }

    /// Brute force over every bucket row: the reference `nearby` is benchmarked against.
    func bruteForceLocked(lat: Double, lon: Double, radius: Double, limit: Int) -> [(id: Int64, distance: Double)] {
        guard limit > 0 else { return [] }
        var hits: [(id: Int64, distance: Double)] = []
        for i in 0..<ids.count {
            let d = GreatCircle.distance(lat, lon, lats[i], lons[i])
            if d <= radius { hits.append((ids[i], d)) }
        }
        hits.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
        if hits.count > limit { hits.removeSubrange(limit...) }
        return hits
    }

    func detailsLocked(_ id: Int64) throws(PackError) -> Details? {
        if let cached = detailCache[id] { return cached }
        if PackSchema.isStopID(id) { return try stopDetailsLocked(id) }
        guard let poiStatement, let namesStatement else { throw PackError.closed }
        poiStatement.reset()
        poiStatement.bind(1, id)
        defer { poiStatement.reset() }
        guard try poiStatement.step() else { return nil }
        let tagsText = poiStatement.text(5) ?? "{}"
        let tags: [String: String]
        do {
            tags = try JSONDecoder().decode([String: String].self, from: Data(tagsText.utf8))
        } catch {
            throw PackError.malformedData("poi \(id): tags are not a JSON object of strings")
        }
        var details = Details(
            osm: poiStatement.text(0) ?? "", lat: poiStatement.double(1), lon: poiStatement.double(2),
            category: poiStatement.text(3) ?? "", name: poiStatement.isNull(4) ? nil : poiStatement.text(4),
            names: [:], tags: tags)
        namesStatement.reset()
        namesStatement.bind(1, id)
        defer { namesStatement.reset() }
        while try namesStatement.step() {
            if let locale = namesStatement.text(0), let name = namesStatement.text(1) { details.names[locale] = name }
        }
        if detailCacheLimit > 0 {
            if detailCache.count >= detailCacheLimit { detailCache.removeAll(keepingCapacity: true) }
            detailCache[id] = details
        }
        return details
    }

    static func result(_ id: Int64, _ d: Details, locale: String?, distance: Double?) -> PlaceResult {
        PlaceResult(
            id: id, osm: d.osm, name: displayName(names: d.names, plain: d.name, locale: locale),
            category: d.category, lat: d.lat, lon: d.lon, distanceMetres: distance, names: d.names, tags: d.tags,
            kind: PackSchema.isStopID(id) ? .stop : .poi, stopID: d.stopID)
    }

    /// `names[locale]`, then each shorter prefix of the tag (`zh-Hant-TW` → `zh-Hant` → `zh`), then the plain
    /// name, then the name of the alphabetically first locale.
    static func displayName(names: [String: String], plain: String?, locale: String?) -> String? {
        if var tag = locale, !names.isEmpty {
            while !tag.isEmpty {
                if let n = names[tag] { return n }
                guard let cut = tag.lastIndex(where: { $0 == "-" || $0 == "_" }) else { break }
                tag = String(tag[..<cut])
            }
        }
        return plain ?? names.min { $0.key < $1.key }?.value
    }

    /// The FTS5 MATCH expression for user text: quoted words, the last one a prefix; nil when there are no words.
    package static func matchExpression(for text: String, maxWords: Int = 16, prefixLast: Bool = true) -> String? {
        var words: [String] = []
        var current = ""
        for ch in text {
            if ch.isLetter || ch.isNumber {
                current.append(ch)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard !words.isEmpty else { return nil }
        let kept = words.prefix(maxWords).map { String($0.prefix(64)) }
        return kept.enumerated().map { i, w in i == kept.count - 1 && prefixLast ? "\"\(w)\"*" : "\"\(w)\"" }
            .joined(separator: " ")
    }
}
