import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// Primary keys of the tables kept as text (``GTFSFeed/extraTables``).
    static let extraKeys: [(table: String, columns: [String])] = [
        ("attributions", ["attribution_id"]),
        ("fare_attributes", ["fare_id"]),
        ("fare_rules", ["fare_id", "route_id", "origin_id", "destination_id", "contains_id"]),
        ("fare_media", ["fare_media_id"]),
        ("fare_containers", ["fare_media_id"]),
        ("fare_products", ["fare_product_id", "rider_category_id", "fare_media_id"]),
        ("fare_transfer_rules",
            ["from_leg_group_id", "to_leg_group_id", "fare_product_id", "transfer_count", "duration_limit"]),
        ("rider_categories", ["rider_category_id"]),
        ("areas", ["area_id"]),
        ("stop_areas", ["area_id", "stop_id"]),
        ("networks", ["network_id"]),
        ("route_networks", ["route_id"]),
        ("levels", ["level_id"]),
        ("pathways", ["pathway_id"]),
    ]

    /// References from the tables kept as text: (table, column) → the ID sets it may point into.
    /// Targets are written `table.column`; several targets mean "any of them".
    static let extraReferences: [(table: String, column: String, targets: [String])] = [
        ("attributions", "agency_id", ["agency.agency_id"]),
        ("attributions", "route_id", ["routes.route_id"]),
        ("attributions", "trip_id", ["trips.trip_id"]),
        ("fare_attributes", "agency_id", ["agency.agency_id"]),
        ("fare_rules", "fare_id", ["fare_attributes.fare_id"]),
        ("fare_rules", "route_id", ["routes.route_id"]),
        ("fare_rules", "origin_id", ["stops.zone_id"]),
        ("fare_rules", "destination_id", ["stops.zone_id"]),
        ("fare_rules", "contains_id", ["stops.zone_id"]),
        ("fare_products", "rider_category_id", ["rider_categories.rider_category_id"]),
        ("fare_products", "fare_media_id", ["fare_media.fare_media_id", "fare_containers.fare_media_id"]),
        ("fare_leg_rules", "network_id", ["networks.network_id", "routes.network_id"]),
        ("fare_leg_rules", "from_area_id", ["areas.area_id"]),
        ("fare_leg_rules", "to_area_id", ["areas.area_id"]),
        ("fare_leg_rules", "fare_product_id", ["fare_products.fare_product_id"]),
        ("fare_transfer_rules", "from_leg_group_id", ["fare_leg_rules.leg_group_id"]),
        ("fare_transfer_rules", "to_leg_group_id", ["fare_leg_rules.leg_group_id"]),
        ("fare_transfer_rules", "fare_product_id", ["fare_products.fare_product_id"]),
        ("fare_transfer_rules", "filter_fare_product_id", ["fare_products.fare_product_id"]),
        ("route_networks", "network_id", ["networks.network_id"]),
        ("route_networks", "route_id", ["routes.route_id"]),
        ("stop_areas", "area_id", ["areas.area_id"]),
        ("stop_areas", "stop_id", ["stops.stop_id"]),
        ("pathways", "from_stop_id", ["stops.stop_id"]),
        ("pathways", "to_stop_id", ["stops.stop_id"]),
    ]

    /// The tables kept as text (fares, attributions, networks, areas, levels, pathways): keys, references, and
    /// agency_id of fares when the feed has several agencies.
    static func checkOtherTables(_ c: GTFSValidationContext) {
        let tables = c.feed.extraTables
        for (table, columns) in extraKeys {
            guard let t = tables[table] else { continue }
            let indices = columns.map { t.column($0) }
            guard indices.contains(where: { $0 != nil }) else { continue }
            let field = columns.count == 1 ? columns[0] : "(\(columns.joined(separator: ", ")))"
            DuplicateKeyRule.check(
                t.rows.indices.lazy.map { r in
                    (key: indices.map { i in i.flatMap { t.rows[r][$0] } ?? "" }.joined(separator: ", "),
                        line: t.lines[r])
                }, table: table, field: field, c)
        }
        var sets: [String: Set<String>] = [:]
        func ids(_ target: String) -> Set<String> {
            if let s = sets[target] { return s }
            let parts = target.split(separator: ".").map(String.init)
            var s: Set<String>
            switch target {
            case "agency.agency_id": s = c.agencyIDs
            case "routes.route_id": s = Set(c.routeByID.keys)
            case "trips.trip_id": s = Set(c.tripByID.keys)
            case "stops.stop_id": s = Set(c.stopByID.keys)
            case "stops.zone_id": s = Set(c.feed.stops.compactMap(\.zoneID))
            case "routes.network_id": s = Set(c.feed.routes.compactMap(\.networkID))
            default:
                s = []
                if let t = tables[parts[0]], let col = t.column(parts[1]) {
                    for row in t.rows { if let v = row[col] { s.insert(v) } }
                }
            }
            sets[target] = s
            return s
        }
        for (table, column, targets) in extraReferences {
            guard let t = tables[table], let col = t.column(column) else { continue }
            guard targets.contains(where: { c.canResolve(String($0.prefix { $0 != "." })) }) else { continue }
            let valid = targets.reduce(into: Set<String>()) { $0.formUnion(ids($1)) }
            let names = targets.map { $0.replacingOccurrences(of: ".", with: ".txt ") }.joined(separator: " or ")
            for (r, row) in t.rows.enumerated() {
                ForeignKeyViolationRule.checkTextTable(row[col], in: valid, targets: names, table: table,
                    line: t.lines[r], column: column, c)
            }
        }
        MissingAgencyIDRule.checkFareAttributes(c)
    }
}
