/// The tables of places: meta, categories, POIs and the search index (``PackSchema`` describes their contents).
extension PackSchema {
    /// `meta`: key/value rows, keys from ``MetaKey``.
    public enum Meta: TableSchema {
        public static let table = Table.meta
        /// The alias of `Meta` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "m"
        public static let key = Column<String>("key", "TEXT PRIMARY KEY")
        public static let value = Column<String>("value", "TEXT NOT NULL")
        public static let columns: [any AnyColumn] = [key, value]
        public static let create = createTable(withoutRowID: true)
        /// Every row, as (key, value).
        public static let selectAll = "SELECT \(key), \(value) FROM \(table)"
        /// The value of the key bound to ?1.
        public static let valueQuery = "SELECT \(value) FROM \(table) WHERE \(key) = ?1"
        /// ``selectAll``, read by column.
        public static let all = Query(selectAll, results: [key, value])
    }

    /// `category`: the pack's categories with the label in the default locale.
    public enum Category: TableSchema {
        public static let table = Table.category
        /// The alias of `Category` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "c"
        public static let id = Column<String>("id", "TEXT PRIMARY KEY")
        public static let priority = Column<Int>("priority", "INTEGER NOT NULL")
        public static let label = Column<String>("label", "TEXT NOT NULL")
        public static let columns: [any AnyColumn] = [id, priority, label]
        public static let create = createTable(withoutRowID: true)
    }

    /// `category_label`: category labels in the city's locales.
    public enum CategoryLabel: TableSchema {
        public static let table = Table.categoryLabel
        /// The alias of `CategoryLabel` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "cl"
        public static let category = Column<String>("category", "TEXT NOT NULL")
        public static let locale = Column<String>("locale", "TEXT NOT NULL")
        public static let label = Column<String>("label", "TEXT NOT NULL")
        public static let columns: [any AnyColumn] = [category, locale, label]
        public static let create = createTable(primaryKey: [category, locale], withoutRowID: true)
    }

    /// `poi`: one row per POI; `lat` and `lon` as ``PackSchema/storedDegrees(_:)``, `category` a code of
    /// ``PackSchema/categoryCodesQuery``, `tags` as ``PackSchema/encodeTags(_:)``.
    public enum POI: TableSchema {
        public static let table = Table.poi
        /// The alias of `POI` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "p"
        public static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        public static let lat = Column<StoredDegrees>("lat", "NOT NULL")
        public static let lon = Column<StoredDegrees>("lon", "NOT NULL")
        public static let category = Column<CategoryValue>("category", "NOT NULL")
        public static let name = Column<String?>("name", "TEXT")
        public static let tags = Column<String>("tags", "TEXT NOT NULL")
        /// OSM `wheelchair`: `yes`, `limited` or `no` (``PackSchema/Wheelchair``); NULL when the tag is absent or has
        /// another value. Added in format 4 after its first packs (issue 34): a pack without it reads as NULL.
        public static let wheelchair = Column<String?>("wheelchair", "TEXT")
        /// OSM `opening_hours` parsed by the build (``OpeningHours/compact``, `Mo-Fr 08:00-19:00` → `w01f08001900`),
        /// which both readers evaluate in the city's time zone; NULL when the tag is absent or unreadable (the raw
        /// value stays in `tags`). A nullable last column, added in format 4 like `wheelchair`.
        public static let hours = Column<String?>("hours", "TEXT")
        public static let columns: [any AnyColumn] = [id, lat, lon, category, name, tags, wheelchair, hours]
        public static let create = createTable(withoutRowID: false)
        /// Every POI's point as stored, (id, lat, lon): what the proximity index is built from.
        public static let pointsQuery = "SELECT \(id), \(lat), \(lon) FROM \(table)"
        /// ``pointsQuery``, read by column.
        public static let points = Query(pointsQuery, results: [id, lat, lon])
    }

    /// `poi_name`: a POI's names per locale.
    public enum POIName: TableSchema {
        public static let table = Table.poiName
        /// The alias of `POIName` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "pn"
        public static let poi = Column<Int64>("poi", "INTEGER NOT NULL")
        public static let locale = Column<String>("locale", "TEXT NOT NULL")
        public static let name = Column<String>("name", "TEXT NOT NULL")
        public static let columns: [any AnyColumn] = [poi, locale, name]
        public static let create = createTable(primaryKey: [poi, locale], withoutRowID: true)
    }

    /// `poi_category`: further categories of a POI (codes as in `poi.category`).
    public enum POICategory: TableSchema {
        public static let table = Table.poiCategory
        /// The alias of `POICategory` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "pc"
        public static let poi = Column<Int64>("poi", "INTEGER NOT NULL")
        public static let category = Column<CategoryValue>("category", "NOT NULL")
        public static let columns: [any AnyColumn] = [poi, category]
        public static let create = createTable(primaryKey: [poi, category], withoutRowID: true)
    }

    /// `search`: the contentless FTS5 index of places; its rowid is a rank of ``PackSchema/searchIDsQuery``. Stored
    /// in packs of formats 1–4; from format 5 readers build it from the pack's rows (`SearchIndex` in CityPackSQLite).
    public enum Search: TableSchema {
        public static let table = Table.search
        /// The alias of `Search` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "fts"
        public static let name = Column<String>("name")
        public static let terms = Column<String>("terms")
        public static let columns: [any AnyColumn] = [name, terms]
        public static let create =
            "CREATE VIRTUAL TABLE \(table) USING fts5(\(list(columns)), content = '', tokenize = '\(([tokenizer.name] + tokenizer.arguments).joined(separator: " "))')"
        /// The `tokenize` option: readers that hold the index in memory call this tokenizer on queries directly.
        public static let tokenizer = (name: "unicode61", arguments: ["remove_diacritics", "2"])
        /// Every token of the index (an fts5vocab `instance` table, TEMP: writable on a read-only connection).
        public static let instances = "temp.search_instance"
        /// Creates ``instances`` over the index in `schema` (`main` for a pack that carries it, formats 1–4; `temp` for
        /// the one readers build).
        public static func createInstances(schema: String) -> String {
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(instances) USING fts5vocab(\(schema), \(table), instance)"
        }
        /// ``create`` in another schema (`temp`: the index readers build from format 5 on).
        public static func create(schema: String) -> String {
            create.replacingOccurrences(of: "CREATE VIRTUAL TABLE \(table) ", with: "CREATE VIRTUAL TABLE \(schema).\(table) ")
        }
        /// An instance's token (as the tokenizer folded it).
        public static let instanceTerm = Column<String>("term")
        /// An instance's rowid.
        public static let instanceRow = Column<Int64>("doc")
        /// An instance's column name (``name`` or ``terms``).
        public static let instanceColumn = Column<String>("col")
        /// An instance's token offset in its column.
        public static let instanceOffset = Column<Int64>("offset")
        /// Every instance, by term (bytes), rowid, column, offset.
        public static let allInstances = Query(
            "SELECT term, doc, col, offset FROM \(instances)", results: [instanceTerm, instanceRow, instanceColumn, instanceOffset])
        /// The rowid (a rank of ``PackSchema/searchIDsQuery``).
        public static let rowid = Column<Int64>.expression("rowid")
        /// bm25's score of a match (lower is better).
        public static let score = Column<Double>.expression("score")
        /// A row with its rowid (the rank), parameters (rowid, name, terms).
        public static let insertRanked = "INSERT INTO \(table)(rowid, \(list(columns))) VALUES (?, ?, ?)"
        /// ``insertRanked``, bound by column.
        public static let insertingRanked = Query(insertRanked, parameters: [rowid, name, terms])
        /// The FTS5 expression a ``matching`` query matches.
        public static let expression = Column<String>.expression("?1")
        /// Merges the index's segments once every row is in.
        public static let optimize = "INSERT INTO \(table)(\(table)) VALUES ('optimize')"
        /// Rowids of the rows matching the FTS5 expression bound to ?1, best first: bm25 weighs a `name` hit 10
        /// times a `terms` hit (weights in column order).
        public static let matchQuery =
            "SELECT rowid, bm25(\(table), 10.0, 1.0) AS score FROM \(table) WHERE \(table) MATCH ?1 ORDER BY score"
        /// ``matchQuery``, read by column (``rowid``, ``score``).
        public static let matching = Query(matchQuery, results: [rowid, score], parameters: [expression])
        /// Rowids of the rows matching the FTS5 expression bound to ?1, unranked (rowid order): for search near a
        /// point, which orders by distance, so bm25 (a row size read per match) is not needed.
        public static let matchAnyOrderQuery = "SELECT rowid FROM \(table) WHERE \(table) MATCH ?1"
        /// ``matchAnyOrderQuery``, read by column (``rowid``).
        public static let matchingAnyOrder = Query(matchAnyOrderQuery, results: [rowid], parameters: [expression])
    }
}
