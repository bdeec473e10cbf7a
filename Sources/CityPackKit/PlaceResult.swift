import CityPackFormat
import CityPackSupport
import Foundation

/// A point of interest or a transit stop as an app shows it: from `nearby`, `search`, `poi(id:)` or `stop(id:)`.
public struct PlaceResult: Sendable, Encodable, Hashable {
    /// What a result is.
    public enum Kind: String, Sendable, Encodable, Hashable {
        /// A POI from OSM (`poi` table).
        case poi
        /// A GTFS stop, station or entrance (`stop` table).
        case stop
    }

    /// POI id (`poi.id`: the OSM id × 4 + element kind, identical across pack versions) or stop id (`stop.id`,
    /// ≡ 3 mod 4).
    public var id: Int64
    /// POI or stop.
    public var kind: Kind
    /// OSM reference of a POI, e.g. `n123`, `w456`; for a stop the linked OSM feature's (``linkedID``), else empty.
    public var osm: String
    /// GTFS stop_id of a stop; for a POI the linked stop's (``linkedID``), else nil.
    public var stopID: String?
    /// Display name for the requested locale (default: the pack's default locale): `poi_name` for the locale, then
    /// its language, then `poi.name`, then the name of the alphabetically first locale; for a place without a name
    /// the category's label in that locale ("Toilets", "Toiletten"; ``named`` is then false). Nil only in results
    /// built by hand.
    public var name: String?
    /// Whether the place has a name of its own (false: ``name`` is its category's label).
    public var named: Bool = true
    /// The other place of a linked pair (meta `place_links`: a GTFS stop and the OSM station or platform of the same
    /// place), which searches and listings leave out as a result of its own; nil when not linked.
    public var linkedID: Int64? = nil
    /// Category id, e.g. `toilet`; for stops `transit_stop`, `transit_station` or `transit_entrance` (from the
    /// GTFS location_type).
    public var category: String
    /// Latitude in degrees (WGS 84); 0 for a stop without coordinates.
    public var lat: Double
    /// Longitude in degrees (WGS 84); 0 for a stop without coordinates.
    public var lon: Double
    /// Great-circle distance from the query point in metres; nil when the query had no position.
    public var distanceMetres: Double?
    /// Names per locale (`poi_name`).
    public var names: [String: String]
    /// Tags apps show (opening_hours, wheelchair, phone, website, …).
    public var tags: [String: String]
    /// Further categories the place is filed under besides ``category``, ascending (e.g. `["atm"]` for a bank
    /// with a cash machine); empty for most places and every stop.
    public var alsoCategories: [String]
    /// Every category the place is filed under, the main one first (``category`` then ``alsoCategories``).
    public var categories: [String] { [category] + alsoCategories }
    /// Wheelchair access (OSM `wheelchair=yes|limited|no`); nil when unknown, for stops, and in packs written before
    /// the column existed.
    public var wheelchair: PackSchema.Wheelchair? = nil
    /// Opening hours as the build parsed them from OSM `opening_hours`, in compact form (``OpeningHours/compact``;
    /// ``openingHours`` is the source value); nil when the place has none, the build could not read them, and in
    /// packs written before them.
    public var hours: String? = nil
    /// The source value of OSM `opening_hours` (`tags["opening_hours"]`), nil when none.
    public var openingHours: String? { tags["opening_hours"] }

    /// Whether the place is open at `date` in the city's time zone (``PackReader/timeZone``): `unknown` without
    /// readable hours, when they depend on a public or school holiday (the pack has no holiday calendar), or for a
    /// comment or an open end; and the next time the answer changes (nil: not within the week ahead, or a year for
    /// hours with dates).
    public func openState(at date: Date, timeZone: TimeZone) -> (state: OpenState, nextChange: Date?) {
        guard let parsed = hours.flatMap(OpeningHours.init(compact:)) else { return (.unknown, nil) }
        return parsed.state(at: date, timeZone: timeZone)
    }

    package init(
        id: Int64, osm: String, name: String?, category: String, lat: Double, lon: Double, distanceMetres: Double?,
        names: [String: String], tags: [String: String], kind: Kind = .poi, stopID: String? = nil,
        alsoCategories: [String] = []
    ) {
        self.alsoCategories = alsoCategories
        self.id = id
        self.kind = kind
        self.stopID = stopID
        self.osm = osm
        self.name = name
        self.category = category
        self.lat = lat
        self.lon = lon
        self.distanceMetres = distanceMetres
        self.names = names
        self.tags = tags
    }
}

/// The pack's `meta` table, typed.
public struct PackMeta: Sendable, Encodable, Hashable {
    /// City id, e.g. `monaco`.
    public var cityID: String
    /// City name in the default locale.
    public var cityName: String
    /// Format version recorded in `meta` (the database's `user_version` is authoritative).
    public var formatVersion: Int?
    /// Monotonic data version of the city's content.
    public var dataVersion: Int?
    /// Build time, ISO 8601 UTC.
    public var createdAt: String?
    public var defaultLocale: String?
    /// Supported locales, default first.
    public var locales: [String]
    /// Attribution the app must show (ODbL for OSM data).
    public var attribution: String?
    /// Every `meta` key and value as stored.
    public var values: [String: String]

    package init(values: [String: String]) {
        typealias Key = CityPackFormat.PackSchema.MetaKey
        self.values = values
        cityID = values[Key.cityID] ?? ""
        cityName = values[Key.cityName] ?? ""
        formatVersion = values[Key.formatVersion].flatMap { Int($0) }
        dataVersion = values[Key.dataVersion].flatMap { Int($0) }
        createdAt = values[Key.createdAt]
        defaultLocale = values[Key.defaultLocale]
        locales = (values[Key.locales] ?? "").split(separator: ",").map { String($0).trimmingSpaces() }
            .filter { !$0.isEmpty }
        attribution = values[Key.attribution]
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
