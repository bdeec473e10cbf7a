import CityPackFormat
import CityPackSQLite
import Foundation

/// The editorial side of a pack: problem cards, their situations and actions, curated walking routes and the UI
/// strings, with texts in the requested locale (then its language, then the pack's default locale).
///
/// Reached through ``PackReader/editorial``; shares the reader's database and lock, so it is `Sendable` and its
/// calls are serialised with the reader's. Packs written before editorial content give `[]` or nil. Statements are
/// prepared on first use and released when the reader closes.
public final class EditorialReader: @unchecked Sendable {
    private let connection: PackConnection
    private let places: PlaceLookup
    /// The pack's default locale, the last fallback of every text.
    private let defaultLocale: String
    /// Whether the pack has each editorial table, learnt on first use.
    private var tables: [String: Bool] = [:]
    /// Prepared statements by SQL text.
    private var statements: [String: PackConnection.Rows] = [:]

    init(connection: PackConnection, places: PlaceLookup, defaultLocale: String) {
        self.connection = connection
        self.places = places
        self.defaultLocale = defaultLocale
    }

    /// Drops the prepared statements (the reader is closing; its lock is held).
    func release() { statements = [:] }

    private typealias CD = PackSchema.Card
    private typealias SI = PackSchema.Situation
    private typealias AC = PackSchema.Action
    private typealias RT = PackSchema.Route
    private typealias RW = PackSchema.RouteWaypoint
    private typealias STR = PackSchema.Strings
    private typealias P = PackSchema.POI
    /// The columns ``routeRow(_:locale:)`` reads.
    private static let routeColumns: [any PackSchema.AnyColumn] =
        [RT.id, RT.name, RT.description, RT.lengthM, RT.minLon, RT.minLat, RT.maxLon, RT.maxLat, RT.position]
    /// A waypoint's POI name (`p.name` of the LEFT JOIN).
    private static let waypointPOIName = PackSchema.Column<String?>.expression(P.qualified(P.name))

    /// Cards in display order, titles in `locale`.
    /// - Parameters:
    ///   - locale: Locale of the titles (BCP 47); nil = the default locale.
    ///   - homeOnly: Only cards listed on the home screen.
    /// - Returns: `[]` for packs without editorial content.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func cards(locale: String? = nil, homeOnly: Bool = false) throws(PackError) -> [CardInfo] {
        let sql = CD.select([CD.id, CD.title, CD.icon, CD.home, CD.position], orderBy: [CD.position, CD.id])
        return try query(CD.table, sql) { stmt, _ throws(PackError) in
            var out: [CardInfo] = []
            while try stmt.step() {
                let home = stmt[CD.home]
                if homeOnly && !home { continue }
                out.append(CardInfo(
                    id: stmt[CD.id], title: pick(stmt[CD.title], locale) ?? "", icon: stmt[CD.icon], home: home,
                    position: stmt[CD.position]))
            }
            return out
        }
    }

    /// Situations of a card in display order.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func situations(card: String, locale: String? = nil) throws(PackError) -> [SituationInfo] {
        let sql = SI.select([SI.id, SI.card, SI.title, SI.body, SI.position], where: [SI.card], orderBy: [SI.position, SI.id])
        return try query(SI.table, sql, binding: (SI.card, card)) { stmt, _ throws(PackError) in
            var out: [SituationInfo] = []
            while try stmt.step() {
                out.append(SituationInfo(
                    id: stmt[SI.id], card: stmt[SI.card], title: pick(stmt[SI.title], locale) ?? "",
                    body: pick(stmt[SI.body], locale), position: stmt[SI.position]))
            }
            return out
        }
    }

    /// Actions of a situation in display order. Actions of an unknown kind (from a newer writer) are skipped.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func actions(situation: String, locale: String? = nil) throws(PackError) -> [ActionInfo] {
        let sql = AC.select(
            [AC.id, AC.situation, AC.kind, AC.target, AC.label, AC.text, AC.position], where: [AC.situation], orderBy: [AC.position, AC.id])
        return try query(AC.table, sql, binding: (AC.situation, situation)) { stmt, _ throws(PackError) in
            var out: [ActionInfo] = []
            while try stmt.step() {
                guard let kind = ActionKind(rawValue: stmt[AC.kind]) else { continue }
                out.append(ActionInfo(
                    id: stmt[AC.id], situation: stmt[AC.situation], kind: kind, target: stmt[AC.target],
                    label: pick(stmt[AC.label], locale) ?? "", text: pick(stmt[AC.text], locale), position: stmt[AC.position]))
            }
            return out
        }
    }

    /// Every walking route in display order, without waypoints.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func routes(locale: String? = nil) throws(PackError) -> [WalkingRouteInfo] {
        let sql = RT.select(Self.routeColumns, orderBy: [RT.position, RT.id])
        return try query(RT.table, sql) { stmt, _ throws(PackError) in
            var out: [WalkingRouteInfo] = []
            while try stmt.step() { out.append(routeRow(stmt, locale: locale)) }
            return out
        }
    }

    /// One walking route with its waypoints in sequence order and its map region; nil when absent. A waypoint
    /// without a name of its own takes its POI's name in the locale.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func route(id: String, locale: String? = nil) throws(PackError) -> WalkingRouteInfo? {
        let found: WalkingRouteInfo?? = try query(
            RT.table, RT.select(Self.routeColumns, where: [RT.id]), binding: (RT.id, id)
        ) { stmt, db throws(PackError) -> WalkingRouteInfo?? in
            guard try stmt.step() else { return .some(nil) }
            var route = routeRow(stmt, locale: locale)
            let points = try statement(PackSchema.Query(
                "SELECT \(RW.qualified([RW.sequence, RW.poi, RW.lat, RW.lon, RW.radius, RW.name])), \(Self.waypointPOIName) "
                    + "FROM \(RW.aliased) LEFT JOIN \(P.aliased) ON \(P.qualified(P.id)) = \(RW.qualified(RW.poi)) "
                    + "WHERE \(RW.qualified(RW.route)) = ?1 ORDER BY \(RW.qualified(RW.sequence))",
                results: [RW.sequence, RW.poi, RW.lat, RW.lon, RW.radius, RW.name, Self.waypointPOIName], parameters: [RW.route]), db)
            points.reset()
            points.bind(RW.route, id)
            defer { points.reset() }
            while try points.step() {
                let poi = points[RW.poi]
                var name = pick(points[RW.name], locale)
                if name == nil, let poi { name = try places.result(poi, locale: locale)?.name }
                route.waypoints.append(RouteWaypointInfo(
                    sequence: points[RW.sequence], poi: poi, lat: points[RW.lat], lon: points[RW.lon],
                    radius: points[RW.radius], name: name))
            }
            return .some(route)
        }
        return found ?? nil
    }

    /// Every UI string of a locale (falling back to its language, then the default locale, per key).
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func strings(locale: String) throws(PackError) -> [String: LocalizedString] {
        let sql = STR.select([STR.key, STR.locale, STR.form, STR.value], orderBy: [STR.key, STR.locale, STR.form])
        return try query(STR.table, sql) { stmt, _ throws(PackError) in
            let chain = localeChain(locale)
            var byLocale: [String: [String: LocalizedString]] = [:]
            while try stmt.step() {
                let key = stmt[STR.key], loc = stmt[STR.locale], form = stmt[STR.form], value = stmt[STR.value]
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
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func string(key: String, locale: String) throws(PackError) -> LocalizedString? {
        let sql = STR.select([STR.form, STR.value], where: [STR.key, STR.locale], orderBy: [STR.form])
        let found: LocalizedString?? = try query(STR.table, sql) { stmt, _ throws(PackError) -> LocalizedString?? in
            for loc in localeChain(locale) {
                stmt.reset()
                stmt.bind(STR.key, key)
                stmt.bind(STR.locale, loc)
                var forms: [String: String] = [:]
                var text: String?
                while try stmt.step() {
                    let form = stmt[STR.form]
                    if form.isEmpty { text = stmt[STR.value] } else { forms[form] = stmt[STR.value] }
                }
                if let text { return .some(.text(text)) }
                if !forms.isEmpty { return .some(.plural(forms)) }
            }
            return .some(nil)
        }
        return found ?? nil
    }

    // MARK: - Helpers

    /// Runs `body` under the lock with the statement for `sql` (reset, `binding` bound when given) when the pack
    /// has `table`; packs without it give the type's empty value.
    private func query<Value: EditorialDefault>(
        _ table: String, _ sql: PackSchema.Query, binding: (PackSchema.Column<String>, String)? = nil,
        _ body: (PackConnection.Rows, PackConnection.Database) throws(PackError) -> Value
    ) throws(PackError) -> Value {
        try connection.withDatabase { db throws(PackError) in
            guard try hasTable(table, db) else { return Value.empty }
            let stmt = try statement(sql, db)
            stmt.reset()
            if let binding { stmt.bind(binding.0, binding.1) }
            defer { stmt.reset() }
            return try body(stmt, db)
        }
    }

    /// The prepared statement for `sql`, prepared on first use (lock held).
    private func statement(_ query: PackSchema.Query, _ db: PackConnection.Database) throws(PackError) -> PackConnection.Rows {
        if let prepared = statements[query.sql] { return prepared }
        let prepared = try db.prepare(query, persistent: true)
        statements[query.sql] = prepared
        return prepared
    }

    private func hasTable(_ table: String, _ db: PackConnection.Database) throws(PackError) -> Bool {
        if let known = tables[table] { return known }
        let check = try db.prepare(PackSchema.tableCount)
        check.bind(PackSchema.tableName, table)
        let exists = try check.step() && check[PackSchema.count] > 0
        tables[table] = exists
        return exists
    }

    private func routeRow(_ stmt: PackConnection.Rows, locale: String?) -> WalkingRouteInfo {
        WalkingRouteInfo(
            id: stmt[RT.id], name: pick(stmt[RT.name], locale) ?? "", description: pick(stmt[RT.description], locale),
            lengthMetres: stmt[RT.lengthM],
            region: BoundingBox(minLon: stmt[RT.minLon], minLat: stmt[RT.minLat], maxLon: stmt[RT.maxLon], maxLat: stmt[RT.maxLat]),
            position: stmt[RT.position], waypoints: [])
    }

    /// `de-AT` → [`de-AT`, `de`, default locale].
    private func localeChain(_ locale: String?) -> [String] {
        var chain: [String] = []
        if let locale {
            chain.append(locale)
            let language = String(locale.prefix { $0 != "-" && $0 != "_" })
            if language != locale { chain.append(language) }
        }
        if !chain.contains(defaultLocale) { chain.append(defaultLocale) }
        return chain
    }

    /// The text for a locale from a `{"<locale>": "<text>"}` column.
    private func pick(_ json: String?, _ locale: String?) -> String? {
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
