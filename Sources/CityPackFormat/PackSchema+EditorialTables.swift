/// The editorial tables and the UI copy (``PackSchema`` describes their contents).
extension PackSchema {
    /// `card`: problem cards in display order.
    public enum Card: TableSchema {
        public static let table = Table.card
        /// The alias of `Card` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "cd"
        public static let id = Column<String>("id", "TEXT PRIMARY KEY")
        public static let position = Column<Int>("position", "INTEGER NOT NULL")
        public static let icon = Column<String?>("icon", "TEXT")
        public static let home = Column<Bool>("home", "INTEGER NOT NULL")
        public static let title = Column<String>("title", "TEXT NOT NULL")
        public static let columns: [any AnyColumn] = [id, position, icon, home, title]
        public static let create = createTable(withoutRowID: true)
    }

    /// `situation`: micro-situations of a card.
    public enum Situation: TableSchema {
        public static let table = Table.situation
        /// The alias of `Situation` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "si"
        public static let id = Column<String>("id", "TEXT PRIMARY KEY")
        public static let card = Column<String>("card", "TEXT NOT NULL")
        public static let position = Column<Int>("position", "INTEGER NOT NULL")
        public static let title = Column<String>("title", "TEXT NOT NULL")
        public static let body = Column<String?>("body", "TEXT")
        public static let columns: [any AnyColumn] = [id, card, position, title, body]
        public static let create = createTable(withoutRowID: true)
        public static let indexes = [Index("situation_by_card", on: [card, position])]
    }

    /// `action`: the actions of a situation.
    public enum Action: TableSchema {
        public static let table = Table.action
        /// The alias of `Action` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "ac"
        public static let id = Column<String>("id", "TEXT PRIMARY KEY")
        public static let situation = Column<String>("situation", "TEXT NOT NULL")
        public static let position = Column<Int>("position", "INTEGER NOT NULL")
        public static let kind = Column<String>("kind", "TEXT NOT NULL")
        public static let target = Column<String?>("target", "TEXT")
        public static let label = Column<String>("label", "TEXT NOT NULL")
        public static let text = Column<String?>("text", "TEXT")
        public static let columns: [any AnyColumn] = [id, situation, position, kind, target, label, text]
        public static let create = createTable(withoutRowID: true)
        public static let indexes = [Index("action_by_situation", on: [situation, position])]
    }

    /// `route`: curated walking routes with their region.
    public enum Route: TableSchema {
        public static let table = Table.route
        /// The alias of `Route` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "rt"
        public static let id = Column<String>("id", "TEXT PRIMARY KEY")
        public static let position = Column<Int>("position", "INTEGER NOT NULL")
        public static let name = Column<String>("name", "TEXT NOT NULL")
        public static let description = Column<String?>("description", "TEXT")
        public static let lengthM = Column<Double>("length_m", "REAL NOT NULL")
        public static let minLon = Column<Double>("min_lon", "REAL NOT NULL")
        public static let minLat = Column<Double>("min_lat", "REAL NOT NULL")
        public static let maxLon = Column<Double>("max_lon", "REAL NOT NULL")
        public static let maxLat = Column<Double>("max_lat", "REAL NOT NULL")
        public static let columns: [any AnyColumn] = [id, position, name, description, lengthM, minLon, minLat, maxLon, maxLat]
        public static let create = createTable(withoutRowID: true)
    }

    /// `route_waypoint`: the ordered waypoints of a route.
    public enum RouteWaypoint: TableSchema {
        public static let table = Table.routeWaypoint
        /// The alias of `RouteWaypoint` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "rw"
        public static let route = Column<String>("route", "TEXT NOT NULL")
        public static let sequence = Column<Int>("sequence", "INTEGER NOT NULL")
        public static let poi = Column<Int64?>("poi", "INTEGER")
        public static let lat = Column<Double>("lat", "REAL NOT NULL")
        public static let lon = Column<Double>("lon", "REAL NOT NULL")
        public static let radius = Column<Double>("radius", "REAL NOT NULL")
        public static let name = Column<String?>("name", "TEXT")
        public static let columns: [any AnyColumn] = [route, sequence, poi, lat, lon, radius, name]
        public static let create = createTable(primaryKey: [route, sequence], withoutRowID: true)
    }

    /// `string`: UI copy per locale and plural form (`Strings`: a Swift type cannot be called `String` here).
    public enum Strings: TableSchema {
        public static let table = Table.string
        /// The alias of `Strings` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "str"
        public static let key = Column<String>("key", "TEXT NOT NULL")
        public static let locale = Column<String>("locale", "TEXT NOT NULL")
        public static let form = Column<String>("form", "TEXT NOT NULL")
        public static let value = Column<String>("value", "TEXT NOT NULL")
        public static let columns: [any AnyColumn] = [key, locale, form, value]
        public static let create = createTable(primaryKey: [key, locale, form], withoutRowID: true)
    }
}
