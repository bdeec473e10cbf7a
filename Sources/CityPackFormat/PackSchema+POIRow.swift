extension PackSchema.POI {
    /// A `poi` row as both readers take it (the pack reader's place details, the web writer's places): the one
    /// place its columns turn into Swift values. A new per-POI column is a property here and a line in
    /// ``init(_:)``; ``query(absent:)`` and ``byID(absent:)`` select it because they are built from ``columns``, as
    /// NULL from packs written before the column existed.
    package struct Row: Sendable, Hashable {
        /// `poi.id`: ``PackSchema/stableID``-style `osmId × 4 + kind`.
        package var id: Int64
        /// Degrees.
        package var lat: Double
        /// Degrees.
        package var lon: Double
        /// The category as stored (a code, or the id in formats 1 and 2).
        package var category: PackSchema.CategoryValue
        /// The plain `name` tag.
        package var name: String?
        /// `poi.tags` as stored (``PackSchema/decodeTags(_:)`` reads it).
        package var tags: String
        /// Wheelchair access (OSM `wheelchair`); nil when unknown.
        package var wheelchair: PackSchema.Wheelchair?
        /// Opening hours in compact form (``OpeningHours/compact``); nil when none or unreadable.
        package var hours: String? = nil

        /// The row's columns, in SELECT order.
        package static let columns: [any PackSchema.AnyColumn] = PackSchema.POI.columns

        /// Every row, in no particular order.
        /// - Parameter absent: Columns the pack lacks (``PackSchema/TableSchema/missingColumns(in:)``): read as NULL.
        package static func query(absent: [any PackSchema.AnyColumn] = []) -> PackSchema.Query {
            PackSchema.POI.select(columns, absent: absent)
        }

        /// The row of the id bound to ``PackSchema/POI/id``.
        /// - Parameter absent: Columns the pack lacks (``PackSchema/TableSchema/missingColumns(in:)``): read as NULL.
        package static func byID(absent: [any PackSchema.AnyColumn] = []) -> PackSchema.Query {
            PackSchema.POI.select(columns, where: [PackSchema.POI.id], absent: absent)
        }

        /// A row of these values (``init(_:)`` in CityPackSQLite reads one from a statement).
        package init(id: Int64, lat: Double, lon: Double, category: PackSchema.CategoryValue, name: String?, tags: String,
                    wheelchair: PackSchema.Wheelchair?) {
            self.id = id
            self.lat = lat
            self.lon = lon
            self.category = category
            self.name = name
            self.tags = tags
            self.wheelchair = wheelchair
        }
    }
}

extension PackSchema {
    /// Wheelchair access of a place, as OSM's `wheelchair` tag says it (`poi.wheelchair`).
    public enum Wheelchair: String, Sendable, Codable, Hashable, CaseIterable {
        /// `wheelchair=yes`: fully accessible.
        case yes
        /// `wheelchair=limited`: partly accessible.
        case limited
        /// `wheelchair=no`: not accessible.
        case no

        /// The value of an OSM `wheelchair` tag; nil when absent or any other value (`designated`, `Yes`, typos),
        /// which the pack stores as NULL.
        public init?(tag: String?) {
            guard let tag, let value = Wheelchair(rawValue: tag) else { return nil }
            self = value
        }
    }
}
