/// The tables of places: meta, categories, POIs and the search index (``PackSchema`` describes their contents).
extension PackSchema {
    /// `meta`: key/value rows, keys from ``MetaKey``.
    package enum Meta: TableSchema {
        package static let table = Table.meta
        /// The alias of `Meta` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "m"
        package static let key = Column<String>("key", "TEXT PRIMARY KEY")
        package static let value = Column<String>("value", "TEXT NOT NULL")
        package static let columns: [any AnyColumn] = [key, value]
        package static let create = createTable(withoutRowID: true)
        /// Every row, as (key, value).
        package static let selectAll = "SELECT \(key), \(value) FROM \(table)"
        /// The value of the key bound to ?1.
        package static let valueQuery = "SELECT \(value) FROM \(table) WHERE \(key) = ?1"
        /// ``selectAll``, read by column.
        package static let all = Query(selectAll, results: [key, value])
    }

    /// `category`: the pack's categories with the label in the default locale.
    package enum Category: TableSchema {
        package static let table = Table.category
        /// The alias of `Category` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "c"
        package static let id = Column<String>("id", "TEXT PRIMARY KEY")
        package static let priority = Column<Int>("priority", "INTEGER NOT NULL")
        package static let label = Column<String>("label", "TEXT NOT NULL")
        package static let columns: [any AnyColumn] = [id, priority, label]
        package static let create = createTable(withoutRowID: true)
    }

    /// `category_label`: category labels in the city's locales.
    package enum CategoryLabel: TableSchema {
        package static let table = Table.categoryLabel
        /// The alias of `CategoryLabel` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "cl"
        package static let category = Column<String>("category", "TEXT NOT NULL")
        package static let locale = Column<String>("locale", "TEXT NOT NULL")
        package static let label = Column<String>("label", "TEXT NOT NULL")
        package static let columns: [any AnyColumn] = [category, locale, label]
        package static let create = createTable(primaryKey: [category, locale], withoutRowID: true)
    }

    /// `poi`: one row per POI; `lat` and `lon` as ``PackSchema/storedDegrees(_:)``, `category` a code of
    /// ``PackSchema/categoryCodesQuery``, `tags` as ``PackSchema/encodeTags(_:)``.
    package enum POI: TableSchema {
        package static let table = Table.poi
        /// The alias of `POI` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "p"
        package static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        package static let lat = Column<StoredDegrees>("lat", "NOT NULL")
        package static let lon = Column<StoredDegrees>("lon", "NOT NULL")
        package static let category = Column<CategoryValue>("category", "NOT NULL")
        package static let name = Column<String?>("name", "TEXT")
        package static let tags = Column<String>("tags", "TEXT NOT NULL")
        /// OSM `wheelchair`: `yes`, `limited` or `no` (``PackSchema/Wheelchair``); NULL when the tag is absent or has
        /// another value. Added in format 4 after its first packs (issue 34): a pack without it reads as NULL.
        package static let wheelchair = Column<String?>("wheelchair", "TEXT")
        /// OSM `opening_hours` parsed by the build (``OpeningHours/compact``, `Mo-Fr 08:00-19:00` → `w01f08001900`),
        /// which both readers evaluate in the city's time zone; NULL when the tag is absent or unreadable (the raw
        /// value stays in `tags`). A nullable last column, added in format 4 like `wheelchair`.
        package static let hours = Column<String?>("hours", "TEXT")
        package static let columns: [any AnyColumn] = [id, lat, lon, category, name, tags, wheelchair, hours]
        package static let create = createTable(withoutRowID: false)
        /// Every POI's point as stored, (id, lat, lon): what the proximity index is built from.
        package static let pointsQuery = "SELECT \(id), \(lat), \(lon) FROM \(table)"
        /// ``pointsQuery``, read by column.
        package static let points = Query(pointsQuery, results: [id, lat, lon])
    }

    /// `poi_name`: a POI's names per locale.
    package enum POIName: TableSchema {
        package static let table = Table.poiName
        /// The alias of `POIName` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "pn"
        package static let poi = Column<Int64>("poi", "INTEGER NOT NULL")
        package static let locale = Column<String>("locale", "TEXT NOT NULL")
        package static let name = Column<String>("name", "TEXT NOT NULL")
        package static let columns: [any AnyColumn] = [poi, locale, name]
        package static let create = createTable(primaryKey: [poi, locale], withoutRowID: true)
    }

    /// `poi_category`: further categories of a POI (codes as in `poi.category`).
    package enum POICategory: TableSchema {
        package static let table = Table.poiCategory
        /// The alias of `POICategory` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "pc"
        package static let poi = Column<Int64>("poi", "INTEGER NOT NULL")
        package static let category = Column<CategoryValue>("category", "NOT NULL")
        package static let columns: [any AnyColumn] = [poi, category]
        package static let create = createTable(primaryKey: [poi, category], withoutRowID: true)
    }

    /// `search`: the contentless FTS5 index of places; its rowid is a rank of ``PackSchema/searchIDsQuery``. Stored
    /// in packs of formats 1–4; from format 5 readers build it from the pack's rows (`SearchIndex` in CityPackSQLite).
    package enum Search: TableSchema {
        package static let table = Table.search
        /// The alias of `Search` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "fts"
        package static let name = Column<String>("name")
        package static let terms = Column<String>("terms")
        package static let columns: [any AnyColumn] = [name, terms]
        package static let create =
            "CREATE VIRTUAL TABLE \(table) USING fts5(\(list(columns)), content = '', tokenize = '\(([tokenizer.name] + tokenizer.arguments).joined(separator: " "))')"
        /// The `tokenize` option: readers that hold the index in memory call this tokenizer on queries directly.
        package static let tokenizer = (name: "unicode61", arguments: ["remove_diacritics", "2"])
        /// Every token of the index (an fts5vocab `instance` table, TEMP: writable on a read-only connection).
        package static let instances = "temp.search_instance"
        /// Creates ``instances`` over the index in `schema` (`main` for a pack that carries it, formats 1–4; `temp` for
        /// the one readers build).
        package static func createInstances(schema: String) -> String {
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(instances) USING fts5vocab(\(schema), \(table), instance)"
        }
        /// ``create`` in another schema (`temp`: the index readers build from format 5 on).
        package static func create(schema: String) -> String {
            create.replacingOccurrences(of: "CREATE VIRTUAL TABLE \(table) ", with: "CREATE VIRTUAL TABLE \(schema).\(table) ")
        }
        /// An instance's token (as the tokenizer folded it).
        package static let instanceTerm = Column<String>("term")
        /// An instance's rowid.
        package static let instanceRow = Column<Int64>("doc")
        /// An instance's column name (``name`` or ``terms``).
        package static let instanceColumn = Column<String>("col")
        /// An instance's token offset in its column.
        package static let instanceOffset = Column<Int64>("offset")
        /// Every instance, by term (bytes), rowid, column, offset.
        package static let allInstances = Query(
            "SELECT term, doc, col, offset FROM \(instances)", results: [instanceTerm, instanceRow, instanceColumn, instanceOffset])
        /// The rowid (a rank of ``PackSchema/searchIDsQuery``).
        package static let rowid = Column<Int64>.expression("rowid")
        /// bm25's score of a match (lower is better).
        package static let score = Column<Double>.expression("score")
        /// A row with its rowid (the rank), parameters (rowid, name, terms).
        package static let insertRanked = "INSERT INTO \(table)(rowid, \(list(columns))) VALUES (?, ?, ?)"
        /// ``insertRanked``, bound by column.
        package static let insertingRanked = Query(insertRanked, parameters: [rowid, name, terms])
        /// The FTS5 expression a ``matching`` query matches.
        package static let expression = Column<String>.expression("?1")
        /// Merges the index's segments once every row is in.
        package static let optimize = "INSERT INTO \(table)(\(table)) VALUES ('optimize')"
        /// Rowids of the rows matching the FTS5 expression bound to ?1, best first: bm25 weighs a `name` hit 10
        /// times a `terms` hit (weights in column order).
        package static let matchQuery =
            "SELECT rowid, bm25(\(table), 10.0, 1.0) AS score FROM \(table) WHERE \(table) MATCH ?1 ORDER BY score"
        /// ``matchQuery``, read by column (``rowid``, ``score``).
        package static let matching = Query(matchQuery, results: [rowid, score], parameters: [expression])
        /// Rowids of the rows matching the FTS5 expression bound to ?1, unranked (rowid order): for search near a
        /// point, which orders by distance, so bm25 (a row size read per match) is not needed.
        package static let matchAnyOrderQuery = "SELECT rowid FROM \(table) WHERE \(table) MATCH ?1"
        /// ``matchAnyOrderQuery``, read by column (``rowid``).
        package static let matchingAnyOrder = Query(matchAnyOrderQuery, results: [rowid], parameters: [expression])
    }
}
