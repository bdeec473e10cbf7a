import CityPackFormat
import CityPackSQLite
import CityPackStorage
import CityPackSupport
import Foundation

/// The web flavour's `search` part: the FTS5 table's tokens per row and column, and the category words (see
/// ``WebWriter``; written as the search head and the places chunks' token columns by `writeRows`).
extension WebWriter {
    // MARK: - search

    /// The search table as read back (``writeRows(places:search:folder:prefix:path:)`` stores it in the rows).
    struct Search {
        /// bm25 column weights (name, terms), as `PackReader.search` ranks.
        var weights: [Double] = [10, 1]
        /// Every distinct token of the FTS table, ascending by UTF-8 bytes (SQLite's order).
        var vocab: [String] = []
        /// The places of the FTS rows (POI or stop ids), ascending.
        var rowid: [Int64] = []
        /// Per row, the vocab indexes of the tokens of column `name`, in position order.
        var name: [[Int]] = []
        /// Per row, the vocab indexes of the tokens of column `terms`, in position order.
        var terms: [[Int]] = []
        /// The words that name categories (`category_term`): the term's tokens as SQLite folds them, joined by a
        /// space → the categories, ascending. A query whose tokens are exactly a key is a category query.
        var categoryTerms: [String: [String]] = [:]
    }

    /// The place ids `search` rowids rank (rowid r is `list[r - 1]`).
    static func searchIDList(_ db: Database) throws(EmitError) -> [Int64] {
        var ids: [Int64] = []
        let rows = try db.prepare(PackSchema.searchIDs)
        while try rows.step() { ids.append(rows[PackSchema.POI.id]) }
        return ids
    }

    static func searchIDs(_ db: Database) throws(EmitError) -> Set<Int64> { Set(try searchIDList(db)) }

    static func search(_ db: Database) throws(EmitError) -> Search {
        var out = Search()
        // The index readers build (``SearchIndex``): the pack does not carry it.
        try SearchIndex.build(in: db)
        try db.exec("DROP TABLE IF EXISTS temp.web_search_vocab")
        try db.exec("CREATE VIRTUAL TABLE temp.web_search_vocab USING fts5vocab(\(SearchIndex.schema), \(PackSchema.Search.table), instance)")
        defer { try? db.exec("DROP TABLE IF EXISTS temp.web_search_vocab") }
        // Every row of the table, also one without tokens (it counts in bm25's row total). A rowid is the
        // 1-based rank of its place in `PackSchema.searchIDsQuery`; the web part lists the places' ids, ascending.
        let ids = try searchIDList(db)
        typealias FTS = PackSchema.Search
        let rows = try db.prepare(FTS.select([FTS.rowid], orderBy: [FTS.rowid]))
        var rowIDs: [(rowid: Int64, id: Int64)] = []
        while try rows.step() {
            let rowid = rows[FTS.rowid]
            guard rowid >= 1, rowid <= Int64(ids.count) else { continue }
            rowIDs.append((rowid, ids[Int(rowid - 1)]))
        }
        rowIDs.sort { $0.id < $1.id }
        var rowIndex: [Int64: Int] = [:]
        for (rowid, id) in rowIDs {
            rowIndex[rowid] = out.rowid.count
            out.rowid.append(id)
        }
        // One scan of the index (in term order): each token goes to its row and column with its position; each
        // row's tokens are put in position order afterwards (small sorts, not one of every token).
        var vocab: [String] = []
        var vocabIndex: [String: Int] = [:]
        var names = [[(offset: Int64, term: Int)]](repeating: [], count: out.rowid.count)
        var terms = [[(offset: Int64, term: Int)]](repeating: [], count: out.rowid.count)
        // fts5vocab's own columns (term, doc, col, offset); `col` holds the name of a `search` column.
        typealias V = Vocabulary
        let scan = try db.prepare(PackSchema.Query(
            "SELECT \(PackSchema.list([V.term, V.doc, V.inName, V.offset])) FROM temp.web_search_vocab",
            results: [V.term, V.doc, V.inName, V.offset]))
        var lastTerm: [UInt8]?
        var lastIndex = 0
        while try scan.step() {
            // Rows come grouped by term: a String is made once per term, not per token.
            if lastTerm == nil || !scan.textEquals(V.term, lastTerm!) {
                let term = scan[V.term]
                if let known = vocabIndex[term] {
                    lastIndex = known
                } else {
                    lastIndex = vocab.count
                    vocabIndex[term] = lastIndex
                    vocab.append(term)
                }
                lastTerm = Array(term.utf8)
            }
            guard let row = rowIndex[scan[V.doc]] else { continue }
            if scan[V.inName] {
                names[row].append((scan[V.offset], lastIndex))
            } else {
                terms[row].append((scan[V.offset], lastIndex))
            }
        }
        // Vocabulary ascending by UTF-8 bytes (SQLite's BINARY order), tokens renumbered to match.
        let order = vocab.indices.sorted { vocab[$0].utf8.lexicographicallyPrecedes(vocab[$1].utf8) }
        var renumber = [Int](repeating: 0, count: vocab.count)
        for (new, old) in order.enumerated() { renumber[old] = new }
        out.vocab = order.map { vocab[$0] }
        out.name = names.map { $0.sorted { $0.offset < $1.offset }.map { renumber[$0.term] } }
        out.terms = terms.map { $0.sorted { $0.offset < $1.offset }.map { renumber[$0.term] } }
        out.categoryTerms = try categoryTerms(db)
        return out
    }

    /// The category words (``PackSchema/MetaKey/categoryTerms``) as token lists: put into the TEMP FTS5 table
    /// readers make and read back through `fts5vocab`, so folded by SQLite; sentinels dropped.
    static func categoryTerms(_ db: Database) throws(EmitError) -> [String: [String]] {
        typealias CT = PackSchema.CategoryTerm
        typealias M = PackSchema.Meta
        let value = try db.prepare(M.select([M.value], where: [M.key]))
        value.bind(M.key, PackSchema.MetaKey.categoryTerms)
        guard try value.step(), !value.isNull(M.value) else { return [:] }
        let encoded = value[M.value]
        try db.exec("DROP TABLE IF EXISTS \(CT.table)")
        try db.exec(CT.create)
        defer { try? db.exec("DROP TABLE IF EXISTS \(CT.table)") }
        let insert = try db.prepare(CT.inserting)
        for row in CT.decode(encoded) {
            insert.bind(CT.term, CT.stored(row.term))
            insert.bind(CT.category, row.category)
            try insert.run()
        }
        try db.exec("DROP TABLE IF EXISTS temp.web_category_vocab")
        try db.exec("CREATE VIRTUAL TABLE temp.web_category_vocab USING fts5vocab(temp, category_term, instance)")
        defer { try? db.exec("DROP TABLE IF EXISTS temp.web_category_vocab") }
        var tokens: [Int64: [(offset: Int64, token: String)]] = [:]
        typealias V = Vocabulary
        let scan = try db.prepare(PackSchema.Query(
            "SELECT \(PackSchema.list([V.term, V.doc, V.offset])) FROM temp.web_category_vocab", results: [V.term, V.doc, V.offset]))
        while try scan.step() {
            let token = scan[V.term]
            guard token != CT.begin, token != CT.end else { continue }
            tokens[scan[V.doc], default: []].append((scan[V.offset], token))
        }
        var out: [String: [String]] = [:]
        let rows = try db.prepare(PackSchema.Query("SELECT rowid, category FROM \(CT.table)", results: [CT.rowid, CT.category]))
        while try rows.step() {
            let key = (tokens[rows[CT.rowid]] ?? []).sorted { $0.offset < $1.offset }.map(\.token).joined(separator: " ")
            guard !key.isEmpty else { continue }
            let category = rows[CT.category]
            if !(out[key]?.contains(category) ?? false) { out[key, default: []].append(category) }
        }
        for key in out.keys { out[key]?.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return out
    }
}

/// The columns of an `fts5vocab` table of type `instance` (one row per token), as the web writer reads them.
enum Vocabulary {
    /// The token.
    static let term = PackSchema.Column<String>("term")
    /// The rowid of the row holding it.
    static let doc = PackSchema.Column<Int64>("doc")
    /// Whether it is in `search.name` (else `search.terms`).
    static let inName = PackSchema.Column<Bool>.expression("col = '\(PackSchema.Search.name)'")
    /// Its position in the column.
    static let offset = PackSchema.Column<Int64>("offset")
}
