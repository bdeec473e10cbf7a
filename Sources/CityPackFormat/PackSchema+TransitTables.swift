/// The transit tables (GTFS; ``PackSchema`` describes their contents).
extension PackSchema {
    /// `stop`: every stop of every feed; ids from ``PackSchema/stopID(index:)``.
    public enum Stop: TableSchema {
        public static let table = Table.stop
        /// The alias of `Stop` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "st"
        public static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        public static let feed = Column<Int>("feed", "INTEGER NOT NULL")
        public static let stopID = Column<String>("stop_id", "TEXT NOT NULL")
        public static let name = Column<String?>("name", "TEXT")
        public static let lat = Column<Double?>("lat", "REAL")
        public static let lon = Column<Double?>("lon", "REAL")
        public static let cell = Column<Int64?>("cell", "INTEGER")
        public static let locationType = Column<Int>("location_type", "INTEGER NOT NULL")
        public static let parent = Column<Int64?>("parent", "INTEGER")
        /// wheelchair_boarding: NULL no information, 1 possible, 2 not possible.
        public static let wheelchair = Column<Int?>("wheelchair", "INTEGER")
        public static let columns: [any AnyColumn] = [id, feed, stopID, name, lat, lon, cell, locationType, parent, wheelchair]
        public static let create = createTable(withoutRowID: false)
        public static let indexes = [
            Index("stop_by_stop_id", on: [stopID, feed]),
            Index("stop_by_parent", on: [parent]),
        ]
    }

    /// `stop_bucket`: the proximity index rows of stops, by cell then stop.
    public enum StopBucket: TableSchema {
        public static let table = Table.stopBucket
        /// The alias of `StopBucket` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "sb"
        public static let cell = Column<Int64>("cell", "INTEGER NOT NULL")
        public static let stop = Column<Int64>("stop", "INTEGER NOT NULL")
        public static let lat = Column<Double>("lat", "REAL NOT NULL")
        public static let lon = Column<Double>("lon", "REAL NOT NULL")
        public static let columns: [any AnyColumn] = [cell, stop, lat, lon]
        public static let create = createTable(primaryKey: [cell, stop], withoutRowID: true)
        /// Every bucketed stop's point, (stop, lat, lon): what the proximity index is built from.
        public static let pointsQuery = "SELECT \(stop), \(lat), \(lon) FROM \(table)"
        /// ``pointsQuery``, read by column.
        public static let points = Query(pointsQuery, results: [stop, lat, lon])
    }

    /// `line`: GTFS routes.
    public enum Line: TableSchema {
        public static let table = Table.line
        /// The alias of `Line` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "ln"
        public static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        public static let feed = Column<Int>("feed", "INTEGER NOT NULL")
        public static let routeID = Column<String>("route_id", "TEXT NOT NULL")
        public static let agency = Column<String?>("agency", "TEXT")
        public static let shortName = Column<String?>("short_name", "TEXT")
        public static let longName = Column<String?>("long_name", "TEXT")
        public static let type = Column<Int>("type", "INTEGER NOT NULL")
        public static let colour = Column<String?>("colour", "TEXT")
        public static let textColour = Column<String?>("text_colour", "TEXT")
        public static let columns: [any AnyColumn] = [id, feed, routeID, agency, shortName, longName, type, colour, textColour]
        public static let create = createTable(withoutRowID: false)
    }

    /// `service`: GTFS services with their calendar.
    public enum Service: TableSchema {
        public static let table = Table.service
        /// The alias of `Service` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "sv"
        public static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        public static let feed = Column<Int>("feed", "INTEGER NOT NULL")
        public static let serviceID = Column<String>("service_id", "TEXT NOT NULL")
        public static let startDate = Column<Int?>("start_date", "INTEGER")
        public static let endDate = Column<Int?>("end_date", "INTEGER")
        public static let days = Column<Int?>("days", "INTEGER")
        public static let columns: [any AnyColumn] = [id, feed, serviceID, startDate, endDate, days]
        public static let create = createTable(withoutRowID: false)
    }

    /// `service_date`: calendar_dates exceptions.
    public enum ServiceDate: TableSchema {
        public static let table = Table.serviceDate
        /// The alias of `ServiceDate` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "sd"
        public static let service = Column<Int64>("service", "INTEGER NOT NULL")
        public static let date = Column<Int>("date", "INTEGER NOT NULL")
        public static let type = Column<Int>("type", "INTEGER NOT NULL")
        public static let columns: [any AnyColumn] = [service, date, type]
        public static let create = createTable(primaryKey: [service, date], withoutRowID: true)
    }

    /// `trip`: GTFS trips.
    public enum Trip: TableSchema {
        public static let table = Table.trip
        /// The alias of `Trip` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "tr"
        public static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        public static let tripID = Column<String>("trip_id", "TEXT NOT NULL")
        public static let line = Column<Int64>("line", "INTEGER NOT NULL")
        public static let service = Column<Int64>("service", "INTEGER NOT NULL")
        public static let headsign = Column<String?>("headsign", "TEXT")
        public static let direction = Column<Int?>("direction", "INTEGER")
        /// wheelchair_accessible: NULL no information, 1 accessible, 2 not.
        public static let wheelchair = Column<Int?>("wheelchair", "INTEGER")
        public static let columns: [any AnyColumn] = [id, tripID, line, service, headsign, direction, wheelchair]
        public static let create = createTable(withoutRowID: false)
    }

    /// `pattern`: the timetable, stored once: trips grouped by their ordered stops, each group's trips sorted by
    /// departure and never overtaking one another (``TimetableCoding`` describes the BLOBs).
    public enum Pattern: TableSchema {
        public static let table = Table.pattern
        /// The alias of `Pattern` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "pt"
        public static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        public static let flags = Column<Int64>("flags", "INTEGER NOT NULL")
        public static let stops = Column<[UInt8]>("stops", "BLOB NOT NULL")
        public static let trips = Column<[UInt8]>("trips", "BLOB NOT NULL")
        public static let times = Column<[UInt8]>("times", "BLOB NOT NULL")
        public static let columns: [any AnyColumn] = [id, flags, stops, trips, times]
        public static let create = createTable(withoutRowID: false)
        /// ``flags`` bit: the trips go on to stops outside the pack, so the last stop is also a departure.
        public static let throughFlag: Int64 = 1
        /// ``flags`` bit: the pattern holds one frequency-based trip whose times are offsets from its first
        /// departure (`frequency` gives the starts).
        public static let frequencyFlag: Int64 = 2
        /// Every pattern, in id order.
        public static let allQuery = "SELECT \(id), \(flags), \(stops), \(trips), \(times) FROM \(table) ORDER BY \(id)"
        /// ``allQuery``, read by column.
        public static let all = Query(allQuery, results: [id, flags, stops, trips, times])
    }

    /// `footpath`: changes between stops (and at one stop): transfers.txt first, then walking between stops of a
    /// feed within ``TransitWalking/radius`` metres.
    public enum Footpath: TableSchema {
        public static let table = Table.footpath
        /// The alias of `Footpath` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "fp"
        public static let from = Column<Int64>("from_stop", "INTEGER NOT NULL")
        public static let to = Column<Int64>("to_stop", "INTEGER NOT NULL")
        /// Walking metres (straight line × ``TransitWalking/detour``), rounded up; 0 at one stop.
        public static let metres = Column<Int>("metres", "INTEGER NOT NULL")
        /// transfers.txt's time in seconds; NULL: walk the metres at the reader's speed; -1: forbidden.
        public static let seconds = Column<Int?>("seconds", "INTEGER")
        public static let columns: [any AnyColumn] = [from, to, metres, seconds]
        public static let create = createTable(primaryKey: [from, to], withoutRowID: true)
        /// Every footpath by (from, to).
        public static let allQuery = "SELECT \(from), \(to), \(metres), \(seconds) FROM \(table) ORDER BY \(from), \(to)"
        /// ``allQuery``, read by column.
        public static let all = Query(allQuery, results: [from, to, metres, seconds])
    }

    /// `frequency`: headway-based trips.
    public enum Frequency: TableSchema {
        public static let table = Table.frequency
        /// The alias of `Frequency` in every query (and, upper-cased, the Swift typealias of this namespace).
        public static let alias = "fq"
        public static let trip = Column<Int64>("trip", "INTEGER NOT NULL")
        public static let start = Column<Int>("start", "INTEGER NOT NULL")
        public static let end = Column<Int>("end", "INTEGER NOT NULL")
        public static let headway = Column<Int>("headway", "INTEGER NOT NULL")
        public static let exactTimes = Column<Int>("exact_times", "INTEGER NOT NULL")
        public static let columns: [any AnyColumn] = [trip, start, end, headway, exactTimes]
        public static let create = createTable(primaryKey: [trip, start], withoutRowID: true)
    }
}
