import CityPackFormat
import CityPackSQLite
import Foundation

/// POI and stop details by id, with a cache: what `nearby`, `search`, `poi(id:)`, `stop(id:)` and walking-route
/// waypoints turn into ``PlaceResult``s. Used with the connection's lock held.
final class PlaceLookup {
    /// A place's stored fields, independent of locale and query.
    struct Details {
        var osm: String
        var lat: Double
        var lon: Double
        var category: String
        var name: String?
        var names: [String: String]
        var tags: [String: String]
        var stopID: String? = nil
        var also: [String] = []
        var wheelchair: PackSchema.Wheelchair? = nil
        var hours: String? = nil
    }

    private var poiStatement: PackConnection.Rows?
    private var namesStatement: PackConnection.Rows?
    private var stopStatement: PackConnection.Rows?
    /// `poi_category` rows of a POI; nil for packs written before the table existed.
    private var alsoStatement: PackConnection.Rows?
    private var cache: [Int64: Details] = [:]
    private let cacheLimit: Int
    /// Category ids by code (`poi.category` is a code since format 3).
    private let categoryIDs: [String]
    /// Labels, links and names of every place; set by ``PackReader`` once loaded. Without it (never in a reader)
    /// results keep a nil name for unnamed places and no links.
    var directory: PlaceDirectory?

    /// Prepares the lookups.
    /// - Parameter cacheLimit: How many places' details are kept (0 disables the cache).
    init(database db: PackConnection.Database, cacheLimit: Int) throws(PackError) {
        typealias PN = PackSchema.POIName
        typealias PC = PackSchema.POICategory
        typealias ST = PackSchema.Stop
        self.cacheLimit = max(0, cacheLimit)
        typealias P = PackSchema.POI
        poiStatement = try db.prepare(P.Row.byID(absent: P.missingColumns(in: db)), persistent: true)
        namesStatement = try db.prepare(PN.select([PN.locale, PN.name], where: [PN.poi]), persistent: true)
        categoryIDs = try Self.categoryIDs(db)
        if try Self.hasTable(db, PC.table) {
            alsoStatement = try db.prepare(PC.select([PC.category], where: [PC.poi], orderBy: [PC.category]), persistent: true)
        }
        stopStatement = try db.prepare(
            ST.select([ST.stopID, ST.name, ST.lat, ST.lon, ST.locationType], where: [ST.id]), persistent: true)
    }

    /// Whether the pack has a table (older packs lack the ones added later in a format).
    static func hasTable(_ db: PackConnection.Database, _ name: String) throws(PackError) -> Bool {
        let stmt = try db.prepare(PackSchema.tableCount)
        stmt.bind(PackSchema.tableName, name)
        return try stmt.step() && stmt[PackSchema.count] > 0
    }

    /// Category ids in code order (``CityPackFormat/PackSchema/categoryCodesQuery``).
    static func categoryIDs(_ db: PackConnection.Database) throws(PackError) -> [String] {
        let stmt = try db.prepare(PackSchema.categoryCodesInOrder)
        var ids: [String] = []
        while try stmt.step() { ids.append(stmt[PackSchema.Category.id]) }
        return ids
    }

    /// Drops the statements and the cache (on close).
    func release() {
        poiStatement = nil
        namesStatement = nil
        stopStatement = nil
        alsoStatement = nil
        cache = [:]
    }

    /// A place as a result, or nil when the pack has no such POI or stop.
    ///
    /// The name is the locale's (nil: the pack's default locale), else the category's label in that locale
    /// (``PlaceResult/named`` false). A place linked to another (meta `place_links`) carries the partner's id, and a
    /// POI the stop's stop_id, a stop the POI's OSM ref.
    /// - Parameters:
    ///   - id: POI or stop id (``PackSchema/isStopID(_:)`` tells them apart).
    ///   - locale: Locale for ``PlaceResult/name``.
    ///   - distance: Metres from the query point, for `nearby`.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    func result(_ id: Int64, locale: String?, distance: Double? = nil) throws(PackError) -> PlaceResult? {
        guard let d = try details(id) else { return nil }
        let locale = locale ?? directory?.defaultLocale
        var name = Self.displayName(names: d.names, plain: d.name, locale: locale)
        if name?.isEmpty == true { name = nil }
        var result = PlaceResult(
            id: id, osm: d.osm, name: name ?? directory?.label(d.category, locale: locale),
            category: d.category, lat: d.lat, lon: d.lon, distanceMetres: distance, names: d.names, tags: d.tags,
            kind: PackSchema.isStopID(id) ? .stop : .poi, stopID: d.stopID, alsoCategories: d.also)
        result.wheelchair = d.wheelchair
        result.hours = d.hours
        result.named = name != nil
        if let partner = directory?.links[id], let other = try details(partner) {
            result.linkedID = partner
            if PackSchema.isStopID(id) { result.osm = other.osm } else { result.stopID = other.stopID }
        }
        return result
    }

    /// The category of a GTFS stop by its location_type.
    static func stopCategory(_ locationType: Int64) -> String {
        switch locationType {
        case 1: "transit_station"
        case 2: "transit_entrance"
        default: "transit_stop"
        }
    }

    func details(_ id: Int64) throws(PackError) -> Details? {
        if let cached = cache[id] { return cached }
        guard let details = try PackSchema.isStopID(id) ? stopDetails(id) : poiDetails(id) else { return nil }
        if cacheLimit > 0 {
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[id] = details
        }
        return details
    }

    private func poiDetails(_ id: Int64) throws(PackError) -> Details? {
        guard let poiStatement, let namesStatement else { throw PackError.closed }
        poiStatement.reset()
        poiStatement.bind(PackSchema.POI.id, id)
        defer { poiStatement.reset() }
        guard try poiStatement.step() else { return nil }
        let row = PackSchema.POI.Row(poiStatement)
        guard let tags = PackSchema.decodeTags(row.tags) else {
            throw PackError.malformedData("poi \(id): tags are neither compact tags nor a JSON object of strings")
        }
        var details = Details(
            osm: PackSchema.osmRef(id: id), lat: row.lat, lon: row.lon, category: row.category.id(codes: categoryIDs),
            name: row.name, names: [:], tags: tags, wheelchair: row.wheelchair, hours: row.hours)
        typealias PN = PackSchema.POIName
        namesStatement.reset()
        namesStatement.bind(PN.poi, id)
        defer { namesStatement.reset() }
        while try namesStatement.step() {
            if !namesStatement.isNull(PN.locale), !namesStatement.isNull(PN.name) {
                details.names[namesStatement[PN.locale]] = namesStatement[PN.name]
            }
        }
        details.also = try also(id)
        return details
    }

    /// A stop's row as details: no names per locale, no tags; the category from its GTFS location_type.
    private func stopDetails(_ id: Int64) throws(PackError) -> Details? {
        guard let stmt = stopStatement else { throw PackError.closed }
        typealias ST = PackSchema.Stop
        stmt.reset()
        stmt.bind(ST.id, id)
        defer { stmt.reset() }
        guard try stmt.step() else { return nil }
        var details = Details(
            osm: "", lat: stmt[ST.lat] ?? 0, lon: stmt[ST.lon] ?? 0, category: Self.stopCategory(Int64(stmt[ST.locationType])),
            name: stmt[ST.name], names: [:], tags: [:], stopID: stmt.isNull(ST.stopID) ? nil : stmt[ST.stopID])
        // The categories of the modes serving the stop (`poi_category` rows of stop ids).
        details.also = try also(id)
        return details
    }

    /// The further categories of a POI or stop (`poi_category`), ascending; none in packs without the table.
    private func also(_ id: Int64) throws(PackError) -> [String] {
        guard let alsoStatement else { return [] }
        typealias PC = PackSchema.POICategory
        alsoStatement.reset()
        alsoStatement.bind(PC.poi, id)
        defer { alsoStatement.reset() }
        var out: [String] = []
        while try alsoStatement.step() { out.append(alsoStatement[PC.category].id(codes: categoryIDs)) }
        return out.sorted()
    }

    /// `names[locale]`, then each shorter prefix of the tag (`zh-Hant-TW` → `zh-Hant` → `zh`), then the plain
    /// name, then the name of the alphabetically first locale.
    static func displayName(names: [String: String], plain: String?, locale: String?) -> String? {
        if var tag = locale, !names.isEmpty {
            while !tag.isEmpty {
                if let n = names[tag] { return n }
                guard let cut = tag.lastIndex(where: { $0 == "-" || $0 == "_" }) else { break }
                tag = String(tag[..<cut])
            }
        }
        return plain ?? names.min { $0.key < $1.key }?.value
    }
}
