/// The transit tables (GTFS; ``PackSchema`` describes their contents).
extension PackSchema {
    /// `stop`: every stop of every feed; ids from ``PackSchema/stopID(index:)``.
    package enum Stop: TableSchema {
        package static let table = Table.stop
        /// The alias of `Stop` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "st"
        package static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        package static let feed = Column<Int>("feed", "INTEGER NOT NULL")
        package static let stopID = Column<String>("stop_id", "TEXT NOT NULL")
        package static let name = Column<String?>("name", "TEXT")
        package static let lat = Column<Double?>("lat", "REAL")
        package static let lon = Column<Double?>("lon", "REAL")
        package static let cell = Column<Int64?>("cell", "INTEGER")
        package static let locationType = Column<Int>("location_type", "INTEGER NOT NULL")
        package static let parent = Column<Int64?>("parent", "INTEGER")
        /// wheelchair_boarding: NULL no information, 1 possible, 2 not possible.
        package static let wheelchair = Column<Int?>("wheelchair", "INTEGER")
        package static let columns: [any AnyColumn] = [id, feed, stopID, name, lat, lon, cell, locationType, parent, wheelchair]
        package static let create = createTable(withoutRowID: false)
        package static let indexes = [
            Index("stop_by_stop_id", on: [stopID, feed]),
            Index("stop_by_parent", on: [parent]),
        ]
    }

    /// `stop_bucket`: the proximity index rows of stops, by cell then stop.
    package enum StopBucket: TableSchema {
        package static let table = Table.stopBucket
        /// The alias of `StopBucket` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "sb"
        package static let cell = Column<Int64>("cell", "INTEGER NOT NULL")
        package static let stop = Column<Int64>("stop", "INTEGER NOT NULL")
        package static let lat = Column<Double>("lat", "REAL NOT NULL")
        package static let lon = Column<Double>("lon", "REAL NOT NULL")
        package static let columns: [any AnyColumn] = [cell, stop, lat, lon]
        package static let create = createTable(primaryKey: [cell, stop], withoutRowID: true)
        /// Every bucketed stop's point, (stop, lat, lon): what the proximity index is built from.
        package static let pointsQuery = "SELECT \(stop), \(lat), \(lon) FROM \(table)"
        /// ``pointsQuery``, read by column.
        package static let points = Query(pointsQuery, results: [stop, lat, lon])
    }

    /// `line`: GTFS routes.
    package enum Line: TableSchema {
        package static let table = Table.line
        /// The alias of `Line` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "ln"
        package static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        package static let feed = Column<Int>("feed", "INTEGER NOT NULL")
        package static let routeID = Column<String>("route_id", "TEXT NOT NULL")
        package static let agency = Column<String?>("agency", "TEXT")
        package static let shortName = Column<String?>("short_name", "TEXT")
        package static let longName = Column<String?>("long_name", "TEXT")
        package static let type = Column<Int>("type", "INTEGER NOT NULL")
        package static let colour = Column<String?>("colour", "TEXT")
        package static let textColour = Column<String?>("text_colour", "TEXT")
        package static let columns: [any AnyColumn] = [id, feed, routeID, agency, shortName, longName, type, colour, textColour]
        package static let create = createTable(withoutRowID: false)
    }

    /// `service`: GTFS services with their calendar.
    package enum Service: TableSchema {
        package static let table = Table.service
        /// The alias of `Service` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "sv"
        package static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        package static let feed = Column<Int>("feed", "INTEGER NOT NULL")
        package static let serviceID = Column<String>("service_id", "TEXT NOT NULL")
        package static let startDate = Column<Int?>("start_date", "INTEGER")
        package static let endDate = Column<Int?>("end_date", "INTEGER")
        package static let days = Column<Int?>("days", "INTEGER")
        package static let columns: [any AnyColumn] = [id, feed, serviceID, startDate, endDate, days]
        package static let create = createTable(withoutRowID: false)
    }

    /// `service_date`: calendar_dates exceptions.
    package enum ServiceDate: TableSchema {
        package static let table = Table.serviceDate
        /// The alias of `ServiceDate` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "sd"
        package static let service = Column<Int64>("service", "INTEGER NOT NULL")
        package static let date = Column<Int>("date", "INTEGER NOT NULL")
        package static let type = Column<Int>("type", "INTEGER NOT NULL")
        package static let columns: [any AnyColumn] = [service, date, type]
        package static let create = createTable(primaryKey: [service, date], withoutRowID: true)
    }

    /// `trip`: GTFS trips.
    package enum Trip: TableSchema {
        package static let table = Table.trip
        /// The alias of `Trip` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "tr"
        package static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        package static let tripID = Column<String>("trip_id", "TEXT NOT NULL")
        package static let line = Column<Int64>("line", "INTEGER NOT NULL")
        package static let service = Column<Int64>("service", "INTEGER NOT NULL")
        package static let headsign = Column<String?>("headsign", "TEXT")
        package static let direction = Column<Int?>("direction", "INTEGER")
        /// wheelchair_accessible: NULL no information, 1 accessible, 2 not.
        package static let wheelchair = Column<Int?>("wheelchair", "INTEGER")
        package static let columns: [any AnyColumn] = [id, tripID, line, service, headsign, direction, wheelchair]
        package static let create = createTable(withoutRowID: false)
    }

    /// `pattern`: the timetable, stored once: trips grouped by their ordered stops, each group's trips sorted by
    /// departure and never overtaking one another (``TimetableCoding`` describes the BLOBs).
    package enum Pattern: TableSchema {
        package static let table = Table.pattern
        /// The alias of `Pattern` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "pt"
        package static let id = Column<Int64>("id", "INTEGER PRIMARY KEY")
        package static let flags = Column<Int64>("flags", "INTEGER NOT NULL")
        package static let stops = Column<[UInt8]>("stops", "BLOB NOT NULL")
        package static let trips = Column<[UInt8]>("trips", "BLOB NOT NULL")
        package static let times = Column<[UInt8]>("times", "BLOB NOT NULL")
        package static let columns: [any AnyColumn] = [id, flags, stops, trips, times]
        package static let create = createTable(withoutRowID: false)
        /// ``flags`` bit: the trips go on to stops outside the pack, so the last stop is also a departure.
        package static let throughFlag: Int64 = 1
        /// ``flags`` bit: the pattern holds one frequency-based trip whose times are offsets from its first
        /// departure (`frequency` gives the starts).
        package static let frequencyFlag: Int64 = 2
        /// Every pattern, in id order.
        package static let allQuery = "SELECT \(id), \(flags), \(stops), \(trips), \(times) FROM \(table) ORDER BY \(id)"
        /// ``allQuery``, read by column.
        package static let all = Query(allQuery, results: [id, flags, stops, trips, times])
    }

    /// `footpath`: changes between stops (and at one stop): transfers.txt first, then walking between stops of a
    /// feed within ``TransitWalking/radius`` metres.
    package enum Footpath: TableSchema {
        package static let table = Table.footpath
        /// The alias of `Footpath` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "fp"
        package static let from = Column<Int64>("from_stop", "INTEGER NOT NULL")
        package static let to = Column<Int64>("to_stop", "INTEGER NOT NULL")
        /// Walking metres (straight line × ``TransitWalking/detour``), rounded up; 0 at one stop.
        package static let metres = Column<Int>("metres", "INTEGER NOT NULL")
        /// transfers.txt's time in seconds; NULL: walk the metres at the reader's speed; -1: forbidden.
        package static let seconds = Column<Int?>("seconds", "INTEGER")
        package static let columns: [any AnyColumn] = [from, to, metres, seconds]
        package static let create = createTable(primaryKey: [from, to], withoutRowID: true)
        /// Every footpath by (from, to).
        package static let allQuery = "SELECT \(from), \(to), \(metres), \(seconds) FROM \(table) ORDER BY \(from), \(to)"
        /// ``allQuery``, read by column.
        package static let all = Query(allQuery, results: [from, to, metres, seconds])
    }

    /// `frequency`: headway-based trips.
    package enum Frequency: TableSchema {
        package static let table = Table.frequency
        /// The alias of `Frequency` in every query (and, upper-cased, the Swift typealias of this namespace).
        package static let alias = "fq"
        package static let trip = Column<Int64>("trip", "INTEGER NOT NULL")
        package static let start = Column<Int>("start", "INTEGER NOT NULL")
        package static let end = Column<Int>("end", "INTEGER NOT NULL")
        package static let headway = Column<Int>("headway", "INTEGER NOT NULL")
        package static let exactTimes = Column<Int>("exact_times", "INTEGER NOT NULL")
        package static let columns: [any AnyColumn] = [trip, start, end, headway, exactTimes]
        package static let create = createTable(primaryKey: [trip, start], withoutRowID: true)
    }
}
