import CityPackFormat
import CityPackModel
import CityPackSQLite
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
        let cardInsert = try db.prepare(PackSchema.Card.inserting())
        for card in content.cards.sorted(by: { $0.id < $1.id }) {
            cardInsert.bind(PackSchema.Card.id, card.id)
            cardInsert.bind(PackSchema.Card.position, card.position)
            cardInsert.bind(PackSchema.Card.icon, card.icon)
            cardInsert.bind(PackSchema.Card.home, card.home)
            cardInsert.bind(PackSchema.Card.title, text(card.title) ?? "{}")
            try cardInsert.run()
        }
        let situationInsert = try db.prepare(PackSchema.Situation.inserting())
        for s in content.situations.sorted(by: { $0.id < $1.id }) {
            situationInsert.bind(PackSchema.Situation.id, s.id)
            situationInsert.bind(PackSchema.Situation.card, s.card)
            situationInsert.bind(PackSchema.Situation.position, s.position)
            situationInsert.bind(PackSchema.Situation.title, text(s.title) ?? "{}")
            situationInsert.bind(PackSchema.Situation.body, text(s.body))
            try situationInsert.run()
        }
        let actionInsert = try db.prepare(PackSchema.Action.inserting())
        for a in content.actions.sorted(by: { $0.id < $1.id }) {
            actionInsert.bind(PackSchema.Action.id, a.id)
            actionInsert.bind(PackSchema.Action.situation, a.situation)
            actionInsert.bind(PackSchema.Action.position, a.position)
            actionInsert.bind(PackSchema.Action.kind, a.kind.rawValue)
            actionInsert.bind(PackSchema.Action.target, a.target.isEmpty ? nil : a.target)
            actionInsert.bind(PackSchema.Action.label, text(a.label) ?? "{}")
            actionInsert.bind(PackSchema.Action.text, text(a.text))
            try actionInsert.run()
        }
        let routeInsert = try db.prepare(PackSchema.Route.inserting())
        let waypointInsert = try db.prepare(PackSchema.RouteWaypoint.inserting())
        for route in content.routes.sorted(by: { $0.id < $1.id }) {
            let points = route.waypoints.compactMap(\.coordinate).map { (lat: $0.lat, lon: $0.lon) }
            guard points.count == route.waypoints.count, let region = RouteGeometry.region(points) else { continue }
            routeInsert.bind(PackSchema.Route.id, route.id)
            routeInsert.bind(PackSchema.Route.position, route.position)
            routeInsert.bind(PackSchema.Route.name, text(route.name) ?? "{}")
            routeInsert.bind(PackSchema.Route.description, text(route.description))
            routeInsert.bind(PackSchema.Route.lengthM, (RouteGeometry.length(points) * 10).rounded() / 10)
            // 7 decimals (≈ 1 cm), like OSM coordinates, so the stored region has no binary noise.
            func e7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }
            routeInsert.bind(PackSchema.Route.minLon, e7(region.minLon))
            routeInsert.bind(PackSchema.Route.minLat, e7(region.minLat))
            routeInsert.bind(PackSchema.Route.maxLon, e7(region.maxLon))
            routeInsert.bind(PackSchema.Route.maxLat, e7(region.maxLat))
            try routeInsert.run()
            for w in route.waypoints {
                guard let c = w.coordinate else { continue }
                waypointInsert.bind(PackSchema.RouteWaypoint.route, route.id)
                waypointInsert.bind(PackSchema.RouteWaypoint.sequence, w.sequence)
                if case .poi(let id) = w.place { waypointInsert.bind(PackSchema.RouteWaypoint.poi, id) } else { waypointInsert.bind(PackSchema.RouteWaypoint.poi, nil as Int64?) }
                waypointInsert.bind(PackSchema.RouteWaypoint.lat, c.lat)
                waypointInsert.bind(PackSchema.RouteWaypoint.lon, c.lon)
                waypointInsert.bind(PackSchema.RouteWaypoint.radius, w.radius)
                waypointInsert.bind(PackSchema.RouteWaypoint.name, text(w.name))
                try waypointInsert.run()
            }
        }
        guard let copy else { return }
        let stringInsert = try db.prepare(PackSchema.Strings.inserting())
        for key in copy.keys {
            for locale in copy.locales.sorted() {
                guard let value = copy.resolved(key, locale: locale) else { continue }
                switch value {
                case .text(let m):
                    stringInsert.bind(PackSchema.Strings.key, key)
                    stringInsert.bind(PackSchema.Strings.locale, locale)
                    stringInsert.bind(PackSchema.Strings.form, "")
                    stringInsert.bind(PackSchema.Strings.value, m.source)
                    try stringInsert.run()
                case .plural(let forms):
                    for (category, m) in forms.sorted(by: { $0.key < $1.key }) {
                        stringInsert.bind(PackSchema.Strings.key, key)
                        stringInsert.bind(PackSchema.Strings.locale, locale)
                        stringInsert.bind(PackSchema.Strings.form, category.rawValue)
                        stringInsert.bind(PackSchema.Strings.value, m.source)
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
