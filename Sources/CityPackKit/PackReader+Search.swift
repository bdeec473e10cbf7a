import CityPackFormat
import CityPackSQLite
import CityPackSupport
import Foundation

/// Search, nearby and listings: the questions an app asks ("where is the nearest toilet?"). The web reader
/// (`clients/web/citypack.js`, its `search.js` and `proximity.js`) answers them with the same lists; docs/WEB.md ("Search") states the rules.
extension PackReader {
    /// Results `search` returns when no limit is given (the web reader's default too).
    package static let defaultSearchLimit = ReaderDefaults.searchLimit
    /// Results `nearby` returns when no limit is given (the web reader's default too).
    package static let defaultNearbyLimit = ReaderDefaults.nearbyLimit
    /// Places `places(in:)` returns when no limit is given (the web reader's default too).
    package static let defaultListingLimit = ReaderDefaults.listingLimit
    /// First radius of the expanding search for the nearest places of a category, metres; it grows 4× a step.
    static let firstRingMetres = ReaderDefaults.firstRingMetres

    /// Places and transit stops within `radius` metres of a point by great-circle distance, nearest first (ties
    /// by id), optionally of one category (its own, a further one, or for stops one of the modes serving it).
    ///
    /// Exact: every place within the radius and none outside it, across geohash cell edges, the antimeridian and
    /// high latitudes. A GTFS stop and the OSM feature of the same place (meta `place_links`) are one result, the nearer
    /// one, carrying the other's id (``PlaceResult/linkedID``).
    /// - Parameters:
    ///   - lat: Latitude in degrees.
    ///   - lon: Longitude in degrees.
    ///   - radius: Metres (default 25). A negative or non-finite radius, or a non-finite position, yields `[]`.
    ///   - category: Only places of this category id (e.g. `pharmacy`); nil for all.
    ///   - limit: At most this many results (default ``defaultNearbyLimit``); ≤ 0 yields `[]`.
    ///   - offset: Results to skip first, for paging (default 0).
    ///   - locale: Locale for ``PlaceResult/name`` (BCP 47 such as `de-AT`); nil = the pack's default locale.
    ///   - openAt: Only places open at this instant in the city's time zone (``timeZone``; "open now": `Date()`);
    ///     places whose hours are unknown then are left out too. Nil for all.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func nearby(
        lat: Double, lon: Double, radius: Double = ReaderDefaults.nearbyRadiusMetres, category: String? = nil, limit: Int = ReaderDefaults.nearbyLimit,
        offset: Int = 0, locale: String? = nil, openAt: Date? = nil
    ) throws(PackError) -> [PlaceResult] {
        try connection.withDatabase { _ throws(PackError) in
            guard limit > 0 else { return [] }
            let index = category.map { directory.byCategory[$0] } ?? proximityIndex
            guard let index else { return [] }
            let hits = index.within(lat: lat, lon: lon, radius: radius)
            let distances = Dictionary(hits.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
            guard let openAt else {
                let ids = directory.folded(hits.map(\.id)).dropFirst(max(0, offset)).prefix(limit)
                return try results(ids, locale: locale, distances: distances)
            }
            let zone = timeZone
            let open = try results(directory.folded(hits.map(\.id))[...], locale: locale, distances: distances)
                .filter { $0.openState(at: openAt, timeZone: zone).state == .open }
            return Array(open.dropFirst(max(0, offset)).prefix(limit))
        }
    }

    /// Search as the search box of an app does it.
    ///
    /// - A **category query** — the text is a word or phrase that names a category in any locale the templates
    ///   know (``CityPackFormat/CategoryWords``; food words name every food category) (`toilet`, `WC`, `Toilette`, `bancomat`, `metro`, `U-Bahn`; any case, diacritics and the
    ///   folds of ``CityPackFormat/SearchFold``) — returns that category's places (stops: by the modes serving
    ///   them): with a position nearest first (ties by id), exact, found by an expanding ring over the category's
    ///   own proximity index; without one named places first, then stations before other places before entrances,
    ///   then by id. When the category has fewer places than the page needs, the name matches follow.
    /// - Otherwise a **name query**: the full-text index over names (every locale) and category terms; every
    ///   word must match, first all whole (tier 1), then the last as a prefix (tier 2, `caf` finds `Café`). With a
    ///   position each tier is ordered by distance (ties by id); without one by bm25 (names weighted 10× over
    ///   terms; ties by id), named places before unnamed ones within a tier.
    ///
    /// Either way a GTFS stop and the OSM feature of the same place are one result (the first one), carrying the
    /// other's id, and every result has a name (``PlaceResult/named`` false: its category's label).
    /// - Parameters:
    ///   - text: What the user typed; each word quoted, so no FTS5 syntax can be injected.
    ///   - near: The user's position, or nil.
    ///   - locale: Locale for ``PlaceResult/name``; nil = the pack's default locale.
    ///   - limit: At most this many results (default ``defaultSearchLimit``); ≤ 0 yields `[]`.
    ///   - offset: Results to skip first, for paging (default 0).
    ///   - openAt: Only places open at this instant in the city's time zone (as ``nearby(lat:lon:radius:category:limit:offset:locale:openAt:)``),
    ///     in the same order; nil for all.
    /// - Returns: Results with ``PlaceResult/distanceMetres`` when `near` is given; `[]` when the text has no words.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func search(
        _ text: String, near: Coordinate? = nil, locale: String? = nil, limit: Int = ReaderDefaults.searchLimit,
        offset: Int = 0, openAt: Date? = nil
    ) throws(PackError) -> [PlaceResult] {
        guard let openAt, limit > 0 else { return try search(text, near: near, locale: locale, limit: limit, offset: offset) }
        // The open places of ever longer pages of all results, until the page is full or the results run out.
        let zone = timeZone
        let wanted = max(0, offset) + limit
        var asked = max(wanted * 4, 64)
        while true {
            let all = try search(text, near: near, locale: locale, limit: asked, offset: 0)
            let open = all.filter { $0.openState(at: openAt, timeZone: zone).state == .open }
            if open.count >= wanted || all.count < asked { return Array(open.dropFirst(max(0, offset)).prefix(limit)) }
            asked *= 4
        }
    }

    private func search(
        _ text: String, near: Coordinate?, locale: String?, limit: Int, offset: Int
    ) throws(PackError) -> [PlaceResult] {
        try connection.withDatabase { db throws(PackError) in
            guard limit > 0 else { return [] }
            let wanted = max(0, offset) + limit
            let categories = try categoryQuery(text, locale: locale, db: db)
            var ids: [Int64] = []
            var distances: [Int64: Double] = [:]
            if !categories.isEmpty {
                if let near {
                    let hits = nearest(categories: categories, lat: near.lat, lon: near.lon, count: wanted)
                    for hit in hits { distances[hit.id] = hit.distance }
                    ids = hits.map(\.id)
                } else {
                    var members: Set<Int64> = []
                    for category in categories { members.formUnion(directory.byCategory[category]?.ids ?? []) }
                    ids = members.sorted { directory.listingKey($0) < directory.listingKey($1) }
                }
            }
            // A name query; after a category's places (all of them, when fewer than the page needs), its name
            // matches ("Museum Diner" for "museum").
            if categories.isEmpty || directory.folded(ids, first: wanted).count < wanted {
                // The words as FTS5 sees them, for the in-memory index (the same words `matchExpression` quotes).
                let words = Self.searchWords(text).map(CJKBigrams.expand)
                for prefixLast in [false, true] {
                    guard let expression = Self.matchExpression(for: text, prefixLast: prefixLast) else { continue }
                    // A tier after a full page changes no result.
                    if ids.count >= wanted && directory.folded(ids, first: wanted).count >= wanted { break }
                    // Places already listed (a match is one row, so a tier lists each once).
                    let seen = Set(ids)
                    if let near {
                        // Ordered by distance (ties by id), so unranked matches, measured at the proximity index's
                        // positions (the ones `details` gives) without reading a row.
                        var measured: [(distance: Double, id: Int64)] = []
                        if let postings = try searchPostings(db), let rows = postings.rows(matching: words, prefixLast: prefixLast)
                        {
                            measured.reserveCapacity(rows.count)
                            for row in rows {
                                let id = searchIDs[Int(row) - 1]
                                let at = postings.positions[Int(row) - 1]
                                guard !at.lat.isNaN, !seen.contains(id) else { continue }
                                measured.append((GreatCircle.distance(near.lat, near.lon, at.lat, at.lon), id))
                            }
                        } else {
                            for id in try unrankedTextMatches(expression, db: db) where !seen.contains(id) {
                                guard let (lat, lon) = try position(id) else { continue }
                                measured.append((GreatCircle.distance(near.lat, near.lon, lat, lon), id))
                            }
                        }
                        measured.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
                        ids += measured.map(\.id)
                    } else {
                        // bm25 order, named places first (a stable partition).
                        var tier = try textMatches(expression, db: db).filter { !seen.contains($0.id) }
                        tier = tier.filter { directory.named.contains($0.id) } + tier.filter { !directory.named.contains($0.id) }
                        ids += tier.map(\.id)
                    }
                }
            }
            let page = directory.folded(ids, first: wanted).dropFirst(max(0, offset))
            if let near {
                // The name matches' distances, measured again for the page only (the same positions, so the same values).
                for id in page where distances[id] == nil {
                    if let (lat, lon) = try position(id) { distances[id] = GreatCircle.distance(near.lat, near.lon, lat, lon) }
                }
            }
            return try results(page, locale: locale, distances: distances)
        }
    }

    /// Places inside a bounding box, for drawing a map: named places first, then stations before other places
    /// before entrances, then by id; linked pairs folded into one result.
    /// - Parameters:
    ///   - box: Degrees; `minLon > maxLon` crosses the antimeridian.
    ///   - category: Only places of this category id; nil for all.
    ///   - limit: At most this many results (default ``defaultListingLimit``); ≤ 0 yields `[]`.
    ///   - offset: Results to skip first, for paging (default 0).
    ///   - locale: Locale for ``PlaceResult/name``; nil = the pack's default locale.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func places(
        in box: BoundingBox, category: String? = nil, limit: Int = ReaderDefaults.listingLimit, offset: Int = 0,
        locale: String? = nil
    ) throws(PackError) -> [PlaceResult] {
        try connection.withDatabase { _ throws(PackError) in
            guard limit > 0 else { return [] }
            let index = category.map { directory.byCategory[$0] } ?? proximityIndex
            guard let index else { return [] }
            var ids: [Int64] = []
            for row in 0..<index.count {
                let lat = index.lats[row]
                let lon = index.lons[row]
                guard lat >= box.minLat, lat <= box.maxLat else { continue }
                let inLon = box.minLon <= box.maxLon ? (lon >= box.minLon && lon <= box.maxLon) : (lon >= box.minLon || lon <= box.maxLon)
                if inLon { ids.append(index.ids[row]) }
            }
            ids.sort { directory.listingKey($0) < directory.listingKey($1) }
            let page = directory.folded(ids).dropFirst(max(0, offset)).prefix(limit)
            return try results(page, locale: locale, distances: [:])
        }
    }

    /// The results of ids in order (a missing place is left out). Called with the lock held.
    func results(_ ids: some Sequence<Int64>, locale: String?, distances: [Int64: Double]) throws(PackError) -> [PlaceResult] {
        var out: [PlaceResult] = []
        for id in ids {
            if let place = try places.result(id, locale: locale, distance: distances[id]) { out.append(place) }
        }
        return out
    }

    /// The categories a text names (``CategoryWordIndex``), ascending; empty when it names none. Called with the
    /// lock held.
    func categoryQuery(_ text: String, locale: String? = nil, db: PackConnection.Database) throws(PackError) -> [String] {
        let kept = Self.searchWords(text)
        guard !kept.isEmpty, let words = try categoryWords(db) else { return [] }
        // Tiers: a word of the reader's language (or the category's id, or the pack's own terms), else of the
        // city's languages, else of any: in English "bar" is a bar, not the Italian café, and a Swede's "bar"
        // in Milan finds what Milan calls a bar.
        let (reader, city) = preferredLanguages(locale)
        var tiers: [[String]] = [[], [], []]
        for row in words.rows(naming: kept.map(CJKBigrams.expand).joined(separator: " ")) {
            let language = row.locale.map(Self.language)
            let tier = language.map { reader.contains($0) ? 0 : city.contains($0) ? 1 : 2 } ?? 0
            for t in tier..<3 where tiers[t].last != row.category { tiers[t].append(row.category) }
        }
        return tiers.first { !$0.isEmpty } ?? []
    }

    /// The languages whose category words come first (``categoryQuery(_:locale:db:)``): the reader's (the pack's
    /// default locale when none is given) with `und` (the category ids), then the city's (meta `locales`).
    func preferredLanguages(_ locale: String?) -> (reader: Set<String>, city: Set<String>) {
        let city = (meta.values[PackSchema.MetaKey.locales] ?? "").split(separator: ",").map { Self.language(String($0)) }
        let reader = (locale ?? meta.values[PackSchema.MetaKey.defaultLocale]).map(Self.language)
        return (Set([reader, "und"].compactMap { $0 }), Set(city))
    }

    /// The language of a BCP 47 tag, lower-cased (`pt-PT` → `pt`, `zh_Hant` → `zh`).
    static func language(_ tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    /// The lookup of category words, made on first use (``CategoryWordIndex``): the built-in
    /// ``CityPackFormat/CategoryWords`` of the pack's categories and the pack's own meta `category_terms`; nil
    /// when SQLite offers no FTS5 tokenizer. Called with the lock held.
    func categoryWords(_ db: PackConnection.Database) throws(PackError) -> CategoryWordIndex? {
        if let categoryIndex { return categoryIndex }
        typealias S = PackSchema.Search
        guard let tokenizer = db.fts5Tokenizer(S.tokenizer.name, arguments: S.tokenizer.arguments) else { return nil }
        var index = CategoryWordIndex(tokenizer: tokenizer)
        // The pack's categories: its `category` table, or for a pack without a filled one (format 1) those its
        // places are filed under, so an old pack answers a category word as its newer twin does.
        typealias C = PackSchema.Category
        var categories: [String] = []
        if try PlaceLookup.hasTable(db, C.table) {
            let ids = try db.prepare(C.select([C.id], orderBy: [C.id]))
            while try ids.step() { categories.append(ids[C.id]) }
        }
        if categories.isEmpty { categories = directory.byCategory.keys.sorted() }
        for category in categories {
            for (locale, words) in (CategoryWords.byLocale[category] ?? [:]).sorted(by: { $0.key < $1.key }) {
                for word in words { index.add(CJKBigrams.expand(SearchFold.apply(word)), category: category, locale: locale) }
            }
        }
        for row in PackSchema.CategoryTerm.decode(categoryTermsMeta ?? "") { index.add(row.term, category: row.category, locale: nil) }
        categoryTermsMeta = nil
        index.finish()
        categoryIndex = index
        return index
    }

    /// The `count` nearest places of the categories (after folding linked pairs), nearest first, ties by id:
    /// rings of ``firstRingMetres`` × 4ⁿ over each category's index until enough are inside, else every member.
    /// Exact, because a ring returns every place within it.
    func nearest(categories: [String], lat: Double, lon: Double, count: Int) -> [ProximityIndex.Match] {
        let indexes = categories.compactMap { directory.byCategory[$0] }
        let total = indexes.reduce(0) { $0 + $1.count }
        guard total > 0, lat.isFinite, lon.isFinite else { return [] }
        func merged(_ radius: Double) -> [ProximityIndex.Match] {
            var hits: [ProximityIndex.Match] = []
            var seen: Set<Int64> = []
            for index in indexes {
                let found = radius.isInfinite ? index.bruteForce(lat: lat, lon: lon, radius: radius) : index.within(lat: lat, lon: lon, radius: radius)
                for hit in found where seen.insert(hit.id).inserted { hits.append(hit) }
            }
            hits.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
            return hits
        }
        var radius = Self.firstRingMetres
        // Beyond 1 000 km a ring is no cheaper than measuring every member.
        while radius < 1_000_000 && total > count {
            let hits = merged(radius)
            if directory.folded(hits.map(\.id)).count >= count { return hits }
            radius *= 4
        }
        return merged(.infinity)
    }

    /// The full-text index in memory (``SearchPostings``), read by the first name search near a point; nil for
    /// format-1 packs (whose rowids are ids) and where SQLite lacks the FTS5 tokenizer API. Called with the lock held.
    func searchPostings(_ db: PackConnection.Database) throws(PackError) -> SearchPostings? {
        if let postings = postingsState { return postings }
        guard formatVersion >= 2 else { return nil }
        let made = try SearchPostings(db: db, schema: try searchIndex(db), rows: searchIDs.count) { row throws(PackError) in
            try position(searchIDs[Int(row) - 1])
        }
        postingsState = made
        return made
    }

    /// The schema of the full-text index: `main` when the pack carries it (formats 1–4), else `temp`, where it is
    /// built from the pack's rows on first use (``CityPackSQLite/SearchIndex``; Milan's 4,400 places take some
    /// 30 ms). Called with the lock held.
    func searchIndex(_ db: PackConnection.Database) throws(PackError) -> String {
        if let searchSchema { return searchSchema }
        let schema: String
        if try SearchIndex.isStored(in: db) {
            schema = "main"
        } else {
            try SearchIndex.build(in: db)
            schema = SearchIndex.schema
        }
        searchSchema = schema
        return schema
    }

    /// The ids of every row of the full-text index matching an expression, in no useful order (for search near a
    /// point). Called with the lock held.
    func unrankedTextMatches(_ expression: String, db: PackConnection.Database) throws(PackError) -> [Int64] {
        let stmt: PackConnection.Rows
        if let unrankedSearchStatement {
            stmt = unrankedSearchStatement
        } else {
            _ = try searchIndex(db)
            stmt = try db.prepare(PackSchema.Search.matchingAnyOrder, persistent: true)
            unrankedSearchStatement = stmt
        }
        stmt.reset()
        defer { stmt.reset() }
        stmt.bind(PackSchema.Search.expression, expression)
        var ids: [Int64] = []
        while try stmt.step() {
            let rank = stmt[PackSchema.Search.rowid]
            guard formatVersion < 2 || (rank >= 1 && rank <= Int64(searchIDs.count)) else {
                throw PackError.malformedData("search rowid \(rank) is not a rank of the pack's ids")
            }
            ids.append(formatVersion < 2 ? rank : searchIDs[Int(rank - 1)])
        }
        return ids
    }

    /// A place's position: from the proximity index (its row by id, mapped on first use), else from its details;
    /// nil when the pack has no such place. Called with the lock held.
    func position(_ id: Int64) throws(PackError) -> (lat: Double, lon: Double)? {
        let rows: [Int64: Int32]
        if let proximityRows {
            rows = proximityRows
        } else {
            var made: [Int64: Int32] = [:]
            made.reserveCapacity(proximityIndex.count)
            for row in 0..<proximityIndex.count { made[proximityIndex.ids[row]] = Int32(row) }
            proximityRows = made
            rows = made
        }
        if let row = rows[id] { return (proximityIndex.lats[Int(row)], proximityIndex.lons[Int(row)]) }
        guard let d = try places.details(id) else { return nil }
        return (d.lat, d.lon)
    }

    /// Every row of the full-text index matching an expression, by (bm25, id). Called with the lock held.
    func textMatches(_ expression: String, db: PackConnection.Database) throws(PackError) -> [(score: Double, id: Int64)] {
        let stmt: PackConnection.Rows
        if let searchStatement {
            stmt = searchStatement
        } else {
            _ = try searchIndex(db)
            stmt = try db.prepare(PackSchema.Search.matching, persistent: true)
            searchStatement = stmt
        }
        stmt.reset()
        defer { stmt.reset() }
        stmt.bind(PackSchema.Search.expression, expression)
        var hits: [(score: Double, id: Int64)] = []
        while try stmt.step() {
            let rank = stmt[PackSchema.Search.rowid]
            guard formatVersion < 2 || (rank >= 1 && rank <= Int64(searchIDs.count)) else {
                throw PackError.malformedData("search rowid \(rank) is not a rank of the pack's ids")
            }
            hits.append((stmt[PackSchema.Search.score], formatVersion < 2 ? rank : searchIDs[Int(rank - 1)]))
        }
        hits.sort { ($0.score, $0.id) < ($1.score, $1.id) }
        return hits
    }
}
