/// The pack format: SQLite table and column names, version numbers and file naming shared by the writer
/// (`CityPackEmit`) and the reader (`CityPackKit`). Nothing else is shared between them.
///
/// Format version 1 tables:
/// - `meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`: see ``MetaKey``.
/// - `category(id TEXT PRIMARY KEY, priority INTEGER NOT NULL, label TEXT NOT NULL)`: labels in the default locale.
/// - `category_label(category TEXT, locale TEXT, label TEXT, PRIMARY KEY(category, locale))`.
/// - `poi(id INTEGER PRIMARY KEY, osm TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, cell INTEGER NOT NULL,
///   category TEXT NOT NULL, name TEXT, tags TEXT NOT NULL)`: `id` is ``stableID`` of the OSM ref, `cell`
///   the precision-8 geohash as an integer (see `Geohash`), `tags` a JSON object with sorted keys.
/// - `poi_name(poi INTEGER, locale TEXT, name TEXT, PRIMARY KEY(poi, locale)) WITHOUT ROWID`.
/// - `poi_bucket(cell INTEGER, poi INTEGER, lat REAL, lon REAL, PRIMARY KEY(cell, poi)) WITHOUT ROWID`:
///   the proximity buckets, clustered by cell so one cell (or one coarser geohash prefix) is one range scan.
///   Readers query it with `GeohashCover.cells` and filter by `GreatCircle.distance` (see those types).
/// - `search`: FTS5 table (`unicode61 remove_diacritics 2`) with rowid = POI id and columns `name` (every name
///   in every locale) and `terms` (category id and its synonyms in every locale).
public enum PackSchema {
    /// SQLite `application_id` ("CPK1" as a big-endian 32-bit integer).
    public static let applicationID: Int32 = 0x4350_4B31
    /// SQLite `user_version`: the pack format version. Readers refuse versions they do not know.
    public static let formatVersion: Int32 = 1
    /// Geohash precision of `poi.cell` and `poi_bucket.cell` (characters; 5 bits each).
    public static let bucketPrecision = 8
    /// File suffix of the compressed pack.
    public static let packSuffix = ".citypack.gz"
    /// Name of the per-pack manifest beside the pack.
    public static let manifestName = "manifest.json"
    /// Name of the catalog of all packs in an output folder.
    public static let catalogName = "catalog.json"

    public enum Table {
        public static let meta = "meta"
        public static let category = "category"
        public static let categoryLabel = "category_label"
        public static let poi = "poi"
        public static let poiName = "poi_name"
        public static let poiBucket = "poi_bucket"
        public static let search = "search"
    }

    /// Keys of the `meta` table.
    public enum MetaKey {
        public static let formatVersion = "format_version"
        public static let dataVersion = "data_version"
        public static let cityID = "city_id"
        public static let cityName = "city_name"
        public static let defaultLocale = "default_locale"
        public static let locales = "locales"  // comma-separated
        public static let bbox = "bbox"  // "minLon,minLat,maxLon,maxLat"
        public static let createdAt = "created_at"  // ISO 8601, UTC
        public static let generator = "generator"
        public static let attribution = "attribution"
        public static let poiCount = "poi_count"
    }

    /// The statements that create a version-1 pack, in order.
    public static let createStatements: [String] = [
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE category(id TEXT PRIMARY KEY, priority INTEGER NOT NULL, label TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE category_label(category TEXT NOT NULL, locale TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY(category, locale)) WITHOUT ROWID",
        "CREATE TABLE poi(id INTEGER PRIMARY KEY, osm TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, cell INTEGER NOT NULL, category TEXT NOT NULL, name TEXT, tags TEXT NOT NULL)",
        "CREATE TABLE poi_name(poi INTEGER NOT NULL, locale TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(poi, locale)) WITHOUT ROWID",
        "CREATE TABLE poi_bucket(cell INTEGER NOT NULL, poi INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, PRIMARY KEY(cell, poi)) WITHOUT ROWID",
        "CREATE VIRTUAL TABLE search USING fts5(name, terms, tokenize = 'unicode61 remove_diacritics 2')",
    ]
}
