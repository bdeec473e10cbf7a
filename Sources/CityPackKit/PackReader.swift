import CityPackFormat
import CityPackSQLite
import Foundation

/// Reads a CityPack pack: proximity queries, full-text search and POI details, as an app does offline; its
/// ``transit`` timetables and ``editorial`` content through the readers it holds.
///
/// Open a compressed `.citypack.gz` (streamed through zlib into a private temporary SQLite file that is deleted on
/// ``close()``), an already decompressed database, or a `manifest.json` beside its pack (``PackOpener`` does the
/// decompression and checks). The database is opened read-only; its `application_id` and format version
/// (`user_version`) are checked, and with a manifest the SHA-256 and sizes of the artifact are verified before any
/// query.
///
/// At open the reader loads every POI's id and position (`poi`) and the stop buckets (`stop_bucket`: cell, id,
/// latitude, longitude; 32 bytes per place) into a ``CityPackFormat/ProximityIndex``, and the ids `search` rowids
/// rank (``CityPackFormat/PackSchema/searchIDsQuery``, 8 bytes per place), and a ``PlaceDirectory`` (categories,
/// names, links, labels), so ``nearby(lat:lon:radius:category:limit:offset:locale:)`` needs
/// no SQL except for details of the results, which are cached (up to ``Options/detailCacheLimit`` places).
///
/// Thread safety: the reader is `Sendable`; every call — here, on ``transit`` and on ``editorial`` — takes one
/// internal lock, so calls from several threads are serialised (one query at a time). Closing is idempotent; any
/// call after ``close()`` throws `PackError.closed`.
public final class PackReader: @unchecked Sendable {
    /// How to open a pack.
    public struct Options: Sendable {
        /// When set, the artifact's SHA-256 and byte sizes are checked against it (`artifact.sha256` and `bytes`
        /// for a compressed pack, `uncompressedSha256` and `uncompressedBytes` for the database).
        package var manifest: Manifest?
        /// Where a compressed pack is decompressed; default `FileManager.default.temporaryDirectory`.
        public var temporaryDirectory: URL?
        /// Refuse compressed packs that expand beyond this many bytes (default 4 GiB).
        public var maxUncompressedBytes: Int
        /// How many places' details are kept in memory (default 50 000; 0 disables the cache).
        public var detailCacheLimit: Int
        /// Signature, rollback and city checks (``PackTrust``); needs ``PackReader/open(manifest:options:)``,
        /// which verifies the manifest file before opening the pack. Default nil: no such checks.
        public var trust: PackTrust? = nil

        /// Options with the given temporary directory and limits.
        public init(temporaryDirectory: URL? = nil, maxUncompressedBytes: Int = 4 << 30, detailCacheLimit: Int = 50_000) {
            self.init(manifest: nil, temporaryDirectory: temporaryDirectory, maxUncompressedBytes: maxUncompressedBytes,
                      detailCacheLimit: detailCacheLimit)
        }

        /// Options with the given manifest (the artifact is checked against it), temporary directory and limits.
        package init(
            manifest: Manifest?, temporaryDirectory: URL? = nil, maxUncompressedBytes: Int = 4 << 30,
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
    /// The database's format version (`user_version`): ``CityPackFormat/PackSchema/formatVersion`` or an older one
    /// still readable (``CityPackFormat/PackSchema/oldestReadableFormatVersion``).
    public let formatVersion: Int32
    /// Number of rows of `poi`.
    public let poiCount: Int
    /// Path of the SQLite database being read (a temporary file for compressed packs).
    package let databasePath: String
    /// Stops and departures (GTFS); empty answers for packs without transit.
    public let transit: TransitReader

    /// The city's time zone, the clock of opening hours: meta `timezone` (the city file's, else the feed's, else
    /// derived from the coordinates), else, in packs written before it, the first feed's, else UTC.
    public var timeZone: TimeZone {
        let ids = [meta.values[PackSchema.MetaKey.timezone]] + transit.timezones.map { Optional($0) }
        return ids.lazy.compactMap { $0.flatMap(TimeZone.init(identifier:)) }.first ?? TimeZone(identifier: "UTC")!
    }
    /// Cards, situations, actions, walking routes and UI strings; empty answers for packs without them.
    public let editorial: EditorialReader
    /// Every POI and stop of the proximity buckets, sorted by (cell, id); stop ids are ≡ 3 (mod 4).
    package let proximityIndex: ProximityIndex
    /// `search` rowid − 1 → POI or stop id (``CityPackFormat/PackSchema/searchIDsQuery``), ascending.
    let searchIDs: [Int64]

    let connection: PackConnection
    let places: PlaceLookup
    let directory: PlaceDirectory
    /// ``CityPackFormat/PackSchema/Search/matching``, prepared by the first ranked text search.
    var searchStatement: PackConnection.Rows?
    /// Where the full-text index is: `main` (formats 1–4 carry it) or `temp` (built by the first text search).
    var searchSchema: String?
    /// ``CityPackFormat/PackSchema/Search/matchingAnyOrder``, prepared by the first name search near a point.
    var unrankedSearchStatement: PackConnection.Rows?
    /// Row of each id in ``proximityIndex``, made by the first name search near a point (the positions it measures).
    var proximityRows: [Int64: Int32]?
    /// The full-text index in memory, read by the first name search near a point (``searchPostings(_:)``); `.some(nil)`
    /// once it is known to be unavailable.
    var postingsState: SearchPostings??
    /// The words that name categories, made by the first category query (``categoryWords(_:)``).
    var categoryIndex: CategoryWordIndex?
    /// Meta `category_terms` (the words ``CityPackFormat/CategoryWords`` lacks), until the first category query.
    var categoryTermsMeta: String?

    // MARK: - Opening

    /// Opens a compressed (`.citypack.gz`) or decompressed pack; the kind is detected from the file's first bytes.
    /// - Parameters:
    ///   - url: A file URL.
    ///   - options: Manifest to verify against, temporary directory, limits.
    /// - Throws: `PackError` — `.fileNotFound`, `.corruptCompressedData`, `.notAPack`, `.wrongApplicationID`,
    ///   `.unsupportedFormatVersion`, `.hashMismatch`, `.sizeMismatch`, `.io`.
    public static func open(_ url: URL, options: Options = Options()) throws(PackError) -> PackReader {
        let file = try PackOpener.databaseFile(for: url, options: options)
        do {
            return try PackReader(file, options: options)
        } catch {
            if file.owned { unlink(file.path) }
            throw error
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
        let located = try PackOpener.locate(manifest: manifestURL, options: options)
        return try open(located.pack, options: located.options)
    }

    private init(_ file: PackOpener.DatabaseFile, options: Options) throws(PackError) {
        databasePath = file.path
        let db = try PackConnection.Database(path: file.path, mode: .readOnly)
        formatVersion = try PackOpener.checkFormat(of: db)
        do {
            // Tables the pack leaves out because they are empty (format 5) read as empty.
            try PackTables.addStandIns(in: db, formatVersion: formatVersion)
            var values: [String: String] = [:]
            typealias M = PackSchema.Meta
            let metaRows = try db.prepare(M.all)
            while try metaRows.step() { values[metaRows[M.key]] = metaRows[M.value] }
            meta = PackMeta(values: values)
            if let manifest = options.manifest {
                try PackVerifier.checkPack(meta: meta, formatVersion: formatVersion, against: manifest)
            }
            poiCount = Int(try db.scalarInt("SELECT count(*) FROM \(PackSchema.POI.table)"))
            proximityIndex = try Self.loadProximityIndex(db)
            var ranked: [Int64] = []
            if formatVersion >= 2 {  // format 1: the search rowid is the id
                let idRows = try db.prepare(PackSchema.searchIDs)
                while try idRows.step() { ranked.append(idRows[PackSchema.POI.id]) }
            }
            searchIDs = ranked
            places = try PlaceLookup(database: db, cacheLimit: options.detailCacheLimit)
            directory = try PlaceDirectory(
                db: db, index: proximityIndex, defaultLocale: meta.values[PackSchema.MetaKey.defaultLocale] ?? "en",
                placeLinks: values[PackSchema.MetaKey.placeLinks])
            places.directory = directory
            categoryTermsMeta = values[PackSchema.MetaKey.categoryTerms]
        } catch {
            if error.isManifestMismatch { throw error }
            throw PackError.notAPack(path: file.path, message: "\(error)")
        }
        connection = PackConnection(database: db, ownedFile: file.owned ? file.path : nil)
        transit = TransitReader(connection: connection, places: places, meta: meta.values)
        editorial = EditorialReader(
            connection: connection, places: places, defaultLocale: meta.values[PackSchema.MetaKey.defaultLocale] ?? "en")
    }

    /// POIs and stops share one index; stop ids are ≡ 3 (mod 4), so the id tells them apart. POI cells are
    /// computed from their positions, exactly as the writer's ``CityPackFormat/ProximityIndex`` does.
    private static func loadProximityIndex(_ db: PackConnection.Database) throws(PackError) -> ProximityIndex {
        var points: [ProximityIndex.Point] = []
        typealias P = PackSchema.POI
        typealias SB = PackSchema.StopBucket
        let pois = try db.prepare(P.points)
        while try pois.step() {
            points.append(ProximityIndex.Point(id: pois[P.id], lat: pois[P.lat].degrees, lon: pois[P.lon].degrees))
        }
        let stops = try db.prepare(SB.points)
        while try stops.step() {
            points.append(ProximityIndex.Point(id: stops[SB.stop], lat: stops[SB.lat], lon: stops[SB.lon]))
        }
        return ProximityIndex(points)
    }

    deinit { close() }

    /// Releases the database and deletes the temporary decompressed file, if any. Idempotent; ``transit`` and
    /// ``editorial`` are closed with it.
    public func close() {
        connection.close {
            searchStatement = nil
            searchSchema = nil
            unrankedSearchStatement = nil
            postingsState = nil
            categoryIndex = nil
            places.release()
            transit.release()
            editorial.release()
        }
    }

    // MARK: - Queries

    /// One place — a POI or a transit stop — by its id, or nil when the pack has no such place (the web reader's
    /// `place(id, locale)`).
    /// - Parameters:
    ///   - id: A POI's stable id (`poi.id`) or a stop's (``CityPackFormat/PackSchema/isStopID(_:)``).
    ///   - locale: Locale for ``PlaceResult/name``.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func place(id: Int64, locale: String? = nil) throws(PackError) -> PlaceResult? {
        try connection.withDatabase { _ throws(PackError) in try places.result(id, locale: locale) }
    }

    /// ``place(id:locale:)`` under its earlier name (kept for one release; docs/RELEASES.md).
    @available(*, deprecated, renamed: "place(id:locale:)", message: "the web reader's name; poi(id:) goes in the next release")
    public func poi(id: Int64, locale: String? = nil) throws(PackError) -> PlaceResult? {
        try place(id: id, locale: locale)
    }

    /// Every POI of the pack (no stops), ordered by stable id (for `citypack inspect --pois` and diff tools).
    /// - Parameter locale: Locale for ``PlaceResult/name``.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    package func allPOIs(locale: String? = nil) throws(PackError) -> [PlaceResult] {
        try connection.withDatabase { _ throws(PackError) in
            var out: [PlaceResult] = []
            out.reserveCapacity(poiCount)
            for id in proximityIndex.ids.sorted() where !PackSchema.isStopID(id) {
                if let place = try places.result(id, locale: locale) { out.append(place) }
            }
            return out
        }
    }

    /// Number of POIs filed under each category id: by their category and by their further categories (a bank
    /// with a cash machine counts as a bank and as an ATM).
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func categoryCounts() throws(PackError) -> [String: Int] {
        try connection.withDatabase { db throws(PackError) in
            let ids = try PlaceLookup.categoryIDs(db)
            typealias P = PackSchema.POI
            typealias PC = PackSchema.POICategory
            var tables = [(P.table, P.category)]
            if try PlaceLookup.hasTable(db, PC.table) { tables.append((PC.table, PC.category)) }
            var out: [String: Int] = [:]
            for (table, category) in tables {
                let stmt = try db.prepare(PackSchema.Query(
                    "SELECT \(category), \(PackSchema.count) FROM \(table) GROUP BY \(category)",
                    results: [category, PackSchema.count]))
                while try stmt.step() { out[stmt[category].id(codes: ids), default: 0] += Int(stmt[PackSchema.count]) }
            }
            return out
        }
    }

    /// The words of user text as search splits them: runs of letters and digits, at most `maxWords`, each cut to
    /// 64 characters and folded (``CityPackFormat/SearchFold``).
    package static func searchWords(_ text: String, maxWords: Int = 16) -> [String] {
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
        return words.prefix(maxWords).map { SearchFold.apply(String($0.prefix(64))) }
    }

    /// The FTS5 MATCH expression for user text: quoted words, the last one a prefix; nil when there are no words.
    /// A word with CJK characters becomes the phrase of its bigrams, as the pack indexes them (``CJKBigrams``).
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - maxWords: Words kept (default 16), each cut to 64 characters.
    ///   - prefixLast: Whether the last word matches as a prefix.
    package static func matchExpression(for text: String, maxWords: Int = 16, prefixLast: Bool = true) -> String? {
        let kept = searchWords(text, maxWords: maxWords)
        guard !kept.isEmpty else { return nil }
        return kept.map(CJKBigrams.expand).enumerated()
            .map { i, w in i == kept.count - 1 && prefixLast ? "\"\(w)\"*" : "\"\(w)\"" }
            .joined(separator: " ")
    }

    /// The FTS5 phrase of ``CityPackFormat/PackSchema/CategoryTerm`` that matches a term equal to the text's words;
    /// nil when there are no words.
    package static func categoryTermExpression(for text: String) -> String? {
        let kept = searchWords(text)
        guard !kept.isEmpty else { return nil }
        let phrase = kept.map(CJKBigrams.expand).joined(separator: " ")
        return "\"\(PackSchema.CategoryTerm.stored(phrase))\""
    }
}
