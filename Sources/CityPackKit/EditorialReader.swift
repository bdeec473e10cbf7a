import CityPackFormat
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
    private var statements: [String: PackConnection.Statement] = [:]

    init(connection: PackConnection, places: PlaceLookup, defaultLocale: String) {
        self.connection = connection
        self.places = places
        self.defaultLocale = defaultLocale
    }

    /// Drops the prepared statements (the reader is closing; its lock is held).
    func release() { statements = [:] }

    private typealias C = PackSchema.Card
    private typealias S = PackSchema.Situation
    private typealias A = PackSchema.Action
    private typealias R = PackSchema.Route
    private typealias W = PackSchema.RouteWaypoint
    private typealias U = PackSchema.Strings
    private typealias P = PackSchema.POI
    /// The columns ``routeRow(_:locale:)`` reads, in its order.
    private static let routeColumns = PackSchema.list(
        [R.id, R.name, R.description, R.lengthM, R.minLon, R.minLat, R.maxLon, R.maxLat, R.position])

    /// Cards in display order, titles in `locale`.
    /// - Parameters:
    ///   - locale: Locale of the titles (BCP 47); nil = the default locale.
    ///   - homeOnly: Only cards listed on the home screen.
    /// - Returns: `[]` for packs without editorial content.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func cards(locale: String? = nil, homeOnly: Bool = false) throws(PackError) -> [CardInfo] {
        let sql = "SELECT \(C.id), \(C.title), \(C.icon), \(C.home), \(C.position) FROM \(C.table) "
            + "ORDER BY \(C.position), \(C.id)"
        return try query(C.table, sql) { stmt, _ throws(PackError) in
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
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func situations(card: String, locale: String? = nil) throws(PackError) -> [SituationInfo] {
        let sql = "SELECT \(S.id), \(S.card), \(S.title), \(S.body), \(S.position) FROM \(S.table) WHERE \(S.card) = ?1 "
            + "ORDER BY \(S.position), \(S.id)"
        return try query(S.table, sql, binding: card) { stmt, _ throws(PackError) in
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
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func actions(situation: String, locale: String? = nil) throws(PackError) -> [ActionInfo] {
        let sql = "SELECT \(PackSchema.list([A.id, A.situation, A.kind, A.target, A.label, A.text, A.position])) FROM \(A.table) "
            + "WHERE \(A.situation) = ?1 ORDER BY \(A.position), \(A.id)"
        return try query(A.table, sql, binding: situation) { stmt, _ throws(PackError) in
            var out: [ActionInfo] = []
            while try stmt.step() {
                guard let kind = ActionKind(rawValue: stmt.text(2) ?? "") else { continue }
                out.append(ActionInfo(
                    id: stmt.text(0) ?? "", situation: stmt.text(1) ?? "", kind: kind, target: stmt.text(3),
                    label: pick(stmt.text(4), locale) ?? "", text: pick(stmt.text(5), locale), position: Int(stmt.int64(6))))
            }
            return out
        }
    }

    /// Every walking route in display order, without waypoints.
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func routes(locale: String? = nil) throws(PackError) -> [WalkingRouteInfo] {
        let sql = "SELECT \(Self.routeColumns) FROM \(R.table) ORDER BY \(R.position), \(R.id)"
        return try query(R.table, sql) { stmt, _ throws(PackError) in
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
            R.table, "SELECT \(Self.routeColumns) FROM \(R.table) WHERE \(R.id) = ?1", binding: id
        ) { stmt, db throws(PackError) -> WalkingRouteInfo?? in
            guard try stmt.step() else { return .some(nil) }
            var route = routeRow(stmt, locale: locale)
            let points = try statement(
                "SELECT w.\(W.sequence), w.\(W.poi), w.\(W.lat), w.\(W.lon), w.\(W.radius), w.\(W.name), p.\(P.name) "
                    + "FROM \(W.table) w LEFT JOIN \(P.table) p ON p.\(P.id) = w.\(W.poi) WHERE w.\(W.route) = ?1 "
                    + "ORDER BY w.\(W.sequence)", db)
            points.reset()
            points.bind(1, id)
            defer { points.reset() }
            while try points.step() {
                let poi: Int64? = points.isNull(1) ? nil : points.int64(1)
                var name = pick(points.text(5), locale)
                if name == nil, let poi { name = try places.result(poi, locale: locale)?.name }
                route.waypoints.append(RouteWaypointInfo(
                    sequence: Int(points.int64(0)), poi: poi, lat: points.double(2), lon: points.double(3),
                    radius: points.double(4), name: name))
            }
            return .some(route)
        }
        return found ?? nil
    }

    /// Every UI string of a locale (falling back to its language, then the default locale, per key).
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func strings(locale: String) throws(PackError) -> [String: LocalizedString] {
        let sql = "SELECT \(U.key), \(U.locale), \(U.form), \(U.value) FROM \(U.table) ORDER BY \(U.key), \(U.locale), \(U.form)"
        return try query(U.table, sql) { stmt, _ throws(PackError) in
            let chain = localeChain(locale)
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
    /// - Throws: `PackError.closed`, `.sqlite`.
    public func string(key: String, locale: String) throws(PackError) -> LocalizedString? {
        let sql = "SELECT \(U.form), \(U.value) FROM \(U.table) WHERE \(U.key) = ?1 AND \(U.locale) = ?2 ORDER BY \(U.form)"
        let found: LocalizedString?? = try query(U.table, sql) { stmt, _ throws(PackError) -> LocalizedString?? in
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
        }
        return found ?? nil
    }

    // MARK: - Helpers

    /// Runs `body` under the lock with the statement for `sql` (reset, `binding` bound to `?1` when given) when
    /// the pack has `table`; packs without it give the type's empty value.
    private func query<Value: EditorialDefault>(
        _ table: String, _ sql: String, binding: String? = nil,
        _ body: (PackConnection.Statement, PackConnection.Database) throws(PackError) -> Value
    ) throws(PackError) -> Value {
        try connection.withDatabase { db throws(PackError) in
            guard try hasTable(table, db) else { return Value.empty }
            let stmt = try statement(sql, db)
            stmt.reset()
            if let binding { stmt.bind(1, binding) }
            defer { stmt.reset() }
            return try body(stmt, db)
        }
    }

    /// The prepared statement for `sql`, prepared on first use (lock held).
    private func statement(_ sql: String, _ db: PackConnection.Database) throws(PackError) -> PackConnection.Statement {
        if let prepared = statements[sql] { return prepared }
        let prepared = try db.prepare(sql, persistent: true)
        statements[sql] = prepared
        return prepared
    }

    private func hasTable(_ table: String, _ db: PackConnection.Database) throws(PackError) -> Bool {
        if let known = tables[table] { return known }
        let check = try db.prepare(PackSchema.tableCountQuery)
        check.bind(1, table)
        let exists = try check.step() && check.int64(0) > 0
        tables[table] = exists
        return exists
    }

    private func routeRow(_ stmt: PackConnection.Statement, locale: String?) -> WalkingRouteInfo {
        WalkingRouteInfo(
            id: stmt.text(0) ?? "", name: pick(stmt.text(1), locale) ?? "", description: pick(stmt.text(2), locale),
            lengthMetres: stmt.double(3),
            region: BoundingBox(minLon: stmt.double(4), minLat: stmt.double(5), maxLon: stmt.double(6), maxLat: stmt.double(7)),
            position: Int(stmt.int64(8)), waypoints: [])
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
