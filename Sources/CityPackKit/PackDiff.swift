import CityPackFormat
import CityPackSQLite
import Foundation

/// What changed between two packs of a city: POIs added, removed, moved (more than ``movedThreshold`` metres),
/// renamed, recategorised or otherwise changed; the same for transit stops and lines, and for every other kind
/// of record listed in ``PackDiff/specs``.
///
/// Records are matched by a stable key (the OSM ref of a POI, `feed:stop_id` of a stop, `feed:route_id` of a
/// line), never by the pack's internal row ids, which may be renumbered between builds.
package struct PackDiff: Sendable, Codable, Equatable {
    /// A POI (or stop) that moved by at most this many metres is reported as changed, not moved.
    package static let movedThreshold = 10.0

    /// Which pack a side of the diff is.
    package struct Side: Sendable, Codable, Equatable {
        package var city: String
        package var dataVersion: Int?
        package var formatVersion: Int
    }

    /// One field's old and new value (nil when absent on that side).
    package struct FieldChange: Sendable, Codable, Equatable {
        package var field: String
        package var old: String?
        package var new: String?
        package init(field: String, old: String?, new: String?) {
            self.field = field
            self.old = old
            self.new = new
        }
    }

    /// One record that was added, removed or modified.
    package struct Change: Sendable, Codable, Equatable {
        package enum Kind: String, Sendable, Codable { case added, removed, modified }
        package var change: Kind
        /// The stable key (`n123`, `0:stop_id`, …).
        package var key: String
        /// Display name (new side, else old side).
        package var name: String?
        /// For `modified`: any of `moved`, `renamed`, `recategorised`, `changed`, in that order.
        package var aspects: [String]
        /// For `moved`: great-circle distance in metres.
        package var distanceMetres: Double?
        /// Differing fields (`modified`), or the record's fields (`added`/`removed`).
        package var fields: [FieldChange]
    }

    /// The changes of one kind of record.
    package struct Entity: Sendable, Codable, Equatable {
        /// `pois`, `stops`, `lines`, …
        package var entity: String
        /// Counts per change: `added`, `removed`, `moved`, `renamed`, `recategorised`, `changed` (a record that
        /// is both moved and renamed counts in both).
        package var counts: [String: Int]
        /// Sorted by change kind, then key.
        package var changes: [Change]
    }

    package var old: Side
    package var new: Side
    package var entities: [Entity]

    /// True when no record differs.
    package var isEmpty: Bool { entities.allSatisfy(\.changes.isEmpty) }

    /// Compares two open packs.
    /// - Throws: `PackError.closed` or `.sqlite`.
    package static func between(_ old: PackReader, _ new: PackReader) throws(PackError) -> PackDiff {
        var entities: [Entity] = []
        for spec in specs {
            let before = try old.records(spec)
            let after = try new.records(spec)
            if before == nil && after == nil { continue }
            entities.append(compare(spec, before ?? [:], after ?? [:]))
        }
        return PackDiff(old: old.diffSide, new: new.diffSide, entities: entities)
    }

    // MARK: - Record kinds

    /// How one kind of record is read and compared. Adding a kind (routes, cards, strings) is one more value in
    /// ``specs``: a query whose first `keyColumns` columns form the key, and the roles of its other columns.
    package struct Spec: Sendable {
        /// Name in the output (`pois`).
        package var entity: String
        /// Table that must exist in a pack for it to have records of this kind.
        package var table: String
        /// The query; every column but the key ones is a field named by its column name.
        package var sql: String
        package var keyColumns: Int = 1
        /// Column shown as the record's name.
        package var labelColumn: String?
        /// Latitude and longitude columns (compared by distance, not text).
        package var position: (lat: String, lon: String)?
        /// Fields whose change is a rename (a JSON-object column's sub-fields count too: `names.fr`).
        package var nameColumns: Set<String> = []
        /// Fields whose change is a recategorisation.
        package var categoryColumns: Set<String> = []
        /// Columns holding a JSON object of strings, compared member by member (`tags.opening_hours`).
        package var jsonColumns: Set<String> = []

        package init(
            entity: String, table: String, sql: String, keyColumns: Int = 1, labelColumn: String? = nil,
            position: (lat: String, lon: String)? = nil, nameColumns: Set<String> = [], categoryColumns: Set<String> = [],
            jsonColumns: Set<String> = []
        ) {
            self.entity = entity
            self.table = table
            self.sql = sql
            self.keyColumns = keyColumns
            self.labelColumn = labelColumn
            self.position = position
            self.nameColumns = nameColumns
            self.categoryColumns = categoryColumns
            self.jsonColumns = jsonColumns
        }
    }

    /// Every kind of record compared, in output order. The pack's columns come from ``PackSchema``; the `AS` names
    /// are the diff's own field names (what reports print), so they stay put when a column is renamed.
    package static let specs: [Spec] = {
        typealias P = PackSchema.POI
        typealias PN = PackSchema.POIName
        typealias ST = PackSchema.Stop
        typealias LN = PackSchema.Line
        typealias TR = PackSchema.Trip
        typealias SV = PackSchema.Service
        typealias RT = PackSchema.Route
        typealias RW = PackSchema.RouteWaypoint
        typealias CD = PackSchema.Card
        typealias SI = PackSchema.Situation
        typealias AC = PackSchema.Action
        typealias STR = PackSchema.Strings
        return [
            Spec(
                entity: "pois", table: P.table,
                sql: """
                    SELECT \(PackSchema.osmRefSQL("p.\(P.id)")) AS osm, p.\(P.name) AS name,
                      \(PackSchema.degreesSQL("p.\(P.lat)")) AS lat, \(PackSchema.degreesSQL("p.\(P.lon)")) AS lon,
                      \(PackSchema.categorySQL("p")) AS category,
                      (SELECT json_group_object(\(PN.locale), \(PN.name)) FROM (SELECT \(PN.locale), \(PN.name) FROM \(PN.table)
                         WHERE \(PN.poi) = p.\(P.id) ORDER BY \(PN.locale))) AS names,
                      p.\(P.tags) AS tags
                    FROM \(P.table) p \(PackSchema.categoryJoinSQL("p"))
                    """,
                labelColumn: "name", position: ("lat", "lon"), nameColumns: ["name", "names"],
                categoryColumns: ["category"], jsonColumns: ["names", "tags"]),
            Spec(
                entity: "stops", table: ST.table,
                sql: """
                    SELECT s.\(ST.feed) || ':' || s.\(ST.stopID) AS stop, s.\(ST.name) AS name, s.\(ST.lat) AS lat,
                      s.\(ST.lon) AS lon, s.\(ST.locationType) AS location_type, p.\(ST.stopID) AS parent
                    FROM \(ST.table) s LEFT JOIN \(ST.table) p ON p.\(ST.id) = s.\(ST.parent)
                    """,
                labelColumn: "name", position: ("lat", "lon"), nameColumns: ["name"], categoryColumns: ["location_type"]),
            Spec(
                entity: "lines", table: LN.table,
                sql: """
                    SELECT \(LN.feed) || ':' || \(LN.routeID) AS line, coalesce(\(LN.shortName), \(LN.longName)) AS label,
                      \(LN.agency) AS agency, \(LN.shortName) AS short_name, \(LN.longName) AS long_name, \(LN.type) AS type,
                      \(LN.colour) AS colour, \(LN.textColour) AS text_colour
                    FROM \(LN.table)
                    """,
                labelColumn: "label", nameColumns: ["short_name", "long_name", "label"], categoryColumns: ["type"]),
            Spec(
                entity: "trips", table: TR.table,
                sql: """
                    SELECT l.\(LN.feed) || ':' || t.\(TR.tripID) AS trip, t.\(TR.headsign) AS headsign, l.\(LN.routeID) AS line,
                      s.\(SV.serviceID) AS service, t.\(TR.direction) AS direction
                    FROM \(TR.table) t JOIN \(LN.table) l ON l.\(LN.id) = t.\(TR.line)
                      LEFT JOIN \(SV.table) s ON s.\(SV.id) = t.\(TR.service)
                    """,
                labelColumn: "headsign", nameColumns: ["headsign"], categoryColumns: ["line"]),
            Spec(
                entity: "routes", table: RT.table,
                sql: """
                    SELECT r.\(RT.id) AS route, r.\(RT.name) AS name, r.\(RT.description) AS description,
                      r.\(RT.position) AS position, r.\(RT.lengthM) AS length_m,
                      (SELECT group_concat(coalesce('poi ' || w.\(RW.poi), w.\(RW.lat) || ',' || w.\(RW.lon)), ' → ') FROM
                        (SELECT \(RW.poi), \(RW.lat), \(RW.lon) FROM \(RW.table) WHERE \(RW.route) = r.\(RT.id) ORDER BY \(RW.sequence)) w)
                        AS waypoints
                    FROM \(RT.table) r
                    """,
                labelColumn: "name", nameColumns: ["name"]),
            Spec(
                entity: "cards", table: CD.table,
                sql: """
                    SELECT \(CD.id) AS card, \(CD.title) AS title, \(CD.icon) AS icon, \(CD.position) AS position,
                      \(CD.home) AS home FROM \(CD.table)
                    """,
                labelColumn: "title", nameColumns: ["title"]),
            Spec(
                entity: "situations", table: SI.table,
                sql: """
                    SELECT s.\(SI.id) AS situation, s.\(SI.title) AS title, s.\(SI.card) AS card, s.\(SI.body) AS body,
                      s.\(SI.position) AS position,
                      (SELECT group_concat(a.\(AC.kind) || ' ' || coalesce(a.\(AC.target), '') || ' “' || a.\(AC.label) || '”', ' | ')
                        FROM (SELECT \(AC.kind), \(AC.target), \(AC.label) FROM \(AC.table) WHERE \(AC.situation) = s.\(SI.id)
                          ORDER BY \(AC.position)) a)
                        AS actions
                    FROM \(SI.table) s
                    """,
                labelColumn: "title", nameColumns: ["title"], categoryColumns: ["card"]),
            Spec(
                entity: "strings", table: STR.table,
                sql: "SELECT \(STR.key), \(STR.locale), \(STR.form), \(STR.value) AS value FROM \(STR.table)", keyColumns: 3),
        ]
    }()

    // MARK: - Comparison

    struct Record: Equatable {
        var label: String?
        var lat: Double?
        var lon: Double?
        var fields: [String: String]
    }

    static func compare(_ spec: Spec, _ before: [String: Record], _ after: [String: Record]) -> Entity {
        var changes: [Change] = []
        var counts = ["added": 0, "removed": 0, "moved": 0, "renamed": 0, "recategorised": 0, "changed": 0]
        func isName(_ field: String) -> Bool {
            spec.nameColumns.contains(field) || spec.nameColumns.contains(where: { field.hasPrefix($0 + ".") })
        }
        func isCategory(_ field: String) -> Bool { spec.categoryColumns.contains(field) }
        func listed(_ r: Record, old: Bool) -> [FieldChange] {
            var out = r.fields.sorted { $0.key < $1.key }.map { FieldChange(field: $0.key, old: old ? $0.value : nil, new: old ? nil : $0.value) }
            if let lat = r.lat, let lon = r.lon {
                let text = "\(lat),\(lon)"
                out.append(FieldChange(field: "position", old: old ? text : nil, new: old ? nil : text))
            }
            return out
        }
        for key in Set(before.keys).union(after.keys).sorted() {
            switch (before[key], after[key]) {
            case (nil, let new?):
                counts["added", default: 0] += 1
                changes.append(Change(change: .added, key: key, name: new.label, aspects: [], fields: listed(new, old: false)))
            case (let old?, nil):
                counts["removed", default: 0] += 1
                changes.append(Change(change: .removed, key: key, name: old.label, aspects: [], fields: listed(old, old: true)))
            case (let old?, let new?):
                guard old != new else { continue }
                var fields: [FieldChange] = []
                var aspects: Set<String> = []
                var distance: Double?
                if let lat0 = old.lat, let lon0 = old.lon, let lat1 = new.lat, let lon1 = new.lon {
                    if lat0 != lat1 || lon0 != lon1 {
                        let d = GreatCircle.distance(lat0, lon0, lat1, lon1)
                        aspects.insert(d > movedThreshold ? "moved" : "changed")
                        distance = d
                        fields.append(FieldChange(field: "position", old: "\(lat0),\(lon0)", new: "\(lat1),\(lon1)"))
                    }
                } else if (old.lat == nil) != (new.lat == nil) {
                    aspects.insert("changed")
                    fields.append(
                        FieldChange(
                            field: "position", old: old.lat.map { "\($0),\(old.lon ?? 0)" }, new: new.lat.map { "\($0),\(new.lon ?? 0)" }))
                }
                for field in Set(old.fields.keys).union(new.fields.keys).sorted() where old.fields[field] != new.fields[field] {
                    fields.append(FieldChange(field: field, old: old.fields[field], new: new.fields[field]))
                    aspects.insert(isName(field) ? "renamed" : isCategory(field) ? "recategorised" : "changed")
                }
                if fields.isEmpty { continue }
                let ordered = ["moved", "renamed", "recategorised", "changed"].filter { aspects.contains($0) }
                for a in ordered { counts[a, default: 0] += 1 }
                changes.append(
                    Change(
                        change: .modified, key: key, name: new.label ?? old.label, aspects: ordered,
                        distanceMetres: aspects.contains("moved") ? distance : nil, fields: fields))
            case (nil, nil): break
            }
        }
        let order: [Change.Kind: Int] = [.added: 0, .removed: 1, .modified: 2]
        changes.sort { (order[$0.change]!, $0.key) < (order[$1.change]!, $1.key) }
        return Entity(entity: spec.entity, counts: counts, changes: changes)
    }
}

extension PackReader {
    /// This pack as a side of a diff.
    var diffSide: PackDiff.Side {
        PackDiff.Side(city: meta.cityID, dataVersion: meta.dataVersion, formatVersion: Int(formatVersion))
    }

    /// The records of one kind, by key; nil when the pack has no such table.
    func records(_ spec: PackDiff.Spec) throws(PackError) -> [String: PackDiff.Record]? {
        try connection.withDatabase { db throws(PackError) in try Self.records(spec, in: db) }
    }

    private static func records(_ spec: PackDiff.Spec, in db: PackConnection.Database) throws(PackError)
        -> [String: PackDiff.Record]?
    {
        // A table the pack leaves out because it is empty (format 5) is a TEMP stand-in (`PackTables`).
        let exists = try db.scalarInt(
            "SELECT (SELECT count(*) FROM main.sqlite_master WHERE type IN ('table', 'view') AND name = '\(spec.table)') + " +
                "(SELECT count(*) FROM temp.sqlite_master WHERE type = 'table' AND name = '\(spec.table)')")
        guard exists > 0 else { return nil }
        let stmt = try db.prepare(spec.sql)
        let columns = (0..<stmt.columnCount).map { stmt.columnName($0) }
        var out: [String: PackDiff.Record] = [:]
        while try stmt.step() {
            let key = (0..<Int32(spec.keyColumns)).map { stmt.text($0) ?? "" }.joined(separator: ":")
            var record = PackDiff.Record(label: nil, lat: nil, lon: nil, fields: [:])
            for i in Int32(spec.keyColumns)..<stmt.columnCount {
                let name = columns[Int(i)]
                if stmt.isNull(i) { continue }
                if let position = spec.position, name == position.lat {
                    record.lat = stmt.double(i)
                } else if let position = spec.position, name == position.lon {
                    record.lon = stmt.double(i)
                } else if spec.jsonColumns.contains(name), let text = stmt.text(i),
                    let object = name == "tags"
                        ? PackSchema.decodeTags(text) : try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
                {
                    for (k, v) in object { record.fields["\(name).\(k)"] = v }
                } else {
                    record.fields[name] = stmt.text(i) ?? ""
                }
                if name == spec.labelColumn { record.label = stmt.text(i) }
            }
            out[key] = record
        }
        return out
    }
}
