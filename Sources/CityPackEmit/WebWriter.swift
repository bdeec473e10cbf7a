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
            try PackTables.addStandIns(in: db, formatVersion: PackSchema.formatVersion)
            defer { db.close() }
            let editorialPart = try writeHead(WebFlavour.editorialPart, try encode(editorial(db), path: database), folder: folder, prefix: prefix)
            return (baseParts + [editorialPart]).sorted { $0.name < $1.name }
        }
        // The places rows (the largest) are read on another thread, over a connection of its own.
        let placesTask = Background { () throws(EmitError) -> Places in
            let db = try Database(path: database, mode: .readOnly)
            try PackTables.addStandIns(in: db, formatVersion: PackSchema.formatVersion)
            defer { db.close() }
            var lap = TimeTrace.Lap()
            defer { lap.mark("web: places") }
            return try places(db)
        }
        defer { placesTask.join() }
        let db = try Database(path: database, mode: .readWriteCreate)
        defer { db.close() }
        try PackTables.addStandIns(in: db, formatVersion: PackSchema.formatVersion)
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
        let gz = try Gzip.compress(bytes: bytes, level: Gzip.webLevel)
        let sha256 = FileDigest.sha256(of: gz)
        let file = "\(name)-\(sha256.prefix(16))\(suffix)"
        let path = (folder as NSString).appendingPathComponent(file)
        try OutputFiles.write(Data(gz), to: path)
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
        /// `poi.wheelchair` by row (nil for stops and unknown).
        var wheelchair: [String?] = []
        /// `poi.hours` by row (nil for stops and places without readable opening hours).
        var hours: [String?] = []
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
        typealias M = PackSchema.Meta
        var meta: [String: String] = [:]
        let metaRows = try db.prepare(M.all)
        while try metaRows.step() { meta[metaRows[M.key]] = metaRows[M.value] }
        var out = Places(
            city: meta[PackSchema.MetaKey.cityID] ?? "", defaultLocale: meta[PackSchema.MetaKey.defaultLocale] ?? "en",
            locales: (meta[PackSchema.MetaKey.locales] ?? "").split(separator: ",").map { String($0) },
            precision: PackSchema.bucketPrecision)
        var names: [Int64: [String: String]] = [:]
        typealias PN = PackSchema.POIName
        typealias P = PackSchema.POI
        typealias PC = PackSchema.POICategory
        typealias ST = PackSchema.Stop
        let nameRows = try db.prepare(PN.select([PN.poi, PN.locale, PN.name]))
        while try nameRows.step() { names[nameRows[PN.poi], default: [:]][nameRows[PN.locale]] = nameRows[PN.name] }
        var codes: [String] = []
        let categoryRows = try db.prepare(PackSchema.categoryCodesInOrder)
        while try categoryRows.step() { codes.append(categoryRows[PackSchema.Category.id]) }
        // The same points, hence the same index order, as the reader's proximity index (`PackReader`): POIs from
        // `poi` (coordinates as stored, read back exactly), stops from `stop_bucket`.
        var points: [ProximityIndex.Point] = []
        var poiDetails: [Int64: (category: String, row: P.Row)] = [:]
        let pois = try db.prepare(P.Row.query())
        while try pois.step() {
            let row = P.Row(pois)
            points.append(ProximityIndex.Point(id: row.id, lat: row.lat, lon: row.lon))
            poiDetails[row.id] = (row.category.id(codes: codes), row)
        }
        out.categoryCodes = codes.sorted()
        let alsoRows = try db.prepare(PC.select([PC.poi, PC.category], orderBy: [PC.poi, PC.category]))
        while try alsoRows.step() {
            out.also[String(alsoRows[PC.poi]), default: []].append(alsoRows[PC.category].id(codes: codes))
        }
        for key in out.also.keys { out.also[key]?.sort() }
        typealias C = PackSchema.Category
        typealias CL = PackSchema.CategoryLabel
        let labelRows = try db.prepare(PackSchema.Query(
            "SELECT \(C.id), ?1, \(C.label) FROM \(C.table) UNION ALL SELECT \(CL.category), \(CL.locale), \(CL.label) FROM \(CL.table)",
            results: [CL.category, CL.locale, CL.label], parameters: [CL.locale]))
        labelRows.bind(CL.locale, out.defaultLocale)
        while try labelRows.step() { out.labels[labelRows[CL.category], default: [:]][labelRows[CL.locale]] = labelRows[CL.label] }
        var pairs: [(Int64, Int64)] = []
        for (poi, stop) in PackSchema.PlaceLink.decode(meta[PackSchema.MetaKey.placeLinks] ?? "") {
            out.links[String(poi)] = stop
            out.links[String(stop)] = poi
            pairs.append((poi, stop))
        }
        let sameStation = try db.prepare(PackSchema.PlaceLink.samePlaceAsParent)
        while try sameStation.step() {
            pairs.append((sameStation[PackSchema.PlaceLink.platform], sameStation[PackSchema.PlaceLink.station]))
        }
        for (id, group) in PackSchema.PlaceLink.groups(pairs) { out.groups[String(id)] = group }
        typealias SB = PackSchema.StopBucket
        let buckets = try db.prepare(SB.points)
        var indexedStops: Set<Int64> = []
        while try buckets.step() {
            points.append(ProximityIndex.Point(id: buckets[SB.stop], lat: buckets[SB.lat], lon: buckets[SB.lon]))
            indexedStops.insert(buckets[SB.stop])
        }
        var stopDetails: [Int64: (stopID: String, name: String?, type: Int)] = [:]
        let stops = try db.prepare(ST.select([ST.id, ST.stopID, ST.name, ST.locationType]))
        while try stops.step() {
            stopDetails[stops[ST.id]] = (stops[ST.stopID], stops[ST.name], stops[ST.locationType])
        }
        func stopCategory(_ type: Int) -> String {
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
                out.wheelchair.append(nil)
                out.hours.append(nil)
            } else {
                let poi = poiDetails[id]
                out.category.append(poi?.category ?? "")
                out.name.append(poi?.row.name)
                out.names.append(names[id] ?? [:])
                out.tags.append(poi.flatMap { PackSchema.decodeTags($0.row.tags) } ?? [:])
                out.stopId.append(nil)
                out.wheelchair.append(poi?.row.wheelchair?.rawValue)
                out.hours.append(poi?.row.hours)
            }
        }
        // Places that search can return but the proximity index does not hold (named stops outside the bbox or
        // without coordinates): details only, after the indexed rows; `counts` covers the indexed rows alone.
        let searchable = try searchIDs(db)
        let unindexed = try db.prepare(
            ST.select([ST.id, ST.stopID, ST.name, ST.lat, ST.lon, ST.locationType], orderBy: [ST.id]))
        while try unindexed.step() {
            let id = unindexed[ST.id]
            guard searchable.contains(id), !indexedStops.contains(id) else { continue }
            out.id.append(id)
            out.stopId.append(unindexed[ST.stopID])
            out.name.append(unindexed[ST.name])
            out.lat.append(unindexed[ST.lat] ?? 0)
            out.lon.append(unindexed[ST.lon] ?? 0)
            out.category.append(stopCategory(unindexed[ST.locationType]))
            out.wheelchair.append(nil)
            out.hours.append(nil)
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
        typealias CD = PackSchema.Card
        typealias SI = PackSchema.Situation
        typealias AC = PackSchema.Action
        typealias RT = PackSchema.Route
        typealias RW = PackSchema.RouteWaypoint
        let cards = try db.prepare(CD.select(CD.columns, orderBy: [CD.position, CD.id]))
        while try cards.step() {
            out.cards.append(.init(
                id: cards[CD.id], position: cards[CD.position], icon: cards[CD.icon], home: cards[CD.home],
                title: texts(cards[CD.title]) ?? [:]))
        }
        let situations = try db.prepare(SI.select(SI.columns, orderBy: [SI.card, SI.position, SI.id]))
        while try situations.step() {
            out.situations.append(.init(
                id: situations[SI.id], card: situations[SI.card], position: situations[SI.position],
                title: texts(situations[SI.title]) ?? [:], body: texts(situations[SI.body])))
        }
        let actions = try db.prepare(AC.select(AC.columns, orderBy: [AC.situation, AC.position, AC.id]))
        while try actions.step() {
            out.actions.append(.init(
                id: actions[AC.id], situation: actions[AC.situation], position: actions[AC.position],
                kind: actions[AC.kind], target: actions[AC.target],
                label: texts(actions[AC.label]) ?? [:], text: texts(actions[AC.text])))
        }
        let routes = try db.prepare(RT.select(RT.columns, orderBy: [RT.position, RT.id]))
        let waypoints = try db.prepare(RW.select(RW.columns, where: [RW.route], orderBy: [RW.sequence]))
        while try routes.step() {
            let id = routes[RT.id]
            var points: [Editorial.Waypoint] = []
            waypoints.reset()
            waypoints.bind(RW.route, id)
            while try waypoints.step() {
                points.append(.init(
                    sequence: waypoints[RW.sequence], poi: waypoints[RW.poi], lat: waypoints[RW.lat],
                    lon: waypoints[RW.lon], radius: waypoints[RW.radius], name: texts(waypoints[RW.name])))
            }
            waypoints.reset()
            out.routes.append(.init(
                id: id, position: routes[RT.position], name: texts(routes[RT.name]) ?? [:],
                description: texts(routes[RT.description]), lengthM: routes[RT.lengthM],
                region: [routes[RT.minLon], routes[RT.minLat], routes[RT.maxLon], routes[RT.maxLat]], waypoints: points))
        }
        return out
    }
}
