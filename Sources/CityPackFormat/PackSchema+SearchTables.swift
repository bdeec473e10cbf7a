/// The tables search answers "where is the nearest toilet?" with: which words name a category, and which GTFS stop
/// and OSM feature are one place (issue 32). Both are optional: readers of packs without them search by text alone.
extension PackSchema {
    /// The words that name each category — its id, labels and synonyms in English and in the city's locales, the
    /// terms `search` indexes for it — stored compactly in `meta` (``MetaKey/categoryTerms``: per category
    /// `category U+001F term U+001F term …`, categories joined by U+001E; a table of its own cost a pack a 64 KiB page
    /// per table). Readers load them at open into a TEMP FTS5 table (``create``) so that SQLite folds a term exactly
    /// as it folds `search`. A term is stored between two sentinel tokens (``begin`` … ``end``), so ``matchQuery``
    /// with the phrase `begin w1 … wn end` finds the categories whose term is exactly the user's words.
    package enum CategoryTerm {
        /// The TEMP table readers and the web writer fill.
        package static let table = "temp.category_term"
        /// Its CREATE statement.
        package static let create =
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(table) USING fts5(term, category UNINDEXED, locale UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')"
        /// The term column (as ``stored(_:)``).
        package static let term = Column<String>("term")
        /// The category column (an id).
        package static let category = Column<String>("category")
        /// The rowid.
        package static let rowid = Column<Int64>.expression("rowid")
        /// A row (term as ``stored(_:)``, category).
        package static let insert = "INSERT INTO \(table)(\(term), \(category)) VALUES (?1, ?2)"
        /// ``insert``, bound by column.
        package static let inserting = Query(insert, parameters: [term, category])
        /// The language the term is a word of (``CityPackFormat/CategoryWords/byLocale``: `en`, `pt-PT`; `und` for
        /// the category id); NULL for the pack's own terms (meta `category_terms`, in the city's locales).
        package static let locale = Column<String?>("locale")
        /// A row with its locale.
        package static let insertLocalized = "INSERT INTO \(table)(\(term), \(category), \(locale)) VALUES (?1, ?2, ?3)"
        /// ``insertLocalized``, bound by column.
        package static let insertingLocalized = Query(insertLocalized, parameters: [term, category, locale])
        /// (category, locale) of every term that is the phrase bound to ?1, by category then locale.
        package static let matchLocalesQuery =
            "SELECT DISTINCT category, locale FROM \(table) WHERE term MATCH ?1 ORDER BY category, locale"
        /// ``matchLocalesQuery``, read by column.
        package static let matchingLocales = Query(matchLocalesQuery, results: [category, locale], parameters: [phrase])
        /// Token before every term: a private-use character, a token character no query can contain (queries keep
        /// letters and digits only).
        package static let begin = "\u{E000}"
        /// Token after every term.
        package static let end = "\u{E001}"
        /// The text indexed for a term (already ``SearchFold``ed and CJK-expanded).
        package static func stored(_ term: String) -> String { "\(begin) \(term) \(end)" }
        /// Categories whose term is the FTS5 phrase bound to ?1 (`"<begin> w1 … wn <end>"`), ascending.
        package static let matchQuery = "SELECT DISTINCT category FROM \(table) WHERE term MATCH ?1 ORDER BY category"
        /// The phrase ``matching`` matches.
        package static let phrase = Column<String>.expression("?1")
        /// ``matchQuery``, read by column.
        package static let matching = Query(matchQuery, results: [category], parameters: [phrase])

        /// The `meta` value of (category, terms) pairs.
        package static func encode(_ terms: [(category: String, terms: [String])]) -> String {
            terms.map { ([$0.category] + $0.terms).joined(separator: "\u{1F}") }.joined(separator: "\u{1E}")
        }

        /// The (term, category) rows of a `meta` value, in stored order.
        package static func decode(_ value: String) -> [(term: String, category: String)] {
            var out: [(term: String, category: String)] = []
            for entry in value.split(separator: "\u{1E}") {
                let parts = entry.split(separator: "\u{1F}", omittingEmptySubsequences: false)
                guard let category = parts.first, !category.isEmpty else { continue }
                for term in parts.dropFirst() where !term.isEmpty { out.append((String(term), String(category))) }
            }
            return out
        }
    }

    /// The search words of each category — its id, labels and synonyms in English and in the city's locales, joined
    /// by ` | ` — that the search index's `terms` column holds for a place of the category (``MetaKey/searchTerms``:
    /// `category U+001F words`, categories joined by U+001E, by category).
    package enum SearchTerms {
        /// The `meta` value.
        package static func encode(_ terms: [String: String]) -> String {
            terms.sorted { $0.key < $1.key }.map { "\($0.key)\u{1F}\($0.value)" }.joined(separator: "\u{1E}")
        }

        /// The words by category of a `meta` value (malformed entries skipped).
        package static func decode(_ value: String) -> [String: String] {
            var out: [String: String] = [:]
            for entry in value.split(separator: "\u{1E}") {
                let parts = entry.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else { continue }
                out[String(parts[0])] = String(parts[1])
            }
            return out
        }
    }

    /// Linked places: a GTFS stop and the OSM feature of the same station or platform (``PlaceMerge`` in
    /// CityPackEmit), at most one partner each, stored in `meta` (``MetaKey/placeLinks``: `poi,stop` pairs joined by
    /// `;`, ascending by POI id; a table of its own would cost a 64 KiB page). Readers return them as one result
    /// carrying both ids.
    package enum PlaceLink {
        /// The `meta` value of pairs.
        package static func encode(_ pairs: [(poi: Int64, stop: Int64)]) -> String {
            pairs.map { "\($0.poi),\($0.stop)" }.joined(separator: ";")
        }

        /// The pairs of a `meta` value (malformed entries skipped).
        package static func decode(_ value: String) -> [(poi: Int64, stop: Int64)] {
            value.split(separator: ";").compactMap { entry in
                let parts = entry.split(separator: ",")
                guard parts.count == 2, let poi = Int64(parts[0]), let stop = Int64(parts[1]) else { return nil }
                return (poi, stop)
            }
        }

        /// GTFS platforms (location_type 0) named exactly as their parent station: (platform, station). A feed's
        /// station and its platforms are one place too (New York's "Times Sq-42 St" and its N and S platforms).
        package static let samePlaceAsParentQuery = """
            SELECT c.\(Stop.id), p.\(Stop.id) FROM \(Stop.table) c JOIN \(Stop.table) p ON p.\(Stop.id) = c.\(Stop.parent) \
            WHERE c.\(Stop.locationType) = 0 AND p.\(Stop.locationType) = 1 AND c.\(Stop.name) = p.\(Stop.name) ORDER BY c.\(Stop.id)
            """

        /// The platform (child) stop of ``samePlaceAsParent``.
        package static let platform = Column<Int64>.expression("c.\(Stop.id)")
        /// The station (parent) stop of ``samePlaceAsParent``.
        package static let station = Column<Int64>.expression("p.\(Stop.id)")
        /// ``samePlaceAsParentQuery``, read by column (``platform``, ``station``).
        package static let samePlaceAsParent = Query(samePlaceAsParentQuery, results: [platform, station])

        /// The place each id belongs to, for ids in some pair: the smallest id of its connected pairs (a linked POI
        /// and stop, a platform and its station, and any chain of them). Readers return one result per place.
        package static func groups(_ pairs: [(Int64, Int64)]) -> [Int64: Int64] {
            var parent: [Int64: Int64] = [:]
            func root(_ x: Int64) -> Int64 {
                var r = x
                while let p = parent[r], p != r { r = p }
                return r
            }
            for (a, b) in pairs {
                if parent[a] == nil { parent[a] = a }
                if parent[b] == nil { parent[b] = b }
                let ra = root(a)
                let rb = root(b)
                if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
            }
            var out: [Int64: Int64] = [:]
            for id in parent.keys { out[id] = root(id) }
            return out
        }
    }
}
