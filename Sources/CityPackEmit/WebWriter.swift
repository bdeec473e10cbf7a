import CityPackFormat
import CityPackSQLite
import CityPackStorage
import CityPackSupport
import Foundation

/// Writes the web flavour of a pack: gzip'd JSON files that a client without SQLite (a browser, a Capacitor
/// WebView) fetches and queries with `clients/web/citypack.js`, with the same answers as `CityPackKit`.
///
/// The parts are derived from the finished pack database (before its release rows), so they hold exactly what
/// the pack holds; `docs/WEB.md` describes them and `docs/schemas/web-*.schema.json` define them. Every file is
/// content-addressed (`web/<name>-<first 16 hex digits of its SHA-256>…gz`): a new release adds its files beside
/// the previous release's before `manifest.json` switches over, readers of any kept manifest always find the files
/// it names (``PackEmitter`` removes files no kept manifest references after the switch), and an app updating a
/// city fetches only the files whose hashes are new. Each part is a small head plus chunks (format 2):
/// - `places`: the head holds the shared tables (city, locales, category codes, tag keys by reference); the rows —
///   every POI and stop of the proximity index in (cell, id) order, then the searchable stops it does not hold —
///   are in `web/rows-….json.gz` chunks whose boundaries depend only on nearby rows (``WebFlavour/rowChunkMinBytes``),
///   each row with its search tokens, so a one-POI edit changes one chunk (``WebFlavour/placesPart``).
/// - `search`: the head alone: bm25 weights and the `terms` column's token strings by reference
///   (``WebFlavour/searchPart``); the FTS table's own tokens (read back through `fts5vocab`) are in the row chunks.
/// - `editorial`: cards, situations, actions, walking routes with regions and waypoints (one file).
/// - `transit`: stops, lines, services, trips and the departure timetable (only with GTFS): a head and the JSON text
///   in content-defined pieces (``WebFlavour/textChunkMinBytes``).
/// Strings per locale are not repeated: they are the copy tables `copy/web/<locale>.json` (manifest `copy`).
///
/// Output is deterministic: sorted keys, rows in primary-key order, gzip without name or time.
enum WebWriter {
    typealias Database = SQLiteDatabase<EmitError>

    /// Writes the parts into `<folder>/` (created) and returns them as manifest entries, sorted by name.
    /// - Parameters:
    ///   - database: The pack database (content rows written; release rows not yet).
    ///   - folder: The staged `web` folder.
    ///   - relativeTo: Prefix of the paths in the manifest (`web`).
    ///   - baseParts: The places, search and transit parts when their files are already in `folder` (made from
    ///     the same base database by an earlier build): only the editorial part is made.
    /// - Throws: ``EmitError`` located at the failing file.
    static func write(
        database: String, folder: String, relativeTo prefix: String, baseParts: [Manifest.WebPart]? = nil
    ) throws(EmitError) -> [Manifest.WebPart] {
        try OutputFiles.makeDirectory(folder)
        if let baseParts {
            let db = try Database(path: database, mode: .readOnly)
            defer { db.close() }
            let editorialPart = try writeHead(WebFlavour.editorialPart, try encode(editorial(db), path: database), folder: folder, prefix: prefix)
            return (baseParts + [editorialPart]).sorted { $0.name < $1.name }
        }
        // The places rows (the largest) are read on another thread, over a connection of its own.
        let placesTask = Background { () throws(EmitError) -> Places in
            let db = try Database(path: database, mode: .readOnly)
            defer { db.close() }
            var lap = TimeTrace.Lap()
            defer { lap.mark("web: places") }
            return try places(db)
        }
        defer { placesTask.join() }
        let db = try Database(path: database, mode: .readWriteCreate)
        defer { db.close() }
        var lap = TimeTrace.Lap()
        var out: [Manifest.WebPart] = []
        let searchValue = try search(db)
        lap.mark("web: search")
        out.append(try writeHead(WebFlavour.editorialPart, try encode(editorial(db), path: database), folder: folder, prefix: prefix))
        if try db.scalarInt("SELECT count(*) FROM \(PackSchema.Stop.table)") > 0 {
            out.append(try writeText(WebFlavour.transitPart, try encode(transit(db), path: database), folder: folder, prefix: prefix))
        }
        lap.mark("web: editorial, transit")
        let placesValue = try placesTask.value()
        out += try writeRows(places: placesValue, search: searchValue, folder: folder, prefix: prefix, path: database)
        lap.mark("web: rows")
        return out.sorted { $0.name < $1.name }
    }

    /// Compresses one file into `folder` as `<name>-<sha16><suffix>`: a release never rewrites a file an earlier
    /// manifest references.
    static func writeFile(_ name: String, suffix: String = ".json.gz", _ bytes: [UInt8], folder: String, prefix: String) throws(EmitError) -> Manifest.WebFile {
        let gz = try Gzip.compress(bytes: bytes, level: 9)
        let sha256 = FileDigest.sha256(of: gz)
        let file = "\(name)-\(sha256.prefix(16))\(suffix)"
        let path = (folder as NSString).appendingPathComponent(file)
        try OutputFiles.write(Data(gz), to: path)
        try OutputFiles.flush(path)
        return .init(path: "\(prefix)/\(file)", bytes: gz.count, sha256: sha256, uncompressedBytes: bytes.count)
    }

    /// A part that is one JSON file (its head).
    static func writeHead(_ name: String, _ json: Data, folder: String, prefix: String, chunks: [Manifest.WebFile]? = nil) throws(EmitError) -> Manifest.WebPart {
        let head = try writeFile(name, [UInt8](json), folder: folder, prefix: prefix)
        return .init(name: name, path: head.path, bytes: head.bytes, sha256: head.sha256, uncompressedBytes: head.uncompressedBytes, chunks: chunks)
    }

    /// A part whose JSON text is cut into content-defined pieces (``textPieces(_:)``), behind a head that says so:
    /// the reader joins the pieces' text and parses it. Generic: it knows nothing of the part's layout.
    static func writeText(_ name: String, _ json: Data, folder: String, prefix: String) throws(EmitError) -> Manifest.WebPart {
        let bytes = [UInt8](json)
        var pieces: [Manifest.WebFile] = []
        for range in textPieces(bytes) {
            pieces.append(try writeFile(name, suffix: ".text.gz", Array(bytes[range]), folder: folder, prefix: prefix))
        }
        let head = try encode(TextHead(pieces: pieces.count), path: folder)
        return try writeHead(name, head, folder: folder, prefix: prefix, chunks: pieces)
    }

    /// The head of a part stored as pieces of JSON text.
    struct TextHead: Encodable {
        var format = WebFlavour.formatVersion
        /// How the chunks make the part: their texts, joined, are its JSON.
        var assemble = "text"
        var pieces: Int
    }

    /// FNV-1a (32 bits) of bytes: the boundary hash of the chunkers (cheap, and easy to state in the docs).
    static func fnv1a<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    /// Content-defined pieces of a JSON text (``WebFlavour/textChunkMinBytes``): cut after a `,` once the piece
    /// holds the minimum and the hash of the 32 bytes before the cut is divisible by the divisor, or at the maximum.
    /// Cuts depend on the bytes just before them only, so an edit changes the pieces around it, not the rest.
    static func textPieces(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            let length = i + 1 - start
            if bytes[i] == UInt8(ascii: ","), length >= WebFlavour.textChunkMinBytes,
                length >= WebFlavour.textChunkMaxBytes
                    || fnv1a(bytes[(i + 1 - 32)...i]) % WebFlavour.textChunkDivisor == 0
            {
                out.append(start..<(i + 1))
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count || out.isEmpty { out.append(start..<bytes.count) }
        return out
    }

    static func encode(_ value: some Encodable, path: String) throws(EmitError) -> Data {
        do { return try SortedJSON.data(value, pretty: false) } catch {
            throw .io(path: path, message: "cannot encode the web flavour: \(error)")
        }
    }

    /// A `{"<locale>": "<text>"}` column as an object (nil for NULL or malformed text).
    static func texts(_ text: String?) -> [String: String]? {
        guard let text, let data = text.data(using: .utf8) else { return nil }
        return try? JSONDecoder().decode([String: String].self, from: data)
    }

    // MARK: - places

    /// Categories of stops by GTFS location_type: 2, 1, and every other (ascending).
    static let stopCategories = ["transit_entrance", "transit_station", "transit_stop"]

    /// The rows of `places` as read from the pack, in index order (``writeRows(places:search:folder:prefix:path:)``
    /// chunks them).
    struct Places {
        var city: String
        var defaultLocale: String
        var locales: [String]
        var precision: Int
        /// Distinct geohash-8 keys, ascending; `counts[i]` rows of the columns below belong to `cells[i]`. Rows
        /// after the indexed ones (`sum(counts)`) are searchable stops the index does not hold (details only).
        var cells: [String] = []
        var counts: [Int] = []
        var id: [Int64] = []
        var lat: [Double] = []
        var lon: [Double] = []
        var category: [String] = []
        var name: [String?] = []
        var names: [[String: String]] = []
        var tags: [[String: String]] = []
        var stopId: [String?] = []
        /// Further categories of POIs and, for stops, the categories of the modes serving them (`poi_category`),
        /// ascending, keyed by id; only places that have some.
        var also: [String: [String]] = [:]
        /// Every category of the pack (`category` table), ascending.
        var categoryCodes: [String] = []
        /// Category labels per category and locale (`category.label` for the default locale, `category_label`):
        /// what describes an unnamed place.
        var labels: [String: [String: String]] = [:]
        /// The other id of each linked place (meta `place_links`, both directions), keyed by id.
        var links: [String: Int64] = [:]
        /// The place of ids that share one (`PackSchema.PlaceLink.groups`: linked pairs, platforms named as their
        /// station), keyed by id: readers return one result per place.
        var groups: [String: Int64] = [:]
    }

    static func places(_ db: Database) throws(EmitError) -> Places {
        var meta: [String: String] = [:]
        let metaRows = try db.prepare(PackSchema.Meta.selectAll)
        while try metaRows.step() { meta[metaRows.text(0) ?? ""] = metaRows.text(1) ?? "" }
        var out = Places(
            city: meta[PackSchema.MetaKey.cityID] ?? "", defaultLocale: meta[PackSchema.MetaKey.defaultLocale] ?? "en",
            locales: (meta[PackSchema.MetaKey.locales] ?? "").split(separator: ",").map { String($0) },
            precision: PackSchema.bucketPrecision)
        var names: [Int64: [String: String]] = [:]
        typealias N = PackSchema.POIName
        typealias P = PackSchema.POI
        typealias A = PackSchema.POICategory
        typealias S = PackSchema.Stop
        let nameRows = try db.prepare("SELECT \(N.poi), \(N.locale), \(N.name) FROM \(N.table)")
        while try nameRows.step() { names[nameRows.int64(0), default: [:]][nameRows.text(1) ?? ""] = nameRows.text(2) ?? "" }
        // The same points, hence the same index order, as the reader's proximity index (`PackReader`): POIs from
        // `poi` (coordinates as stored, read back exactly), stops from `stop_bucket`.
        var points: [ProximityIndex.Point] = []
        var poiDetails: [Int64: (category: String, name: String?, tags: String?)] = [:]
        let pois = try db.prepare(
            "SELECT p.\(P.id), \(PackSchema.degreesSQL("p.\(P.lat)")), \(PackSchema.degreesSQL("p.\(P.lon)")), "
                + "\(PackSchema.categorySQL("p")), p.\(P.name), p.\(P.tags) FROM \(P.table) p \(PackSchema.categoryJoinSQL("p"))")
        while try pois.step() {
            let id = pois.int64(0)
            points.append(ProximityIndex.Point(id: id, lat: pois.double(1), lon: pois.double(2)))
            poiDetails[id] = (pois.text(3) ?? "", pois.isNull(4) ? nil : pois.text(4), pois.text(5))
        }
        var codes: [String] = []
        let categoryRows = try db.prepare(PackSchema.categoryCodesQuery)
        while try categoryRows.step() { codes.append(categoryRows.text(0) ?? "") }
        out.categoryCodes = codes.sorted()
        let alsoRows = try db.prepare("SELECT \(A.poi), \(A.category) FROM \(A.table) ORDER BY \(A.poi), \(A.category)")
        while try alsoRows.step() {
            let code = Int(alsoRows.int64(1))
            out.also[String(alsoRows.int64(0)), default: []].append(code < codes.count ? codes[code] : String(code))
        }
        for key in out.also.keys { out.also[key]?.sort() }
        typealias C = PackSchema.Category
        typealias L = PackSchema.CategoryLabel
        let labelRows = try db.prepare(
            "SELECT \(C.id), ?1, \(C.label) FROM \(C.table) UNION ALL SELECT \(L.category), \(L.locale), \(L.label) FROM \(L.table)")
        labelRows.bind(1, out.defaultLocale)
        while try labelRows.step() { out.labels[labelRows.text(0) ?? "", default: [:]][labelRows.text(1) ?? ""] = labelRows.text(2) ?? "" }
        var pairs: [(Int64, Int64)] = []
        for (poi, stop) in PackSchema.PlaceLink.decode(meta[PackSchema.MetaKey.placeLinks] ?? "") {
            out.links[String(poi)] = stop
            out.links[String(stop)] = poi
            pairs.append((poi, stop))
        }
        let sameStation = try db.prepare(PackSchema.PlaceLink.samePlaceAsParentQuery)
        while try sameStation.step() { pairs.append((sameStation.int64(0), sameStation.int64(1))) }
        for (id, group) in PackSchema.PlaceLink.groups(pairs) { out.groups[String(id)] = group }
        let buckets = try db.prepare(PackSchema.StopBucket.pointsQuery)
        var indexedStops: Set<Int64> = []
        while try buckets.step() {
            points.append(ProximityIndex.Point(id: buckets.int64(0), lat: buckets.double(1), lon: buckets.double(2)))
            indexedStops.insert(buckets.int64(0))
        }
        var stopDetails: [Int64: (stopID: String?, name: String?, type: Int64)] = [:]
        let stops = try db.prepare("SELECT \(S.id), \(S.stopID), \(S.name), \(S.locationType) FROM \(S.table)")
        while try stops.step() {
            stopDetails[stops.int64(0)] = (stops.text(1), stops.isNull(2) ? nil : stops.text(2), stops.int64(3))
        }
        func stopCategory(_ type: Int64) -> String {
            switch type {
            case 1: stopCategories[1]
            case 2: stopCategories[0]
            default: stopCategories[2]
            }
        }
        let index = ProximityIndex(points)
        var lastCell: Int64? = nil
        for i in index.ids.indices {
            let cell = index.cells[i]
            if cell != lastCell {
                out.cells.append(Geohash(cell: cell, precision: PackSchema.bucketPrecision)?.string ?? "")
                out.counts.append(0)
                lastCell = cell
            }
            out.counts[out.counts.count - 1] += 1
            let id = index.ids[i]
            out.id.append(id)
            out.lat.append(index.lats[i])
            out.lon.append(index.lons[i])
            if PackSchema.isStopID(id) {
                let stop = stopDetails[id]
                out.category.append(stopCategory(stop?.type ?? 0))
                out.name.append(stop?.name)
                out.names.append([:])
                out.tags.append([:])
                out.stopId.append(stop?.stopID)
            } else {
                let poi = poiDetails[id]
                out.category.append(poi?.category ?? "")
                out.name.append(poi?.name)
                out.names.append(names[id] ?? [:])
                out.tags.append(poi?.tags.flatMap(PackSchema.decodeTags) ?? [:])
                out.stopId.append(nil)
            }
        }
        // Places that search can return but the proximity index does not hold (named stops outside the bbox or
        // without coordinates): details only, after the indexed rows; `counts` covers the indexed rows alone.
        let searchable = try searchIDs(db)
        let unindexed = try db.prepare(
            "SELECT \(PackSchema.list([S.id, S.stopID, S.name, S.lat, S.lon, S.locationType])) FROM \(S.table) ORDER BY \(S.id)")
        while try unindexed.step() {
            let id = unindexed.int64(0)
            guard searchable.contains(id), !indexedStops.contains(id) else { continue }
            out.id.append(id)
            out.stopId.append(unindexed.text(1))
            out.name.append(unindexed.isNull(2) ? nil : unindexed.text(2))
            out.lat.append(unindexed.isNull(3) ? 0 : unindexed.double(3))
            out.lon.append(unindexed.isNull(4) ? 0 : unindexed.double(4))
            out.category.append(stopCategory(unindexed.int64(5)))
            out.names.append([:])
            out.tags.append([:])
        }
        return out
    }

    // MARK: - editorial

    struct Editorial: Encodable {
        struct Card: Encodable { var id: String; var position: Int; var icon: String?; var home: Bool; var title: [String: String] }
        struct Situation: Encodable {
            var id: String; var card: String; var position: Int; var title: [String: String]; var body: [String: String]?
        }
        struct Action: Encodable {
            var id: String; var situation: String; var position: Int; var kind: String; var target: String?
            var label: [String: String]; var text: [String: String]?
        }
        struct Waypoint: Encodable {
            var sequence: Int; var poi: Int64?; var lat: Double; var lon: Double; var radius: Double
            var name: [String: String]?
        }
        struct Route: Encodable {
            var id: String; var position: Int; var name: [String: String]; var description: [String: String]?
            var lengthM: Double; var region: [Double]; var waypoints: [Waypoint]
        }
        var format = WebFlavour.formatVersion
        var cards: [Card] = []
        var situations: [Situation] = []
        var actions: [Action] = []
        var routes: [Route] = []
    }

    static func editorial(_ db: Database) throws(EmitError) -> Editorial {
        var out = Editorial()
        typealias C = PackSchema.Card
        typealias S = PackSchema.Situation
        typealias A = PackSchema.Action
        typealias R = PackSchema.Route
        typealias W = PackSchema.RouteWaypoint
        let cards = try db.prepare(
            "SELECT \(PackSchema.list([C.id, C.position, C.icon, C.home, C.title])) FROM \(C.table) "
                + "ORDER BY \(C.position), \(C.id)")
        while try cards.step() {
            out.cards.append(.init(
                id: cards.text(0) ?? "", position: Int(cards.int64(1)), icon: cards.isNull(2) ? nil : cards.text(2),
                home: cards.int64(3) != 0, title: texts(cards.text(4)) ?? [:]))
        }
        let situations = try db.prepare(
            "SELECT \(PackSchema.list([S.id, S.card, S.position, S.title, S.body])) FROM \(S.table) "
                + "ORDER BY \(S.card), \(S.position), \(S.id)")
        while try situations.step() {
            out.situations.append(.init(
                id: situations.text(0) ?? "", card: situations.text(1) ?? "", position: Int(situations.int64(2)),
                title: texts(situations.text(3)) ?? [:], body: texts(situations.text(4))))
        }
        let actions = try db.prepare(
            "SELECT \(PackSchema.list([A.id, A.situation, A.position, A.kind, A.target, A.label, A.text])) FROM \(A.table) "
                + "ORDER BY \(A.situation), \(A.position), \(A.id)")
        while try actions.step() {
            out.actions.append(.init(
                id: actions.text(0) ?? "", situation: actions.text(1) ?? "", position: Int(actions.int64(2)),
                kind: actions.text(3) ?? "", target: actions.isNull(4) ? nil : actions.text(4),
                label: texts(actions.text(5)) ?? [:], text: texts(actions.text(6))))
        }
        let routes = try db.prepare(
            "SELECT \(PackSchema.list([R.id, R.position, R.name, R.description, R.lengthM])), "
                + "\(PackSchema.list([R.minLon, R.minLat, R.maxLon, R.maxLat])) FROM \(R.table) ORDER BY \(R.position), \(R.id)")
        let waypoints = try db.prepare(
            "SELECT \(PackSchema.list([W.sequence, W.poi, W.lat, W.lon, W.radius, W.name])) FROM \(W.table) "
                + "WHERE \(W.route) = ?1 ORDER BY \(W.sequence)")
        while try routes.step() {
            let id = routes.text(0) ?? ""
            var points: [Editorial.Waypoint] = []
            waypoints.reset()
            waypoints.bind(1, id)
            while try waypoints.step() {
                points.append(.init(
                    sequence: Int(waypoints.int64(0)), poi: waypoints.isNull(1) ? nil : waypoints.int64(1),
                    lat: waypoints.double(2), lon: waypoints.double(3), radius: waypoints.double(4),
                    name: texts(waypoints.text(5))))
            }
            waypoints.reset()
            out.routes.append(.init(
                id: id, position: Int(routes.int64(1)), name: texts(routes.text(2)) ?? [:],
                description: texts(routes.text(3)), lengthM: routes.double(4),
                region: [routes.double(5), routes.double(6), routes.double(7), routes.double(8)], waypoints: points))
        }
        return out
    }
}
