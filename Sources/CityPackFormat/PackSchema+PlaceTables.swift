/// The tables of places: meta, categories, POIs and the search index (``PackSchema`` describes their contents).
extension PackSchema {
    /// `meta`: key/value rows, keys from ``MetaKey``.
    public enum Meta: TableSchema {
        public static let table = Table.meta
        public static let key = Column("key", "TEXT PRIMARY KEY")
        public static let value = Column("value", "TEXT NOT NULL")
        public static let columns = [key, value]
        public static let create = createTable(withoutRowID: true)
        /// Every row, as (key, value).
        public static let selectAll = "SELECT \(key), \(value) FROM \(table)"
        /// The value of the key bound to ?1.
        public static let valueQuery = "SELECT \(value) FROM \(table) WHERE \(key) = ?1"
    }

    /// `category`: the pack's categories with the label in the default locale.
    public enum Category: TableSchema {
        public static let table = Table.category
        public static let id = Column("id", "TEXT PRIMARY KEY")
        public static let priority = Column("priority", "INTEGER NOT NULL")
        public static let label = Column("label", "TEXT NOT NULL")
        public static let columns = [id, priority, label]
        public static let create = createTable(withoutRowID: true)
    }

    /// `category_label`: category labels in the city's locales.
    public enum CategoryLabel: TableSchema {
        public static let table = Table.categoryLabel
        public static let category = Column("category", "TEXT NOT NULL")
        public static let locale = Column("locale", "TEXT NOT NULL")
        public static let label = Column("label", "TEXT NOT NULL")
        public static let columns = [category, locale, label]
        public static let create = createTable(primaryKey: [category, locale], withoutRowID: true)
    }

    /// `poi`: one row per POI; `lat` and `lon` as ``PackSchema/storedDegrees(_:)``, `category` a code of
    /// ``PackSchema/categoryCodesQuery``, `tags` as ``PackSchema/encodeTags(_:)``.
    public enum POI: TableSchema {
        public static let table = Table.poi
        public static let id = Column("id", "INTEGER PRIMARY KEY")
        public static let lat = Column("lat", "NOT NULL")
        public static let lon = Column("lon", "NOT NULL")
        public static let category = Column("category", "NOT NULL")
        public static let name = Column("name", "TEXT")
        public static let tags = Column("tags", "TEXT NOT NULL")
        public static let columns = [id, lat, lon, category, name, tags]
        public static let create = createTable(withoutRowID: false)
        /// Every POI's point as stored, (id, lat, lon): what the proximity index is built from.
        public static let pointsQuery = "SELECT \(id), \(lat), \(lon) FROM \(table)"
    }

    /// `poi_name`: a POI's names per locale.
    public enum POIName: TableSchema {
        public static let table = Table.poiName
        public static let poi = Column("poi", "INTEGER NOT NULL")
        public static let locale = Column("locale", "TEXT NOT NULL")
        public static let name = Column("name", "TEXT NOT NULL")
        public static let columns = [poi, locale, name]
        public static let create = createTable(primaryKey: [poi, locale], withoutRowID: true)
    }

    /// `poi_category`: further categories of a POI (codes as in `poi.category`).
    public enum POICategory: TableSchema {
        public static let table = Table.poiCategory
        public static let poi = Column("poi", "INTEGER NOT NULL")
        public static let category = Column("category", "NOT NULL")
        public static let columns = [poi, category]
        public static let create = createTable(primaryKey: [poi, category], withoutRowID: true)
    }

    /// `search`: the contentless FTS5 index of places; its rowid is a rank of ``PackSchema/searchIDsQuery``.
    public enum Search: TableSchema {
        public static let table = Table.search
        public static let name = Column("name")
        public static let terms = Column("terms")
        public static let columns = [name, terms]
        public static let create =
            "CREATE VIRTUAL TABLE \(table) USING fts5(\(list(columns)), content = '', tokenize = 'unicode61 remove_diacritics 2')"
        /// A row with its rowid (the rank), parameters (rowid, name, terms).
        public static let insertRanked = "INSERT INTO \(table)(rowid, \(list(columns))) VALUES (?, ?, ?)"
        /// Merges the index's segments once every row is in.
        public static let optimize = "INSERT INTO \(table)(\(table)) VALUES ('optimize')"
        /// Rowids of the rows matching the FTS5 expression bound to ?1, best first: bm25 weighs a `name` hit 10
        /// times a `terms` hit (weights in column order).
        public static let matchQuery =
            "SELECT rowid, bm25(\(table), 10.0, 1.0) AS score FROM \(table) WHERE \(table) MATCH ?1 ORDER BY score"
    }
}
