import CityPackFormat
import CityPackSQLite
import Foundation

/// What search, nearby and listings know of every place without SQL, loaded once at open: each place's categories
/// (its own, its further ones and, for stops, those of the modes serving it), one proximity index per category,
/// which places have a name, how important a place is, which GTFS stop and OSM feature are one place
/// (meta `place_links`), and the category labels per locale. About 40 bytes per place and category membership.
///
/// Immutable after loading; used with the connection's lock held.
struct PlaceDirectory: Sendable {
    /// Proximity index of each category's places (POIs and indexed stops; a place under every category it has).
    let byCategory: [String: ProximityIndex]
    /// Places with a name (POI `name` or any `poi_name`; a stop with a non-empty name).
    let named: Set<Int64>
    /// Rank for listings without a position: 0 a station (GTFS location_type 1), 2 an entrance (location_type 2),
    /// 1 everything else (absent here).
    let importance: [Int64: Int]
    /// The other id of a linked pair (POI → stop and stop → POI; meta `place_links`).
    let links: [Int64: Int64]
    /// The place of ids that share one (``CityPackFormat/PackSchema/PlaceLink/groups(_:)``): linked pairs and
    /// platforms named as their station.
    let groups: [Int64: Int64]
    /// Category label per category and locale (`category_label`; the default locale's from `category.label`).
    let labels: [String: [String: String]]
    /// The pack's default locale.
    let defaultLocale: String

    /// Reads what the directory needs; packs written before a table existed give an empty part.
    init(db: PackConnection.Database, index: ProximityIndex, defaultLocale: String, placeLinks: String?) throws(PackError) {
        self.defaultLocale = defaultLocale
        let codes = try PlaceLookup.categoryIDs(db)
        var categories: [Int64: [String]] = [:]
        var named: Set<Int64> = []
        var importance: [Int64: Int] = [:]
        typealias P = PackSchema.POI
        typealias PN = PackSchema.POIName
        typealias PC = PackSchema.POICategory
        typealias ST = PackSchema.Stop
        let pois = try db.prepare(P.select([P.id, P.category, P.name]))
        while try pois.step() {
            let id = pois[P.id]
            categories[id] = [pois[P.category].id(codes: codes)]
            if !pois.isNull(P.name) { named.insert(id) }
        }
        if try PlaceLookup.hasTable(db, PN.table) {
            let names = try db.prepare(PackSchema.Query("SELECT DISTINCT \(PN.poi) FROM \(PN.table)", results: [PN.poi]))
            while try names.step() { named.insert(names[PN.poi]) }
        }
        let stops = try db.prepare(ST.select([ST.id, ST.locationType, ST.name]))
        while try stops.step() {
            let id = stops[ST.id]
            let type = Int64(stops[ST.locationType])
            categories[id] = [PlaceLookup.stopCategory(type)]
            if !(stops[ST.name] ?? "").isEmpty { named.insert(id) }
            if type == 1 { importance[id] = 0 } else if type == 2 { importance[id] = 2 }
        }
        if try PlaceLookup.hasTable(db, PC.table) {
            let also = try db.prepare(PC.select([PC.poi, PC.category]))
            while try also.step() { categories[also[PC.poi], default: []].append(also[PC.category].id(codes: codes)) }
        }
        var links: [Int64: Int64] = [:]
        for (poi, stop) in PackSchema.PlaceLink.decode(placeLinks ?? "") {
            links[poi] = stop
            links[stop] = poi
        }
        var pairs = links.filter { !PackSchema.isStopID($0.key) }.map { ($0.key, $0.value) }
        typealias Link = PackSchema.PlaceLink
        let sameStation = try db.prepare(Link.samePlaceAsParent)
        while try sameStation.step() { pairs.append((sameStation[Link.platform], sameStation[Link.station])) }
        groups = PackSchema.PlaceLink.groups(pairs)
        var labels: [String: [String: String]] = [:]
        typealias C = PackSchema.Category
        typealias CL = PackSchema.CategoryLabel
        let defaults = try db.prepare(C.select([C.id, C.label]))
        while try defaults.step() { labels[defaults[C.id], default: [:]][defaultLocale] = defaults[C.label] }
        if try PlaceLookup.hasTable(db, CL.table) {
            let rows = try db.prepare(CL.select([CL.category, CL.locale, CL.label]))
            while try rows.step() { labels[rows[CL.category], default: [:]][rows[CL.locale]] = rows[CL.label] }
        }
        // One index per category, from the rows of the whole index (so the same points, positions and order).
        var points: [String: [ProximityIndex.Point]] = [:]
        for row in 0..<index.count {
            let id = index.ids[row]
            for category in Set(categories[id] ?? []) {
                points[category, default: []].append(ProximityIndex.Point(id: id, lat: index.lats[row], lon: index.lons[row]))
            }
        }
        byCategory = points.mapValues { ProximityIndex($0, precision: index.precision) }
        self.named = named
        self.importance = importance
        self.links = links
        self.labels = labels
    }

    /// The label of a category for a locale: the locale, each shorter prefix of its tag, the default locale,
    /// English, then the category id with spaces (never empty).
    func label(_ category: String, locale: String?) -> String {
        let byLocale = labels[category] ?? [:]
        var chain: [String] = []
        if var tag = locale {
            while !tag.isEmpty {
                chain.append(tag)
                guard let cut = tag.lastIndex(where: { $0 == "-" || $0 == "_" }) else { break }
                tag = String(tag[..<cut])
            }
        }
        chain += [defaultLocale, "en"]
        for tag in chain { if let label = byLocale[tag], !label.isEmpty { return label } }
        let plain = category.replacingOccurrences(of: "_", with: " ")
        return plain.isEmpty ? "?" : plain
    }

    /// Listing order without a position: named places first, then by ``importance``, then by id.
    func listingKey(_ id: Int64) -> (Int, Int, Int64) {
        (named.contains(id) ? 0 : 1, importance[id] ?? 1, id)
    }

    /// Ids in the given order, one per place: an id whose place (``groups``; else itself) came earlier is left out.
    func folded(_ ids: some Sequence<Int64>) -> [Int64] {
        folded(ids, first: .max)
    }

    /// The first `count` ids of ``folded(_:)`` (all when there are fewer), reading no further than they need.
    func folded(_ ids: some Sequence<Int64>, first count: Int) -> [Int64] {
        var out: [Int64] = []
        guard count > 0 else { return out }
        var seen: Set<Int64> = []
        for id in ids where seen.insert(groups[id] ?? id).inserted {
            out.append(id)
            if out.count == count { break }
        }
        return out
    }
}
