/// The editorial tables and the UI copy (``PackSchema`` describes their contents).
extension PackSchema {
    /// `card`: problem cards in display order.
    public enum Card: TableSchema {
        public static let table = Table.card
        public static let id = Column("id", "TEXT PRIMARY KEY")
        public static let position = Column("position", "INTEGER NOT NULL")
        public static let icon = Column("icon", "TEXT")
        public static let home = Column("home", "INTEGER NOT NULL")
        public static let title = Column("title", "TEXT NOT NULL")
        public static let columns = [id, position, icon, home, title]
        public static let create = createTable(withoutRowID: true)
    }

    /// `situation`: micro-situations of a card.
    public enum Situation: TableSchema {
        public static let table = Table.situation
        public static let id = Column("id", "TEXT PRIMARY KEY")
        public static let card = Column("card", "TEXT NOT NULL")
        public static let position = Column("position", "INTEGER NOT NULL")
        public static let title = Column("title", "TEXT NOT NULL")
        public static let body = Column("body", "TEXT")
        public static let columns = [id, card, position, title, body]
        public static let create = createTable(withoutRowID: true)
        public static let indexes = [Index("situation_by_card", on: [card, position])]
    }

    /// `action`: the actions of a situation.
    public enum Action: TableSchema {
        public static let table = Table.action
        public static let id = Column("id", "TEXT PRIMARY KEY")
        public static let situation = Column("situation", "TEXT NOT NULL")
        public static let position = Column("position", "INTEGER NOT NULL")
        public static let kind = Column("kind", "TEXT NOT NULL")
        public static let target = Column("target", "TEXT")
        public static let label = Column("label", "TEXT NOT NULL")
        public static let text = Column("text", "TEXT")
        public static let columns = [id, situation, position, kind, target, label, text]
        public static let create = createTable(withoutRowID: true)
        public static let indexes = [Index("action_by_situation", on: [situation, position])]
    }

    /// `route`: curated walking routes with their region.
    public enum Route: TableSchema {
        public static let table = Table.route
        public static let id = Column("id", "TEXT PRIMARY KEY")
        public static let position = Column("position", "INTEGER NOT NULL")
        public static let name = Column("name", "TEXT NOT NULL")
        public static let description = Column("description", "TEXT")
        public static let lengthM = Column("length_m", "REAL NOT NULL")
        public static let minLon = Column("min_lon", "REAL NOT NULL")
        public static let minLat = Column("min_lat", "REAL NOT NULL")
        public static let maxLon = Column("max_lon", "REAL NOT NULL")
        public static let maxLat = Column("max_lat", "REAL NOT NULL")
        public static let columns = [id, position, name, description, lengthM, minLon, minLat, maxLon, maxLat]
        public static let create = createTable(withoutRowID: true)
    }

    /// `route_waypoint`: the ordered waypoints of a route.
    public enum RouteWaypoint: TableSchema {
        public static let table = Table.routeWaypoint
        public static let route = Column("route", "TEXT NOT NULL")
        public static let sequence = Column("sequence", "INTEGER NOT NULL")
        public static let poi = Column("poi", "INTEGER")
        public static let lat = Column("lat", "REAL NOT NULL")
        public static let lon = Column("lon", "REAL NOT NULL")
        public static let radius = Column("radius", "REAL NOT NULL")
        public static let name = Column("name", "TEXT")
        public static let columns = [route, sequence, poi, lat, lon, radius, name]
        public static let create = createTable(primaryKey: [route, sequence], withoutRowID: true)
    }

    /// `string`: UI copy per locale and plural form (`Strings`: a Swift type cannot be called `String` here).
    public enum Strings: TableSchema {
        public static let table = Table.string
        public static let key = Column("key", "TEXT NOT NULL")
        public static let locale = Column("locale", "TEXT NOT NULL")
        public static let form = Column("form", "TEXT NOT NULL")
        public static let value = Column("value", "TEXT NOT NULL")
        public static let columns = [key, locale, form, value]
        public static let create = createTable(primaryKey: [key, locale, form], withoutRowID: true)
    }
}
