import CityPackFormat
@testable import CityPackKit
import CityPackSQLite
import CityPackTestSupport
import Foundation
import Testing

/// The reader's in-memory search structures against SQLite's FTS5, which they stand in for: ``SearchPostings``
/// (search near a point) must give the rows FTS5 gives for every kind of query, and ``CategoryWordIndex`` the
/// (category, locale) rows of the sentinel-phrase lookup in a TEMP FTS5 table (``PackSchema/CategoryTerm``).
@Suite struct SearchPostingsTests {
    struct Tally {
        var queries = 0
        var nonEmpty = 0
        var rows = 0
    }

    /// Compares the in-memory matches with FTS5's on queries made from the index's own tokens: each token whole
    /// and as a prefix, its first one to three bytes as a prefix, two tokens as two words, and two consecutive
    /// tokens of a name as one phrase (as a CJK word's bigrams are).
    static func compareWithFTS5(_ reader: PackReader, every stride: Int) throws -> Tally {
        var tally = Tally()
        try reader.connection.withDatabase { db throws(PackError) in
            guard let postings = try reader.searchPostings(db) else {
                Issue.record("no in-memory index")
                return
            }
            try db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(\(try reader.searchIndex(db)), search, row)")
            let rows = try db.prepare("SELECT term FROM temp.search_terms")
            var tokens: [String] = []
            while try rows.step() { tokens.append((rows.text(0) ?? "")) }
            // Consecutive name tokens of some rows (offsets 0 and 1 of the name column).
            let pairs = try db.prepare(
                "SELECT a.term, b.term FROM temp.search_instance a JOIN temp.search_instance b ON a.doc = b.doc AND a.col = b.col " +
                    "AND b.offset = a.offset + 1 WHERE a.col = 'name' AND a.offset = 0 AND a.doc % 7 = 0")
            var phrases: [String] = []
            while try pairs.step() { phrases.append((pairs.text(0) ?? "") + " " + (pairs.text(1) ?? "")) }

            var queries: [(words: [String], prefix: Bool)] = []
            for (i, token) in tokens.enumerated() where i % stride == 0 {
                queries.append(([token], false))
                queries.append(([token], true))
                for n in 1...3 where token.utf8.count > n {
                    if let cut = String(bytes: token.utf8.prefix(n), encoding: .utf8) { queries.append(([cut], true)) }
                }
                let other = tokens[(i * 31 + 7) % tokens.count]
                queries.append(([token, other], false))
                queries.append(([other, String(token.prefix(2))], true))
            }
            for phrase in phrases {
                queries.append(([phrase], false))
                queries.append(([String(phrase.dropLast())], true))
            }
            for query in queries {
                let expression = query.words.enumerated().map { i, w in
                    i == query.words.count - 1 && query.prefix ? "\"\(w)\"*" : "\"\(w)\""
                }.joined(separator: " ")
                let fts = Set(try reader.unrankedTextMatches(expression, db: db))
                guard let found = postings.rows(matching: query.words, prefixLast: query.prefix) else {
                    Issue.record("no tokens in \(query.words)")
                    continue
                }
                let memory = Set(found.map { reader.searchIDs[Int($0) - 1] })
                tally.queries += 1
                tally.rows += fts.count
                if !fts.isEmpty { tally.nonEmpty += 1 }
                if memory != fts {
                    Issue.record("\(expression): FTS5 \(fts.count) rows, in memory \(memory.count); only FTS5: \(fts.subtracting(memory).sorted().prefix(5)), only in memory: \(memory.subtracting(fts).sorted().prefix(5))")
                }
            }
            // Positions are the proximity index's (those `details` gives otherwise).
            for (row, at) in postings.positions.enumerated() where row % stride == 0 {
                let id = reader.searchIDs[row]
                let expected = try reader.position(id)
                #expect(expected.map { $0.lat == at.lat && $0.lon == at.lon } ?? at.lat.isNaN, "position of \(id)")
            }
        }
        return tally
    }

    /// Every word of the pack's categories names the same (category, locale) rows in the dictionary as in the
    /// sentinel-phrase FTS5 table the web writer fills; a word with one more word after it names nothing there
    /// and nothing here unless it is itself a word.
    static func compareCategoryWords(_ reader: PackReader) throws -> Int {
        var compared = 0
        try reader.connection.withDatabase { db throws(PackError) in
            typealias T = PackSchema.CategoryTerm
            guard let index = try reader.categoryWords(db) else {
                Issue.record("no category words")
                return
            }
            try db.exec(T.create)
            let insert = try db.prepare(T.insertingLocalized)
            // The pack's categories, as the reader's dictionary takes them (its `category` table).
            typealias C = PackSchema.Category
            var categories: [String] = []
            let ids = try db.prepare(C.select([C.id], orderBy: [C.id]))
            while try ids.step() { categories.append(ids[C.id]) }
            var words: [String] = []
            for category in categories {
                for (locale, list) in (CategoryWords.byLocale[category] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    for word in list {
                        insert.bind(T.term, T.stored(CJKBigrams.expand(SearchFold.apply(word))))
                        insert.bind(T.category, category)
                        insert.bind(T.locale, locale)
                        try insert.run()
                        words.append(word)
                    }
                }
            }
            let lookup = try db.prepare(T.matchingLocales)
            for (i, word) in words.enumerated() where i % 3 == 0 {
                for text in [word, word + " zebra"] {
                    guard let expression = PackReader.categoryTermExpression(for: text) else { continue }
                    lookup.reset()
                    lookup.bind(T.phrase, expression)
                    var fts: [CategoryWordIndex.Row] = []
                    while try lookup.step() { fts.append(.init(category: lookup[T.category], locale: lookup[T.locale])) }
                    let kept = PackReader.searchWords(text).map(CJKBigrams.expand).joined(separator: " ")
                    let memory = index.rows(naming: kept).filter { $0.locale != nil }
                    #expect(Set(memory) == Set(fts), "\(text)")
                    compared += 1
                }
            }
        }
        return compared
    }

    static func monaco() throws -> (reader: PackReader, folder: URL) {
        let output = try TestPaths.temporaryDirectory("postings-monaco")
        try AnswersUnchangedTests.build(TestPaths.root.appendingPathComponent("inputs/monaco"), output: output)
        return (try PackReader.open(manifest: output.appendingPathComponent("monaco/manifest.json")), output)
    }

    @Test func monacoInMemoryMatchesAreFTS5s() throws {
        let (reader, folder) = try Self.monaco()
        defer { reader.close(); try? FileManager.default.removeItem(at: folder) }
        let tally = try Self.compareWithFTS5(reader, every: 1)
        #expect(tally.queries > 500 && tally.nonEmpty > 300, "\(tally)")
        #expect(try Self.compareCategoryWords(reader) > 100)
    }

    @Test(.needsSharedData) func milanInMemoryMatchesAreFTS5s() throws {
        let subject = try MilanReleases.subject()
        let reader = try PackReader.open(manifest: subject.served.appendingPathComponent("milan/manifest.json"))
        defer { reader.close() }
        let tally = try Self.compareWithFTS5(reader, every: 4)
        #expect(tally.queries > 2000 && tally.nonEmpty > 1000 && tally.rows > 50_000, "\(tally)")
        #expect(try Self.compareCategoryWords(reader) > 100)
    }

    /// A name search near a point answers as before the in-memory index: the nearest matches, by distance.
    @Test func nameSearchNearAPointIsByDistance() throws {
        let (reader, folder) = try Self.monaco()
        defer { reader.close(); try? FileManager.default.removeItem(at: folder) }
        let near = Coordinate(lat: 43.7384, lon: 7.4246)
        let results = try reader.search("mon", near: near, limit: 30)
        #expect(results.count >= 5)
        let distances = results.compactMap(\.distanceMetres)
        #expect(distances.count == results.count && distances == distances.sorted())
    }
}
