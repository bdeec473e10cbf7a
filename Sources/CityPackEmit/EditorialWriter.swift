import CityPackFormat
import CityPackModel
import CityPackSupport
import Foundation

/// Writes the editorial tables (`card`, `situation`, `action`, `route`, `route_waypoint`) and the UI copy
/// (`string`) of ``PackSchema`` inside the pack writer's transaction, in a fixed order (file order for
/// positions, ids and keys sorted), so the same input gives the same rows.
enum EditorialWriter {
    static func write(_ content: EditorialContent, copy: CopyTable?, city: City, db: PackWriter.Database) throws(EmitError) {
        let locales = city.locales
        let fallback = city.defaultLocale
        func text(_ t: LocalizedText) -> String? { t.isEmpty ? nil : localizedJSON(t, locales: locales, fallback: fallback) }

        // Parameters are bound in each table's column order (``PackSchema/TableSchema/insert(or:)``).
        let cardInsert = try db.prepare(PackSchema.Card.insert())
        for card in content.cards.sorted(by: { $0.id < $1.id }) {
            cardInsert.bind(1, card.id)
            cardInsert.bind(2, card.position)
            cardInsert.bind(3, card.icon)
            cardInsert.bind(4, card.home ? 1 : 0)
            cardInsert.bind(5, text(card.title) ?? "{}")
            try cardInsert.run()
        }
        let situationInsert = try db.prepare(PackSchema.Situation.insert())
        for s in content.situations.sorted(by: { $0.id < $1.id }) {
            situationInsert.bind(1, s.id)
            situationInsert.bind(2, s.card)
            situationInsert.bind(3, s.position)
            situationInsert.bind(4, text(s.title) ?? "{}")
            situationInsert.bind(5, text(s.body))
            try situationInsert.run()
        }
        let actionInsert = try db.prepare(PackSchema.Action.insert())
        for a in content.actions.sorted(by: { $0.id < $1.id }) {
            actionInsert.bind(1, a.id)
            actionInsert.bind(2, a.situation)
            actionInsert.bind(3, a.position)
            actionInsert.bind(4, a.kind.rawValue)
            actionInsert.bind(5, a.target.isEmpty ? nil : a.target)
            actionInsert.bind(6, text(a.label) ?? "{}")
            actionInsert.bind(7, text(a.text))
            try actionInsert.run()
        }
        let routeInsert = try db.prepare(PackSchema.Route.insert())
        let waypointInsert = try db.prepare(PackSchema.RouteWaypoint.insert())
        for route in content.routes.sorted(by: { $0.id < $1.id }) {
            let points = route.waypoints.compactMap(\.coordinate).map { (lat: $0.lat, lon: $0.lon) }
            guard points.count == route.waypoints.count, let region = RouteGeometry.region(points) else { continue }
            routeInsert.bind(1, route.id)
            routeInsert.bind(2, route.position)
            routeInsert.bind(3, text(route.name) ?? "{}")
            routeInsert.bind(4, text(route.description))
            routeInsert.bind(5, (RouteGeometry.length(points) * 10).rounded() / 10)
            // 7 decimals (≈ 1 cm), like OSM coordinates, so the stored region has no binary noise.
            func e7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }
            routeInsert.bind(6, e7(region.minLon))
            routeInsert.bind(7, e7(region.minLat))
            routeInsert.bind(8, e7(region.maxLon))
            routeInsert.bind(9, e7(region.maxLat))
            try routeInsert.run()
            for w in route.waypoints {
                guard let c = w.coordinate else { continue }
                waypointInsert.bind(1, route.id)
                waypointInsert.bind(2, w.sequence)
                if case .poi(let id) = w.place { waypointInsert.bind(3, id) } else { waypointInsert.bind(3, nil as Int64?) }
                waypointInsert.bind(4, c.lat)
                waypointInsert.bind(5, c.lon)
                waypointInsert.bind(6, w.radius)
                waypointInsert.bind(7, text(w.name))
                try waypointInsert.run()
            }
        }
        guard let copy else { return }
        let stringInsert = try db.prepare(PackSchema.Strings.insert())
        for key in copy.keys {
            for locale in copy.locales.sorted() {
                guard let value = copy.resolved(key, locale: locale) else { continue }
                switch value {
                case .text(let m):
                    stringInsert.bind(1, key)
                    stringInsert.bind(2, locale)
                    stringInsert.bind(3, "")
                    stringInsert.bind(4, m.source)
                    try stringInsert.run()
                case .plural(let forms):
                    for (category, m) in forms.sorted(by: { $0.key < $1.key }) {
                        stringInsert.bind(1, key)
                        stringInsert.bind(2, locale)
                        stringInsert.bind(3, category.rawValue)
                        stringInsert.bind(4, m.source)
                        try stringInsert.run()
                    }
                }
            }
        }
    }

    /// `{"<locale>": "<text>"}` with sorted keys for every locale; missing locales take the fallback's text.
    static func localizedJSON(_ text: LocalizedText, locales: [String], fallback: String) -> String {
        var full: [String: String] = [:]
        let base = text[fallback] ?? text.sorted(by: { $0.key < $1.key }).first?.value ?? ""
        for locale in Set(locales).union(text.keys) { full[locale] = text[locale] ?? base }
        return SortedJSON.text(full, pretty: false) ?? "{}"
    }
}
