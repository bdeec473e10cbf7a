import CityPackFormat
import Foundation

/// A problem card as an app lists it (`card` table), with its title in the requested locale.
public struct CardInfo: Sendable, Codable, Hashable {
    public var id: String
    public var title: String
    /// Icon name chosen by the editors (the app maps it to a symbol); nil when none.
    public var icon: String?
    /// Listed on the home screen; false for cards reached only through `card` actions.
    public var home: Bool
    /// Display order.
    public var position: Int
}

/// A micro-situation of a card (`situation` table).
public struct SituationInfo: Sendable, Codable, Hashable {
    public var id: String
    public var card: String
    public var title: String
    /// Explanatory text; nil when none.
    public var body: String?
    public var position: Int
}

/// A concrete action of a situation (`action` table).
public struct ActionInfo: Sendable, Codable, Hashable {
    /// What tapping the action does; `target` is interpreted accordingly.
    public enum Kind: String, Sendable, Codable, Hashable {
        /// Show POIs of category `target` nearby (`nearby(lat:lon:radius:)` filtered by category).
        case nearby
        /// Call the phone number `target`.
        case call
        /// Open walking route `target` (``PackReader/route(id:locale:)``).
        case route
        /// Show departures of GTFS stop `target` (``PackReader/departures(stop:date:seconds:limit:)``-style).
        case departures
        /// Show ``ActionInfo/text``.
        case text
        /// Open card `target`.
        case card
        /// Open situation `target`.
        case situation
    }

    public var id: String
    public var situation: String
    public var kind: Kind
    /// Category id, phone number, route id, stop id, card id or situation id; nil for `text`.
    public var target: String?
    public var label: String
    /// Text of `text` actions; nil otherwise.
    public var text: String?
    public var position: Int
}

/// One waypoint of a walking route (`route_waypoint` table).
public struct RouteWaypointInfo: Sendable, Codable, Hashable {
    public var sequence: Int
    /// POI id (``PlaceResult/id``) or nil for a free point.
    public var poi: Int64?
    /// Degrees, WGS 84.
    public var lat: Double
    public var lon: Double
    /// Alert radius in metres (default 25).
    public var radius: Double
    /// The editors' name for the waypoint, else the POI's name in the locale; nil when neither exists.
    public var name: String?
}

/// A curated walking route (`route` table) with its waypoints in order.
public struct WalkingRouteInfo: Sendable, Codable, Hashable {
    public var id: String
    public var name: String
    public var description: String?
    /// Sum of great-circle legs, metres.
    public var lengthMetres: Double
    /// Map region to focus: the waypoints' box with 20 % padding, at least 0.01° per axis.
    public var region: RouteGeometry.Region
    public var position: Int
    /// Ordered by sequence; empty in ``PackReader/routes(locale:)`` (use ``PackReader/route(id:locale:)``).
    public var waypoints: [RouteWaypointInfo]
}

/// A UI string of the pack (`string` table): a message, or plural forms keyed by CLDR category. Placeholders
/// are in copy syntax (`{city}`, `{count}`; `{{` and `}}` are literal braces).
///
/// Encoded as JSON the way the web copy files are: a string, or an object of plural forms.
public enum LocalizedString: Sendable, Codable, Hashable {
    case text(String)
    case plural([String: String])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .plural(try container.decode([String: String].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .plural(let forms): try container.encode(forms)
        }
    }
}

extension PackReader {
    /// Cards in display order, titles in `locale` (then its language, then the pack's default locale).
    /// - Parameter homeOnly: only cards listed on the home screen.
    /// - Returns: `[]` for packs without editorial content.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func cards(locale: String? = nil, homeOnly: Bool = false) throws(PackError) -> [CardInfo] {
        try withEditorial("card") { db throws(PackError) in
            let stmt = try db.prepare("SELECT id, title, icon, home, position FROM card ORDER BY position, id")
            var out: [CardInfo] = []
            while try stmt.step() {
                let home = stmt.int64(3) != 0
                if homeOnly && !home { continue }
                out.append(CardInfo(
                    id: stmt.text(0) ?? "", title: pick(stmt.text(1), locale) ?? "", icon: stmt.text(2), home: home,
                    position: Int(stmt.int64(4))))
            }
            return out
        }
    }

    /// Situations of a card in display order.
    public func situations(card: String, locale: String? = nil) throws(PackError) -> [SituationInfo] {
        try withEditorial("situation") { db throws(PackError) in
            let stmt = try db.prepare("SELECT id, card, title, body, position FROM situation WHERE card = ?1 ORDER BY position, id")
            stmt.bind(1, card)
            var out: [SituationInfo] = []
            while try stmt.step() {
                out.append(SituationInfo(
                    id: stmt.text(0) ?? "", card: stmt.text(1) ?? "", title: pick(stmt.text(2), locale) ?? "",
                    body: pick(stmt.text(3), locale), position: Int(stmt.int64(4))))
            }
            return out
        }
    }

    /// Actions of a situation in display order. Actions of an unknown kind (from a newer writer) are skipped.
    public func actions(situation: String, locale: String? = nil) throws(PackError) -> [ActionInfo] {
        try withEditorial("action") { db throws(PackError) in
            let stmt = try db.prepare(
                "SELECT id, situation, kind, target, label, text, position FROM action WHERE situation = ?1 ORDER BY position, id")
            stmt.bind(1, situation)
            var out: [ActionInfo] = []
            while try stmt.step() {
                guard let kind = ActionInfo.Kind(rawValue: stmt.text(2) ?? "") else { continue }
                out.append(ActionInfo(
                    id: stmt.text(0) ?? "", situation: stmt.text(1) ?? "", kind: kind, target: stmt.text(3),
                    label: pick(stmt.text(4), locale) ?? "", text: pick(stmt.text(5), locale), position: Int(stmt.int64(6))))
            }
            return out
        }
    }

    /// Every walking route in display order, without waypoints.
    public func routes(locale: String? = nil) throws(PackError) -> [WalkingRouteInfo] {
        try withEditorial("route") { db throws(PackError) in
            let stmt = try db.prepare(
                "SELECT id, name, description, length_m, min_lon, min_lat, max_lon, max_lat, position FROM route ORDER BY position, id")
            var out: [WalkingRouteInfo] = []
            while try stmt.step() { out.append(routeRow(stmt, locale: locale)) }
            return out
        }
    }

    /// One walking route with its waypoints in sequence order and its map region; nil when absent.
    public func route(id: String, locale: String? = nil) throws(PackError) -> WalkingRouteInfo? {
        let found: WalkingRouteInfo?? = try withEditorial("route") { db throws(PackError) -> WalkingRouteInfo?? in
            let stmt = try db.prepare(
                "SELECT id, name, description, length_m, min_lon, min_lat, max_lon, max_lat, position FROM route WHERE id = ?1")
            stmt.bind(1, id)
            guard try stmt.step() else { return .some(nil) }
            var route = routeRow(stmt, locale: locale)
            let points = try db.prepare(
                "SELECT w.sequence, w.poi, w.lat, w.lon, w.radius, w.name, p.name FROM route_waypoint w "
                    + "LEFT JOIN poi p ON p.id = w.poi WHERE w.route = ?1 ORDER BY w.sequence")
            points.bind(1, id)
            while try points.step() {
                let poi: Int64? = points.isNull(1) ? nil : points.int64(1)
                var name = pick(points.text(5), locale)
                if name == nil, let poi, let place = try detailsLocked(poi) {
                    name = Self.result(poi, place, locale: locale, distance: nil).name
                }
                route.waypoints.append(RouteWaypointInfo(
                    sequence: Int(points.int64(0)), poi: poi, lat: points.double(2), lon: points.double(3),
                    radius: points.double(4), name: name))
            }
            return .some(route)
        }
        return found ?? nil
    }

    /// Every UI string of a locale (falling back to its language, then the default locale, per key).
    public func strings(locale: String) throws(PackError) -> [String: LocalizedString] {
        try withEditorial("string") { db throws(PackError) in
            let chain = localeChain(locale)
            let stmt = try db.prepare("SELECT key, locale, form, value FROM string ORDER BY key, locale, form")
            var byLocale: [String: [String: LocalizedString]] = [:]
            while try stmt.step() {
                let key = stmt.text(0) ?? "", loc = stmt.text(1) ?? "", form = stmt.text(2) ?? "", value = stmt.text(3) ?? ""
                guard chain.contains(loc) else { continue }
                if form.isEmpty {
                    byLocale[loc, default: [:]][key] = .text(value)
                } else if case .plural(var forms)? = byLocale[loc]?[key] {
                    forms[form] = value
                    byLocale[loc]![key] = .plural(forms)
                } else {
                    byLocale[loc, default: [:]][key] = .plural([form: value])
                }
            }
            var out: [String: LocalizedString] = [:]
            for loc in chain.reversed() { out.merge(byLocale[loc] ?? [:]) { _, new in new } }
            return out
        }
    }

    /// One UI string in a locale (with the same fallbacks as ``strings(locale:)``); nil when the key is unknown.
    public func string(key: String, locale: String) throws(PackError) -> LocalizedString? {
        try withEditorial("string") { db throws(PackError) -> LocalizedString?? in
            let stmt = try db.prepare("SELECT form, value FROM string WHERE key = ?1 AND locale = ?2 ORDER BY form")
            for loc in localeChain(locale) {
                stmt.reset()
                stmt.bind(1, key)
                stmt.bind(2, loc)
                var forms: [String: String] = [:]
                var text: String?
                while try stmt.step() {
                    let form = stmt.text(0) ?? ""
                    if form.isEmpty { text = stmt.text(1) ?? "" } else { forms[form] = stmt.text(1) ?? "" }
                }
                if let text { return .some(.text(text)) }
                if !forms.isEmpty { return .some(.plural(forms)) }
            }
            return .some(nil)
        } ?? nil
    }

    // MARK: - Helpers (called with the lock held)

    /// Runs `body` under the lock when the pack has `table`; packs written before editorial content give `[]`/nil.
    func withEditorial<T: EditorialDefault>(_ table: String, _ body: (SQLiteDatabase) throws(PackError) -> T) throws(PackError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let db = database else { throw PackError.closed }
        let check = try db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1")
        check.bind(1, table)
        guard try check.step(), check.int64(0) > 0 else { return T.empty }
        return try body(db)
    }

    func routeRow(_ stmt: SQLiteStatement, locale: String?) -> WalkingRouteInfo {
        WalkingRouteInfo(
            id: stmt.text(0) ?? "", name: pick(stmt.text(1), locale) ?? "", description: pick(stmt.text(2), locale),
            lengthMetres: stmt.double(3),
            region: RouteGeometry.Region(minLon: stmt.double(4), minLat: stmt.double(5), maxLon: stmt.double(6), maxLat: stmt.double(7)),
            position: Int(stmt.int64(8)), waypoints: [])
    }

    /// `de-AT` → [`de-AT`, `de`, default locale].
    func localeChain(_ locale: String?) -> [String] {
        var chain: [String] = []
        if let locale {
            chain.append(locale)
            let language = String(locale.prefix { $0 != "-" && $0 != "_" })
            if language != locale { chain.append(language) }
        }
        let fallback = meta.values[PackSchema.MetaKey.defaultLocale] ?? "en"
        if !chain.contains(fallback) { chain.append(fallback) }
        return chain
    }

    /// The text for a locale from a `{"<locale>": "<text>"}` column.
    func pick(_ json: String?, _ locale: String?) -> String? {
        guard let json, let map = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)), !map.isEmpty
        else { return nil }
        for loc in localeChain(locale) { if let text = map[loc] { return text } }
        return map.sorted { $0.key < $1.key }.first?.value
    }
}

/// What an editorial query returns for a pack without the table.
protocol EditorialDefault { static var empty: Self { get } }
extension Array: EditorialDefault { static var empty: [Element] { [] } }
extension Dictionary: EditorialDefault { static var empty: [Key: Value] { [:] } }
extension Optional: EditorialDefault { static var empty: Wrapped? { nil } }
