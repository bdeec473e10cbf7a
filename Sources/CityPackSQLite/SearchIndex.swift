import CityPackFormat

/// The full-text index of a pack's places, made from the pack's own rows. From format 5 a pack does not carry it
/// (it is derived data: a quarter to a third of a pack's compressed bytes); the readers build it into a TEMP FTS5
/// table on their first text search, and the web writer builds the same one to export its tokens, so both readers
/// search the same index.
///
/// Row `r` is the place of rank `r` of ``PackSchema/searchIDsQuery``. Its `name` column holds the place's names
/// (the plain name, then each locale's that differs, by locale) and its `terms` column the search words of its
/// categories (meta ``PackSchema/MetaKey/searchTerms``: the main category's, then each further one's by id; for a
/// stop ``PackSchema/StopTerms`` then the words of the modes serving it), joined by ` | ` and folded as queries
/// are (``SearchFold``, ``CJKBigrams``).
package enum SearchIndex {
    /// Where readers and the web writer build it (writable on a read-only connection).
    package static let schema = "temp"

    /// Whether the pack carries its own `search` table (formats 1–4).
    package static func isStored<F>(in db: SQLiteDatabase<F>) throws(F) -> Bool {
        try db.scalarInt("SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = '\(PackSchema.Table.search)'") > 0
    }

    /// Builds `temp.search` from the pack's rows (see the type); a no-op when it exists.
    /// - Returns: The number of rows.
    @discardableResult
    package static func build<F>(in db: SQLiteDatabase<F>) throws(F) -> Int {
        typealias S = PackSchema.Search
        if try db.scalarInt("SELECT count(*) FROM temp.sqlite_master WHERE name = '\(S.table)'") > 0 {
            return Int(try db.scalarInt("SELECT count(*) FROM \(schema).\(S.table)_docsize"))
        }
        let documents = try documents(in: db)
        try db.exec("SAVEPOINT search_index")
        try db.exec(S.create(schema: schema))
        let insert = try db.prepare("INSERT INTO \(schema).\(S.table)(rowid, \(S.name), \(S.terms)) VALUES (?1, ?2, ?3)")
        for (rank, document) in documents.enumerated() {
            insert.reset()
            insert.bind(1, Int64(rank + 1))
            insert.bind(2, CJKBigrams.expand(SearchFold.apply(document.name)))
            insert.bind(3, CJKBigrams.expand(SearchFold.apply(document.terms)))
            try insert.run()
        }
        try db.exec("INSERT INTO \(schema).\(S.table)(\(S.table)) VALUES ('optimize')")
        try db.exec("RELEASE search_index")
        return documents.count
    }

    /// The rows' texts before folding, by rank.
    package static func documents<F>(in db: SQLiteDatabase<F>) throws(F) -> [(name: String, terms: String)] {
        typealias P = PackSchema.POI
        typealias PN = PackSchema.POIName
        typealias PC = PackSchema.POICategory
        typealias ST = PackSchema.Stop
        // Tables the pack leaves out because they are empty read as empty.
        try PackTables.addStandIns(in: db, formatVersion: PackSchema.formatVersion)
        let meta = try db.prepare("SELECT \(PackSchema.Meta.value) FROM \(PackSchema.Meta.table) WHERE \(PackSchema.Meta.key) = ?1")
        meta.bind(1, PackSchema.MetaKey.searchTerms)
        let terms = try meta.step() ? PackSchema.SearchTerms.decode(meta.text(0) ?? "") : [:]
        var codes: [String] = []
        let categories = try db.prepare(PackSchema.categoryCodesQuery)
        while try categories.step() { codes.append(categories.text(0) ?? "") }
        func category(_ code: Int64) -> String { code >= 0 && code < codes.count ? codes[Int(code)] : String(code) }
        // A category column holds a code (format 3 on) or, in hand-made packs, the id itself.
        func category(_ rows: SQLiteStatement<F>, _ column: Int32) -> String {
            rows.isInteger(column) ? category(rows.int64(column)) : rows.text(column) ?? ""
        }
        func words(_ category: String) -> String { terms[category] ?? category }

        var further: [Int64: [String]] = [:]
        let also = try db.prepare("SELECT \(PC.poi), \(PC.category) FROM \(PC.table)")
        while try also.step() { further[also.int64(0), default: []].append(category(also, 1)) }
        var localized: [Int64: [(locale: String, name: String)]] = [:]
        let names = try db.prepare("SELECT \(PN.poi), \(PN.locale), \(PN.name) FROM \(PN.table)")
        while try names.step() { localized[names.int64(0), default: []].append((names.text(1) ?? "", names.text(2) ?? "")) }

        var byID: [Int64: (name: String, terms: String)] = [:]
        let pois = try db.prepare("SELECT \(P.id), \(P.name), \(P.category) FROM \(P.table)")
        while try pois.step() {
            let id = pois.int64(0)
            var list: [String] = []
            if let name = pois.text(1) { list.append(name) }
            for entry in (localized[id] ?? []).sorted(by: { $0.locale < $1.locale }) where !list.contains(entry.name) {
                list.append(entry.name)
            }
            let main = category(pois, 2)
            var text = words(main)
            for other in (further[id] ?? []).sorted() where other != main { text += " | " + words(other) }
            byID[id] = (list.joined(separator: " | "), text)
        }
        let stops = try db.prepare(
            "SELECT \(ST.id), \(ST.name), \(ST.locationType) FROM \(ST.table) WHERE \(ST.name) IS NOT NULL AND \(ST.name) <> '' AND \(ST.locationType) <= 1")
        while try stops.step() {
            let id = stops.int64(0)
            var text = stops.int64(2) == 1 ? PackSchema.StopTerms.station : PackSchema.StopTerms.stop
            for mode in (further[id] ?? []).sorted() { text += " | " + words(mode) }
            byID[id] = (stops.text(1) ?? "", text)
        }
        var out: [(name: String, terms: String)] = []
        let ranked = try db.prepare(PackSchema.searchIDsQuery)
        while try ranked.step() { out.append(byID[ranked.int64(0)] ?? ("", "")) }
        return out
    }
}
