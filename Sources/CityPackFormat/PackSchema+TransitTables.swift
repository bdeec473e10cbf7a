/// The transit tables (GTFS; ``PackSchema`` describes their contents).
extension PackSchema {
    /// `stop`: every stop of every feed; ids from ``PackSchema/stopID(index:)``.
    public enum Stop: TableSchema {
        public static let table = Table.stop
        public static let id = Column("id", "INTEGER PRIMARY KEY")
        public static let feed = Column("feed", "INTEGER NOT NULL")
        public static let stopID = Column("stop_id", "TEXT NOT NULL")
        public static let name = Column("name", "TEXT")
        public static let lat = Column("lat", "REAL")
        public static let lon = Column("lon", "REAL")
        public static let cell = Column("cell", "INTEGER")
        public static let locationType = Column("location_type", "INTEGER NOT NULL")
        public static let parent = Column("parent", "INTEGER")
        /// wheelchair_boarding: NULL no information, 1 possible, 2 not possible.
        public static let wheelchair = Column("wheelchair", "INTEGER")
        public static let columns = [id, feed, stopID, name, lat, lon, cell, locationType, parent, wheelchair]
        public static let create = createTable(withoutRowID: false)
        public static let indexes = [
            Index("stop_by_stop_id", on: [stopID, feed]),
            Index("stop_by_parent", on: [parent]),
        ]
    }

    /// `stop_bucket`: the proximity index rows of stops, by cell then stop.
    public enum StopBucket: TableSchema {
        public static let table = Table.stopBucket
        public static let cell = Column("cell", "INTEGER NOT NULL")
        public static let stop = Column("stop", "INTEGER NOT NULL")
        public static let lat = Column("lat", "REAL NOT NULL")
        public static let lon = Column("lon", "REAL NOT NULL")
        public static let columns = [cell, stop, lat, lon]
        public static let create = createTable(primaryKey: [cell, stop], withoutRowID: true)
        /// Every bucketed stop's point, (stop, lat, lon): what the proximity index is built from.
        public static let pointsQuery = "SELECT \(stop), \(lat), \(lon) FROM \(table)"
    }

    /// `line`: GTFS routes.
    public enum Line: TableSchema {
        public static let table = Table.line
        public static let id = Column("id", "INTEGER PRIMARY KEY")
        public static let feed = Column("feed", "INTEGER NOT NULL")
        public static let routeID = Column("route_id", "TEXT NOT NULL")
        public static let agency = Column("agency", "TEXT")
        public static let shortName = Column("short_name", "TEXT")
        public static let longName = Column("long_name", "TEXT")
        public static let type = Column("type", "INTEGER NOT NULL")
        public static let colour = Column("colour", "TEXT")
        public static let textColour = Column("text_colour", "TEXT")
        public static let columns = [id, feed, routeID, agency, shortName, longName, type, colour, textColour]
        public static let create = createTable(withoutRowID: false)
    }

    /// `service`: GTFS services with their calendar.
    public enum Service: TableSchema {
        public static let table = Table.service
        public static let id = Column("id", "INTEGER PRIMARY KEY")
        public static let feed = Column("feed", "INTEGER NOT NULL")
        public static let serviceID = Column("service_id", "TEXT NOT NULL")
        public static let startDate = Column("start_date", "INTEGER")
        public static let endDate = Column("end_date", "INTEGER")
        public static let days = Column("days", "INTEGER")
        public static let columns = [id, feed, serviceID, startDate, endDate, days]
        public static let create = createTable(withoutRowID: false)
    }

    /// `service_date`: calendar_dates exceptions.
    public enum ServiceDate: TableSchema {
        public static let table = Table.serviceDate
        public static let service = Column("service", "INTEGER NOT NULL")
        public static let date = Column("date", "INTEGER NOT NULL")
        public static let type = Column("type", "INTEGER NOT NULL")
        public static let columns = [service, date, type]
        public static let create = createTable(primaryKey: [service, date], withoutRowID: true)
    }

    /// `trip`: GTFS trips.
    public enum Trip: TableSchema {
        public static let table = Table.trip
        public static let id = Column("id", "INTEGER PRIMARY KEY")
        public static let tripID = Column("trip_id", "TEXT NOT NULL")
        public static let line = Column("line", "INTEGER NOT NULL")
        public static let service = Column("service", "INTEGER NOT NULL")
        public static let headsign = Column("headsign", "TEXT")
        public static let direction = Column("direction", "INTEGER")
        /// wheelchair_accessible: NULL no information, 1 accessible, 2 not.
        public static let wheelchair = Column("wheelchair", "INTEGER")
        public static let columns = [id, tripID, line, service, headsign, direction, wheelchair]
        public static let create = createTable(withoutRowID: false)
    }

    /// `pattern`: the timetable, stored once: trips grouped by their ordered stops, each group's trips sorted by
    /// departure and never overtaking one another (``TimetableCoding`` describes the BLOBs).
    public enum Pattern: TableSchema {
        public static let table = Table.pattern
        public static let id = Column("id", "INTEGER PRIMARY KEY")
        public static let flags = Column("flags", "INTEGER NOT NULL")
        public static let stops = Column("stops", "BLOB NOT NULL")
        public static let trips = Column("trips", "BLOB NOT NULL")
        public static let times = Column("times", "BLOB NOT NULL")
        public static let columns = [id, flags, stops, trips, times]
        public static let create = createTable(withoutRowID: false)
        /// ``flags`` bit: the trips go on to stops outside the pack, so the last stop is also a departure.
        public static let throughFlag: Int64 = 1
        /// ``flags`` bit: the pattern holds one frequency-based trip whose times are offsets from its first
        /// departure (`frequency` gives the starts).
        public static let frequencyFlag: Int64 = 2
        /// Every pattern, in id order.
        public static let allQuery = "SELECT \(id), \(flags), \(stops), \(trips), \(times) FROM \(table) ORDER BY \(id)"
    }

    /// `footpath`: changes between stops (and at one stop): transfers.txt first, then walking between stops of a
    /// feed within ``TransitWalking/radius`` metres.
    public enum Footpath: TableSchema {
        public static let table = Table.footpath
        public static let from = Column("from_stop", "INTEGER NOT NULL")
        public static let to = Column("to_stop", "INTEGER NOT NULL")
        /// Walking metres (straight line × ``TransitWalking/detour``), rounded up; 0 at one stop.
        public static let metres = Column("metres", "INTEGER NOT NULL")
        /// transfers.txt's time in seconds; NULL: walk the metres at the reader's speed; -1: forbidden.
        public static let seconds = Column("seconds", "INTEGER")
        public static let columns = [from, to, metres, seconds]
        public static let create = createTable(primaryKey: [from, to], withoutRowID: true)
        /// Every footpath by (from, to).
        public static let allQuery = "SELECT \(from), \(to), \(metres), \(seconds) FROM \(table) ORDER BY \(from), \(to)"
    }

    /// `frequency`: headway-based trips.
    public enum Frequency: TableSchema {
        public static let table = Table.frequency
        public static let trip = Column("trip", "INTEGER NOT NULL")
        public static let start = Column("start", "INTEGER NOT NULL")
        public static let end = Column("end", "INTEGER NOT NULL")
        public static let headway = Column("headway", "INTEGER NOT NULL")
        public static let exactTimes = Column("exact_times", "INTEGER NOT NULL")
        public static let columns = [trip, start, end, headway, exactTimes]
        public static let create = createTable(primaryKey: [trip, start], withoutRowID: true)
    }
}
