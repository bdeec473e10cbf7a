import CityPackFormat
import CityPackSQLite

/// The pack's `search` index held in memory for search near a point, which orders matches by distance and so needs
/// every match but no bm25: which rows match a query, without stepping SQLite once per match (a common word such
/// as `via` matches half of Milan's places).
///
/// Read once from an fts5vocab `instance` table (every token of every row with its column and offset), and queries
/// are split by SQLite's own tokenizer of the index (``CityPackSQLite/FTS5Tokenizer``), so a query matches the rows
/// FTS5 would match: each word a phrase of its tokens in one column, consecutive; the last token of the last phrase
/// also as a prefix when asked; every phrase in the same row. The web reader answers from the same token lists
/// (`clients/web`, "search" part). Tests compare both with FTS5 on many queries.
struct SearchPostings {
    /// The index's distinct tokens, ascending by bytes (FTS5's order).
    private let tokens: [[UInt8]]
    /// Per token, its instances as `row << 32 | column << 24 | offset`, ascending.
    private let instances: [[UInt64]]
    /// Each row's position (from the proximity index), NaN when unknown, by `rowid − 1`.
    let positions: [(lat: Double, lon: Double)]
    private let tokenizer: FTS5Tokenizer

    /// Reads the index. Called with the lock held.
    /// - Parameters:
    ///   - schema: Where the index is (`main` or `temp`).
    ///   - rows: The number of rows (rowids are 1…rows).
    ///   - position: A row's position, if known.
    /// - Returns: Nil when SQLite offers no FTS5 tokenizer or fts5vocab (the reader then asks FTS5 itself).
    init?(db: PackConnection.Database, schema: String, rows: Int, position: (Int64) throws(PackError) -> (lat: Double, lon: Double)?) throws(PackError) {
        typealias S = PackSchema.Search
        guard let tokenizer = db.fts5Tokenizer(S.tokenizer.name, arguments: S.tokenizer.arguments) else { return nil }
        self.tokenizer = tokenizer
        try db.exec(S.createInstances(schema: schema))
        let stmt = try db.prepare(S.allInstances)
        var tokens: [[UInt8]] = []
        var instances: [[UInt64]] = []
        var last = ""
        while try stmt.step() {
            let term = stmt[S.instanceTerm]
            let row = stmt[S.instanceRow]
            let offset = stmt[S.instanceOffset]
            guard row >= 1, row <= Int64(UInt32.max), offset >= 0, offset < 1 << 24 else {
                throw PackError.malformedData("search instance of row \(row) at offset \(offset) is out of range")
            }
            if tokens.isEmpty || term != last {
                tokens.append(Array(term.utf8))
                instances.append([])
                last = term
            }
            let column: UInt64 = stmt[S.instanceColumn] == S.name.name ? 0 : 1
            instances[instances.count - 1].append(UInt64(row) << 32 | column << 24 | UInt64(offset))
        }
        // fts5vocab lists terms in FTS5's order; sort anyway (cheap when sorted) so lookups can bisect.
        let order = tokens.indices.sorted { tokens[$0].lexicographicallyPrecedes(tokens[$1]) }
        self.tokens = order.map { tokens[$0] }
        self.instances = order.map { instances[$0].sorted() }
        var positions: [(lat: Double, lon: Double)] = []
        positions.reserveCapacity(rows)
        for row in 1...max(1, rows) where rows > 0 {
            positions.append(try position(Int64(row)) ?? (.nan, .nan))
        }
        self.positions = positions
    }

    /// The rowids matching the words (each a phrase of its tokens; the last token of the last word also as a prefix
    /// when `prefixLast`), ascending; nil when a word has no token (the caller asks FTS5).
    func rows(matching words: [String], prefixLast: Bool) -> [UInt32]? {
        var result: [UInt32]?
        for (i, word) in words.enumerated() {
            let phrase = tokenizer.tokens(word)
            guard !phrase.isEmpty else { return nil }
            let found = rows(phrase: phrase, prefix: prefixLast && i == words.count - 1)
            result = result.map { Self.intersect($0, found) } ?? found
            if result?.isEmpty == true { return [] }
        }
        return result ?? []
    }

    /// Rows holding the tokens consecutively in one column.
    private func rows(phrase: [[UInt8]], prefix: Bool) -> [UInt32] {
        let last = phrase.count - 1
        func postings(_ j: Int) -> [ArraySlice<UInt64>] {
            terms(phrase[j], prefix: prefix && j == last).map { instances[$0][...] }
        }
        if phrase.count == 1 {
            var out: [UInt32] = []
            for list in postings(0) { for key in list { out.append(UInt32(key >> 32)) } }
            out.sort()
            return Self.unique(out)
        }
        // Start positions (row, column, offset) of the first token, kept while each next token follows.
        var starts = Set(postings(0).joined())
        for j in 1...last where !starts.isEmpty {
            var next: Set<UInt64> = []
            for list in postings(j) {
                for key in list where key & 0xFF_FFFF >= UInt64(j) && starts.contains(key - UInt64(j)) {
                    next.insert(key - UInt64(j))
                }
            }
            starts = next
        }
        return Self.unique(starts.map { UInt32($0 >> 32) }.sorted())
    }

    /// Indexes of the tokens equal to `token`, or starting with it when `prefix`.
    private func terms(_ token: [UInt8], prefix: Bool) -> Range<Int> {
        var low = 0
        var high = tokens.count
        while low < high {
            let mid = (low + high) / 2
            if tokens[mid].lexicographicallyPrecedes(token) { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < tokens.count && (prefix ? tokens[end].starts(with: token) : tokens[end] == token) { end += 1 }
        return low..<end
    }

    private static func unique(_ sorted: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(sorted.count)
        for value in sorted where out.last != value { out.append(value) }
        return out
    }

    private static func intersect(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }
}
