import Foundation
/// The pack format: SQLite table and column names, version numbers and file naming shared by the writer
/// (`CityPackEmit`) and the reader (`CityPackKit`); both name tables and columns through the table namespaces
/// (``POI``, ``Stop``, …; `PackSchema+Columns.swift`), which also build the CREATE statements and the queries both
/// sides share.
///
/// The tables of format ``formatVersion`` (3; older formats differ as ``formatVersion`` and
/// ``oldestReadableFormatVersion`` say):
/// - `meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`: see ``MetaKey``.
/// - `category(id TEXT PRIMARY KEY, priority INTEGER NOT NULL, label TEXT NOT NULL)`: labels in the default locale.
/// - `category_label(category TEXT, locale TEXT, label TEXT, PRIMARY KEY(category, locale))`: labels in the city's
///   locales and English (what describes an unnamed place); the categories include the GTFS stops' (`transit_stop`,
///   `transit_station`, `transit_entrance`).
/// - meta `place_links`: a GTFS stop and the OSM feature of the same place (``PlaceLink``); meta `category_terms`:
///   the words that name each category (``CategoryTerm``).
/// - `poi(id INTEGER PRIMARY KEY, lat NOT NULL, lon NOT NULL, category NOT NULL, name TEXT, tags TEXT NOT NULL,
///   wheelchair TEXT, hours TEXT)` (`hours`: OSM `opening_hours` as ``OpeningHours/compact``, NULL when absent or
///   unreadable, added like `wheelchair`) (`wheelchair`: OSM `yes`, `limited` or `no`, else NULL; added in format 4 without a version
///   bump, as a nullable last column is a compatible change: older readers never select it, and readers select it
///   as NULL from packs written before it, ``TableSchema/missingColumns(in:)``)
///   (`category`: the code of ``categoryCodesQuery``; the id as TEXT in formats 1 and 2):
///   `id` is ``stableID`` of the OSM ref (`osmId × 4 + kind`, kind 0 node, 1 way, 2 relation; the OSM ref is
///   derived from it, ``osmRef(id:)``); `lat` and `lon` are degrees stored as ``storedDegrees(_:)`` writes them
///   (an INTEGER of degrees × 10⁷ when that is exact, as for every OSM coordinate, else a REAL; read them with
///   ``degrees(integerE7:)`` or the SQL of ``degreesSQL(_:)``); `tags` a JSON object with sorted keys.
/// - `poi_name(poi INTEGER, locale TEXT, name TEXT, PRIMARY KEY(poi, locale)) WITHOUT ROWID`.
/// - `poi_category(poi INTEGER, category, PRIMARY KEY(poi, category)) WITHOUT ROWID`: further categories of a POI
///   (and, by stop id, the categories of the modes serving a stop)
///   (`category` coded as in `poi`), e.g. `atm` for a bank with a cash machine; a POI's `search.terms` hold the
///   terms of all its categories. Format-3 packs written before the table existed lack it: readers take that as
///   no further categories.
/// - The proximity index of POIs is not stored: readers build it from `poi` (id, lat, lon; the precision-8
///   geohash cell computed with `Geohash.cell`) at open, as `ProximityIndex` does, and query it with
///   `GeohashCover` filtered by `GreatCircle.distance` (`ProximityIndex.within`).
/// - `search`: contentless FTS5 table (`content=''`, `unicode61 remove_diacritics 2`) with columns `name` (every
///   name in every locale; a stop's name) and `terms` (category id and its synonyms in every locale;
///   ``StopTerms`` for stops). Its rowid is the 1-based rank of the place among the ids of ``searchIDsQuery``
///   (POIs and named stops, by category then id), so doclists are dense runs; readers map a rowid back to an id
///   through the same query and order equal bm25 scores by id.
///
/// Transit (GTFS; several feeds are numbered 0, 1, … in input order, column `feed`):
/// - `stop(id INTEGER PRIMARY KEY, feed, stop_id TEXT, name, lat, lon, cell, location_type, parent, wheelchair)`: every stop
///   of every feed. `id` is ``stopID(index:)`` of the stop's position in the order sorted by (feed, stop_id), so
///   stop ids are ≡ 3 (mod 4) and never collide with POI ids (`osmId × 4 + kind`, kind 0…2) in `search` or the
///   proximity index. `lat`, `lon` and `cell` are NULL without coordinates; `parent` is the `stop.id` of the
///   parent station. Indexed by `stop_id` and by `parent`.
/// - `stop_bucket(cell, stop, lat, lon, PRIMARY KEY(cell, stop)) WITHOUT ROWID`: the proximity index rows of the
///   stops inside the city bbox with location_type 0 (stop/platform), 1 (station) or 2 (entrance), clustered by
///   cell then id.
/// - `line(id INTEGER PRIMARY KEY, feed, route_id, agency, short_name, long_name, type, colour, text_colour)`:
///   routes sorted by (feed, route_id), ids from 1; colours are `RRGGBB` or NULL.
/// - `service(id INTEGER PRIMARY KEY, feed, service_id, start_date, end_date, days)`: sorted by (feed,
///   service_id), ids from 1; dates `yyyymmdd`, `days` bit 0 = Monday … bit 6 = Sunday; start, end and days
///   NULL for services defined by calendar_dates only.
/// - `service_date(service, date, type, PRIMARY KEY(service, date)) WITHOUT ROWID`: calendar_dates, `type` 1
///   added, 2 removed (an exception wins over the calendar).
/// - `trip(id INTEGER PRIMARY KEY, trip_id, line, service, headsign, direction, wheelchair)`: sorted by (feed,
///   trip_id), ids from 1. `stop.wheelchair` and `trip.wheelchair` are GTFS wheelchair_boarding and
///   wheelchair_accessible (1 yes, 2 no), NULL without information.
/// - `pattern(id INTEGER PRIMARY KEY, flags, stops BLOB, trips BLOB, times BLOB)`: the timetable, once: trips
///   grouped by their ordered stops (only timed stops inside the pack), split so no trip overtakes another, with
///   arrival and departure at every stop (the terminus included) in ``TimetableCoding``'s delta-coded varints.
///   Seconds count from the start of the service day and may exceed 86 400 (25:10:00 = 90 600); a missing
///   arrival or departure is the other one. Departure boards and the journey planner both read it.
/// - `frequency(trip, start, end, headway, exact_times, PRIMARY KEY(trip, start)) WITHOUT ROWID`: the trip's
///   first stop departs at start, start + headway, … while < end.
///   A frequency trip is a pattern of its own whose times are offsets from its first departure.
/// - `footpath(from_stop, to_stop, metres, seconds, PRIMARY KEY(from_stop, to_stop)) WITHOUT ROWID`: changes:
///   transfers.txt (station rows apply to their platforms; `seconds` its min_transfer_time, -1 forbidden), then
///   walking within ``TransitWalking/radius`` between the stops of one feed (`seconds` NULL).
/// Editorial content and copy (texts are JSON objects `{"<locale>": "<text>"}` with sorted keys, every city
/// locale present, the default locale's text filling gaps):
/// - `card(id TEXT PRIMARY KEY, position, icon, home, title)`: problem cards in display order; `home` 1 when listed
///   on the home screen (0: reached only through `card` actions).
/// - `situation(id TEXT PRIMARY KEY, card, position, title, body)`: micro-situations of a card; indexed by
///   (card, position).
/// - `action(id TEXT PRIMARY KEY, situation, position, kind, target, label, text)`: `kind` is nearby (target a
///   category id), call (a phone number), route (a route id), departures (a GTFS stop_id), text (no target; `text`
///   holds it), card or situation (an id); indexed by (situation, position).
/// - `route(id TEXT PRIMARY KEY, position, name, description, length_m, min_lon, min_lat, max_lon, max_lat)`:
///   curated walking routes; length is the sum of great-circle legs in metres; the region is the waypoints'
///   box padded by 20 % of its span on each side and at least 0.01° on each axis (`RouteGeometry`).
/// - `route_waypoint(route, sequence, poi, lat, lon, radius, name, PRIMARY KEY(route, sequence)) WITHOUT ROWID`:
///   ordered waypoints; `poi` is the POI's stable id or NULL for a free point; `radius` the alert radius in
///   metres (default 25); `name` a localised JSON object or NULL (apps then show the POI's name).
/// - `string(key, locale, form, value, PRIMARY KEY(key, locale, form)) WITHOUT ROWID`: UI copy for every city
///   locale with fallbacks resolved; `form` is '' for a plain message or a CLDR plural category; values keep the
///   copy syntax (`{name}` placeholders, `{{` / `}}` literal braces).
///
/// - meta ``MetaKey/transitMaxSeconds``: the latest departure (seconds of its service day) in the pack, so a
///   reader knows how many earlier service days can still have departures after a given time.
public enum PackSchema {
    /// SQLite `application_id` ("CPK1" as a big-endian 32-bit integer).
    package static let applicationID: Int32 = 0x4350_4B31
    /// SQLite `user_version`: the pack format version. Readers refuse versions they do not know. Version 2
    /// (issue 15, smaller packs): no `poi_bucket`, no `poi.osm` and `poi.cell`, coordinates as integers × 10⁷,
    /// contentless `search` with dense rowids. Version 3: `poi.category` holds the category's code
    /// (``categoryCodesQuery``) instead of its id, and `poi.tags` is compact (``encodeTags(_:)``) instead of JSON.
    /// Version 4 (issue 31, journeys): the timetable as `pattern` rows (arrival and departure at every stop) and
    /// `footpath`, replacing `departure` and `trip_offset`; transit time zones in meta. Readers open older packs
    /// but answer transit queries (departures, journeys) from format 4 on.
    /// Version 5 (issue 37, pack size): no `search` table — readers build the same index from the pack's rows on
    /// their first text search — and meta ``MetaKey/searchTerms``, the search words of each category it indexes;
    /// tables with no rows among ``omittedWhenEmpty`` are left out.
    public static let formatVersion: Int32 = 5
    /// The oldest format version readers still open. Format 1 differs only in the tables readers use: `poi` with
    /// `osm` and `cell` columns and REAL coordinates, `poi_bucket`, and a `search` table with content whose rowid
    /// is the place's id (readers then use the rowid as the id).
    package static let oldestReadableFormatVersion: Int32 = 1
    /// Geohash precision of the proximity index cells (`stop_bucket.cell`, `stop.cell`; characters; 5 bits each).
    package static let bucketPrecision = 8
    /// File suffix of the compressed pack.
    package static let packSuffix = ".citypack.gz"
    /// Name of the per-pack manifest beside the pack.
    package static let manifestName = "manifest.json"
    /// Name of the catalog of all packs in an output folder.
    package static let catalogName = "catalog.json"

    package enum Table {
        package static let meta = "meta"
        package static let category = "category"
        package static let categoryLabel = "category_label"
        package static let poi = "poi"
        package static let poiName = "poi_name"
        package static let poiCategory = "poi_category"
        package static let search = "search"
        package static let stop = "stop"
        package static let stopBucket = "stop_bucket"
        package static let line = "line"
        package static let service = "service"
        package static let serviceDate = "service_date"
        package static let trip = "trip"
        package static let pattern = "pattern"
        package static let frequency = "frequency"
        package static let footpath = "footpath"
        package static let card = "card"
        package static let situation = "situation"
        package static let action = "action"
        package static let route = "route"
        package static let routeWaypoint = "route_waypoint"
        package static let string = "string"
    }

    /// Stop ids in `stop`, `stop_bucket` and `search`: `index × 4 + 3`, so they are ≡ 3 (mod 4) while POI ids
    /// are `osmId × 4 + kind` with kind 0…2.
    package static func stopID(index: Int) -> Int64 { Int64(index) * 4 + 3 }

    /// The ids `search` rowids rank (rowid = 1-based position in this result): every POI and every stop that
    /// has a name and location_type 0 or 1, ordered by category (a stop's ``StopTerms``) then id. Grouping a
    /// category's places makes the doclists of its terms runs of consecutive rowids, which compress to almost
    /// nothing; since rowid order is then not id order, readers break bm25 ties by id themselves.
    package static let searchIDsQuery = """
        SELECT \(POI.id) FROM (SELECT \(POI.id), \(POI.category) AS k FROM \(POI.table) UNION ALL \
        SELECT \(Stop.id), CASE \(Stop.locationType) WHEN 1 THEN '\(StopTerms.station)' ELSE '\(StopTerms.stop)' END \
        FROM \(Stop.table) WHERE \(Stop.name) IS NOT NULL AND \(Stop.name) <> '' AND \(Stop.locationType) <= 1) \
        ORDER BY k, \(POI.id)
        """

    /// ``searchIDsQuery``, its one result read as ``POI/id``.
    package static let searchIDs = Query(searchIDsQuery, results: [POI.id])

    /// ``categoryCodesQuery``, its one result read as ``Category/id``.
    package static let categoryCodesInOrder = Query(categoryCodesQuery, results: [Category.id])

    /// The OSM ref (`n123`, `w45`, `r6`) of a POI id (`osmId × 4 + kind`).
    package static func osmRef(id: Int64) -> String {
        let letter = switch id & 3 {
        case 0: "n"
        case 1: "w"
        default: "r"
        }
        return "\(letter)\(id >> 2)"
    }

    /// SQL giving the OSM ref of a POI id column, as ``osmRef(id:)``.
    package static func osmRefSQL(_ column: String) -> String {
        "(CASE \(column) & 3 WHEN 0 THEN 'n' WHEN 1 THEN 'w' ELSE 'r' END || (\(column) >> 2))"
    }

    /// How a coordinate (degrees) is stored in `poi.lat` / `poi.lon`: an integer of degrees × 10⁷ when dividing
    /// it by 10⁷ gives back exactly `degrees` (every OSM coordinate), else nil (store the REAL).
    package static func storedDegrees(_ degrees: Double) -> Int64? {
        guard degrees.isFinite, abs(degrees) <= 360 else { return nil }
        let e7 = (degrees * 10_000_000).rounded()
        return e7 / 10_000_000 == degrees ? Int64(e7) : nil
    }

    /// Degrees of a stored integer coordinate (degrees × 10⁷); correctly rounded, so it is exactly the value
    /// ``storedDegrees(_:)`` was given.
    package static func degrees(integerE7 value: Int64) -> Double { Double(value) / 10_000_000 }

    /// SQL reading a stored coordinate column as degrees (a REAL either way).
    package static func degreesSQL(_ column: String) -> String {
        "(CASE typeof(\(column)) WHEN 'integer' THEN \(column) / 10000000.0 ELSE \(column) END)"
    }

    /// The category ids in code order: since format 3, `poi.category` is an INTEGER, the 0-based position of the
    /// POI's category in this result (formats 1 and 2 store the id as TEXT; readers accept both).
    package static let categoryCodesQuery = "SELECT \(Category.id) FROM \(Category.table) ORDER BY \(Category.id)"

    /// The codes ``categoryCodesQuery`` gives, from category ids (ascending by UTF-8 bytes, SQLite's BINARY order).
    package static func categoryCodes(_ ids: [String]) -> [String: Int64] {
        let sorted = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Dictionary(sorted.enumerated().map { ($1, Int64($0)) }, uniquingKeysWith: { a, _ in a })
    }

    /// A `LEFT JOIN` of category codes for the `poi` alias `alias`, and the expression giving its category id
    /// whatever the format: `SELECT \(categorySQL("p")) … FROM poi p \(categoryJoinSQL("p"))`.
    package static func categoryJoinSQL(_ alias: String) -> String {
        "LEFT JOIN (SELECT \(Category.id) AS category_id, row_number() OVER (ORDER BY \(Category.id)) - 1 AS category_code "
            + "FROM \(Category.table)) \(alias)_category ON \(alias)_category.category_code = \(alias).\(POI.category)"
    }

    /// See ``categoryJoinSQL(_:)``.
    package static func categorySQL(_ alias: String) -> String {
        "coalesce(\(alias)_category.category_id, \(alias).\(POI.category))"
    }

    /// `poi.tags` since format 3: `key U+001F value` entries joined by U+001E, keys ascending by UTF-8 bytes, "" for
    /// none; a POI whose tags hold either separator is written as a JSON object, as in formats 1 and 2.
    package static func encodeTags(_ tags: [String: String]) -> String? {
        let separators: Set<Character> = ["\u{1E}", "\u{1F}"]
        if tags.contains(where: { $0.key.contains(where: separators.contains) || $0.value.contains(where: separators.contains) }) {
            return nil
        }
        return tags.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .map { "\($0.key)\u{1F}\($0.value)" }.joined(separator: "\u{1E}")
    }

    /// Tags as ``encodeTags(_:)`` or a JSON object (formats 1 and 2) stores them; nil when malformed.
    package static func decodeTags(_ text: String) -> [String: String]? {
        if text.hasPrefix("{") {
            return try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        }
        var tags: [String: String] = [:]
        guard !text.isEmpty else { return tags }
        for entry in text.split(separator: "\u{1E}", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            tags[String(parts[0])] = String(parts[1])
        }
        return tags
    }

    /// Whether an id of `search` or of the proximity buckets is a stop (else a POI).
    package static func isStopID(_ id: Int64) -> Bool { id & 3 == 3 }

    /// `search.terms` of stops: location_type 1 (station) vs everything else.
    package enum StopTerms {
        package static let stop = "transit stop"
        package static let station = "transit station"
    }

    /// Keys of the `meta` table.
    package enum MetaKey {
        package static let formatVersion = "format_version"
        package static let dataVersion = "data_version"
        package static let cityID = "city_id"
        package static let cityName = "city_name"
        package static let defaultLocale = "default_locale"
        package static let locales = "locales"  // comma-separated
        package static let bbox = "bbox"  // "minLon,minLat,maxLon,maxLat"
        /// The city's IANA time zone (city file, else the feed's, else derived from the bbox): "open now".
        package static let timezone = "timezone"
        package static let createdAt = "created_at"  // ISO 8601, UTC
        package static let generator = "generator"
        package static let attribution = "attribution"
        package static let poiCount = "poi_count"
        package static let stopCount = "stop_count"
        package static let lineCount = "line_count"
        /// Largest departure (not at a trip's last stop) or frequency departure (`frequency.end` + offset) in the pack; absent
        /// without transit.
        package static let transitMaxSeconds = "transit_max_seconds"
        /// The words that name categories (``CategoryTerm/encode(_:)``); absent in packs before issue 32.
        package static let categoryTerms = "category_terms"
        /// Each category's search words as the index's `terms` column holds them (``SearchTerms``); format 5 on.
        package static let searchTerms = "search_terms"
        /// Linked places (``PlaceLink/encode(_:)``); absent in packs before issue 32 and in packs without any.
        package static let placeLinks = "place_links"
        /// Each feed's time zone (agency_timezone), comma-separated in feed order; absent without transit.
        package static let transitTimezones = "transit_timezones"
        /// Stops with their own stop_timezone: `stop_id=zone` pairs joined by `,` (feed 0's first); absent when none.
        package static let transitStopTimezones = "transit_stop_timezones"
        package static let cardCount = "card_count"
        package static let routeCount = "route_count"
    }

    /// Every table, in creation order (the order of `sqlite_master` and of the tables' pages in a new pack).
    /// Computed: an array of metatypes is not `Sendable`, so it cannot be a stored static.
    package static var tables: [any TableSchema.Type] {
        [
            Meta.self, Category.self, CategoryLabel.self, POI.self, POIName.self, POICategory.self,
            Stop.self, StopBucket.self, Line.self, Service.self, ServiceDate.self, Trip.self, Pattern.self,
            Frequency.self, Footpath.self, Card.self, Situation.self, Action.self, Route.self, RouteWaypoint.self,
            Strings.self,
        ]
    }

    /// Tables a pack leaves out when they have no rows (format 5 on: an OSM-only city has no transit tables), which
    /// readers then see as empty (`PackTables.addStandIns` in CityPackSQLite): every table but `meta`, `category`,
    /// `poi` and `string`. The editorial ones are created after the base only for content they hold.
    package static var omittedWhenEmpty: [any TableSchema.Type] {
        [
            CategoryLabel.self, POIName.self, POICategory.self, Stop.self, StopBucket.self, Line.self, Service.self,
            ServiceDate.self, Trip.self, Pattern.self, Frequency.self, Footpath.self, Card.self, Situation.self,
            Action.self, Route.self, RouteWaypoint.self,
        ]
    }

    /// The statements that create a pack of ``formatVersion``, in order: each table of ``tables`` then its indexes.
    package static let createStatements: [String] = tables.flatMap { [$0.create] + $0.createIndexes }
}
