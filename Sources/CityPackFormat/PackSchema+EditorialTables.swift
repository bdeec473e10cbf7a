/// The editorial tables and the UI copy (``PackSchema`` describes their contents).
extension PackSchema {
    /// `card`: problem cards in display order.
    package enum Card: TableSchema {
        package static let table = Table.card
        /// The alias of `Card` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "cd"
        package static let id = Column<String>("id", "TEXT PRIMARY KEY")
        package static let position = Column<Int>("position", "INTEGER NOT NULL")
        package static let icon = Column<String?>("icon", "TEXT")
        package static let home = Column<Bool>("home", "INTEGER NOT NULL")
        package static let title = Column<String>("title", "TEXT NOT NULL")
        package static let columns: [any AnyColumn] = [id, position, icon, home, title]
        package static let create = createTable(withoutRowID: true)
    }

    /// `situation`: micro-situations of a card.
    package enum Situation: TableSchema {
        package static let table = Table.situation
        /// The alias of `Situation` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "si"
        package static let id = Column<String>("id", "TEXT PRIMARY KEY")
        package static let card = Column<String>("card", "TEXT NOT NULL")
        package static let position = Column<Int>("position", "INTEGER NOT NULL")
        package static let title = Column<String>("title", "TEXT NOT NULL")
        package static let body = Column<String?>("body", "TEXT")
        package static let columns: [any AnyColumn] = [id, card, position, title, body]
        package static let create = createTable(withoutRowID: true)
        package static let indexes = [Index("situation_by_card", on: [card, position])]
    }

    /// `action`: the actions of a situation.
    package enum Action: TableSchema {
        package static let table = Table.action
        /// The alias of `Action` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "ac"
        package static let id = Column<String>("id", "TEXT PRIMARY KEY")
        package static let situation = Column<String>("situation", "TEXT NOT NULL")
        package static let position = Column<Int>("position", "INTEGER NOT NULL")
        package static let kind = Column<String>("kind", "TEXT NOT NULL")
        package static let target = Column<String?>("target", "TEXT")
        package static let label = Column<String>("label", "TEXT NOT NULL")
        package static let text = Column<String?>("text", "TEXT")
        package static let columns: [any AnyColumn] = [id, situation, position, kind, target, label, text]
        package static let create = createTable(withoutRowID: true)
        package static let indexes = [Index("action_by_situation", on: [situation, position])]
    }

    /// `route`: curated walking routes with their region.
    package enum Route: TableSchema {
        package static let table = Table.route
        /// The alias of `Route` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "rt"
        package static let id = Column<String>("id", "TEXT PRIMARY KEY")
        package static let position = Column<Int>("position", "INTEGER NOT NULL")
        package static let name = Column<String>("name", "TEXT NOT NULL")
        package static let description = Column<String?>("description", "TEXT")
        package static let lengthM = Column<Double>("length_m", "REAL NOT NULL")
        package static let minLon = Column<Double>("min_lon", "REAL NOT NULL")
        package static let minLat = Column<Double>("min_lat", "REAL NOT NULL")
        package static let maxLon = Column<Double>("max_lon", "REAL NOT NULL")
        package static let maxLat = Column<Double>("max_lat", "REAL NOT NULL")
        package static let columns: [any AnyColumn] = [id, position, name, description, lengthM, minLon, minLat, maxLon, maxLat]
        package static let create = createTable(withoutRowID: true)
    }

    /// `route_waypoint`: the ordered waypoints of a route.
    package enum RouteWaypoint: TableSchema {
        package static let table = Table.routeWaypoint
        /// The alias of `RouteWaypoint` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "rw"
        package static let route = Column<String>("route", "TEXT NOT NULL")
        package static let sequence = Column<Int>("sequence", "INTEGER NOT NULL")
        package static let poi = Column<Int64?>("poi", "INTEGER")
        package static let lat = Column<Double>("lat", "REAL NOT NULL")
        package static let lon = Column<Double>("lon", "REAL NOT NULL")
        package static let radius = Column<Double>("radius", "REAL NOT NULL")
        package static let name = Column<String?>("name", "TEXT")
        package static let columns: [any AnyColumn] = [route, sequence, poi, lat, lon, radius, name]
        package static let create = createTable(primaryKey: [route, sequence], withoutRowID: true)
    }

    /// `string`: UI copy per locale and plural form (`Strings`: a Swift type cannot be called `String` here).
    package enum Strings: TableSchema {
        package static let table = Table.string
        /// The alias of `Strings` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "str"
        package static let key = Column<String>("key", "TEXT NOT NULL")
        package static let locale = Column<String>("locale", "TEXT NOT NULL")
        package static let form = Column<String>("form", "TEXT NOT NULL")
        package static let value = Column<String>("value", "TEXT NOT NULL")
        package static let columns: [any AnyColumn] = [key, locale, form, value]
        package static let create = createTable(primaryKey: [key, locale, form], withoutRowID: true)
    }
}
