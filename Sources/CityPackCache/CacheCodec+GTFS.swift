import CityPackFormat
import CityPackIngest
import CityPackModel

// The build cache's layout of GTFS feeds: each type's encode beside its decode (CacheCodec.swift has the
// primitives). Columns of numbers are blocks (``CacheWriter/block(_:)``).

extension TransitAgency: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(id)
        w.string(name)
        w.string(url)
        w.string(timezone)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(id: try r.optionalString(), name: try r.string(), url: try r.string(), timezone: try r.string(), line: try r.fixed())
    }
}

extension TransitStop: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(id)
        w.string(name)
        w.optional(coordinate) { $0.value($1) }
        w.fixed(locationType)
        w.string(parentStation)
        w.string(zoneID)
        w.string(timezone)
        w.fixed(wheelchairBoarding)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            id: try r.string(), name: try r.optionalString(),
            coordinate: try r.optional { r throws(CacheReader.Malformed) in try r.value(Coordinate.self) },
            locationType: try r.fixed(), parentStation: try r.optionalString(), zoneID: try r.optionalString(),
            timezone: try r.optionalString(), wheelchairBoarding: try r.fixed(), line: try r.fixed())
    }
}

extension TransitRoute: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(id)
        w.string(agencyID)
        w.string(shortName)
        w.string(longName)
        w.fixed(type)
        w.string(color)
        w.string(textColor)
        w.string(networkID)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            id: try r.string(), agencyID: try r.optionalString(), shortName: try r.optionalString(),
            longName: try r.optionalString(), type: try r.fixed(), color: try r.optionalString(),
            textColor: try r.optionalString(), networkID: try r.optionalString(), line: try r.fixed())
    }
}

extension TransitTrip: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(id)
        w.string(routeID)
        w.string(serviceID)
        w.string(headsign)
        w.optional(directionID) { $0.fixed($1) }
        w.string(blockID)
        w.string(shapeID)
        w.fixed(wheelchairAccessible)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            id: try r.string(), routeID: try r.string(), serviceID: try r.string(), headsign: try r.optionalString(),
            directionID: try r.optional { r throws(CacheReader.Malformed) in try r.fixed(Int8.self) }, blockID: try r.optionalString(),
            shapeID: try r.optionalString(), wheelchairAccessible: try r.fixed(), line: try r.fixed())
    }
}

extension TransitStopTimes: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.block(trip)
        w.block(stop)
        w.block(sequence)
        w.block(arrival)
        w.block(departure)
        w.block(distance)
        w.block(timepoint)
        w.block(line)
        w.intDictionary(unknownTripIDs)
        w.intDictionary(unknownStopIDs)
        w.block(byTrip)
        w.block(tripRanges.map(\.lowerBound))
        w.block(tripRanges.map(\.upperBound))
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init()
        trip = try r.block()
        stop = try r.block()
        sequence = try r.block()
        arrival = try r.block()
        departure = try r.block()
        distance = try r.block()
        timepoint = try r.block()
        line = try r.block()
        unknownTripIDs = try r.intDictionary()
        unknownStopIDs = try r.intDictionary()
        byTrip = try r.block()
        let lower: [Int32] = try r.block(), upper: [Int32] = try r.block()
        guard lower.count == upper.count, zip(lower, upper).allSatisfy({ $0 <= $1 }) else { throw CacheReader.Malformed() }
        tripRanges = zip(lower, upper).map { $0..<$1 }
    }
}

extension TransitCalendar: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(serviceID)
        w.u8(days)
        w.fixed(startDate)
        w.fixed(endDate)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(serviceID: try r.string(), days: try r.u8(), startDate: try r.fixed(), endDate: try r.fixed(), line: try r.fixed())
    }
}

extension TransitCalendarDate: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(serviceID)
        w.fixed(date)
        w.fixed(exceptionType)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(serviceID: try r.string(), date: try r.fixed(), exceptionType: try r.fixed(), line: try r.fixed())
    }
}

extension TransitShapePoints: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.strings(ids)
        w.block(shape)
        w.block(lat)
        w.block(lon)
        w.block(sequence)
        w.block(distance)
        w.block(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init()
        ids = try r.strings()
        shape = try r.block()
        lat = try r.block()
        lon = try r.block()
        sequence = try r.block()
        distance = try r.block()
        line = try r.block()
    }
}

extension TransitFrequency: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(tripID)
        w.fixed(startTime)
        w.fixed(endTime)
        w.fixed(headwaySecs)
        w.bool(exactTimes)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            tripID: try r.string(), startTime: try r.fixed(), endTime: try r.fixed(), headwaySecs: try r.fixed(),
            exactTimes: try r.bool(), line: try r.fixed())
    }
}

extension TransitTransfer: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(fromStopID)
        w.string(toStopID)
        w.string(fromRouteID)
        w.string(toRouteID)
        w.string(fromTripID)
        w.string(toTripID)
        w.fixed(transferType)
        w.optional(minTransferTime) { $0.fixed($1) }
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            fromStopID: try r.optionalString(), toStopID: try r.optionalString(), fromRouteID: try r.optionalString(),
            toRouteID: try r.optionalString(), fromTripID: try r.optionalString(), toTripID: try r.optionalString(),
            transferType: try r.fixed(), minTransferTime: try r.optional { r throws(CacheReader.Malformed) in try r.fixed(Int32.self) },
            line: try r.fixed())
    }
}

extension TransitFeedInfo: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(publisherName)
        w.string(publisherURL)
        w.string(lang)
        w.optional(startDate) { $0.fixed($1) }
        w.optional(endDate) { $0.fixed($1) }
        w.string(version)
        w.fixed(line)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(
            publisherName: try r.string(), publisherURL: try r.string(), lang: try r.string(),
            startDate: try r.optional { r throws(CacheReader.Malformed) in try r.fixed(Int32.self) },
            endDate: try r.optional { r throws(CacheReader.Malformed) in try r.fixed(Int32.self) }, version: try r.optionalString(),
            line: try r.fixed())
    }
}

extension TransitExtraTable: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.strings(columns)
        w.array(rows) { w, row in w.array(row) { $0.string($1) } }
        w.block(lines)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        let columns = try r.strings()
        let rows = try r.array { r throws(CacheReader.Malformed) in
            try r.array { r throws(CacheReader.Malformed) in try r.optionalString() }
        }
        self.init(columns: columns, rows: rows, lines: try r.block())
    }
}

extension GTFSFeed: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.string(displayPath)
        w.dictionary(files)
        w.strings(allFileNames)
        w.count(headerLines.count)
        for (k, v) in headerLines.sorted(by: { $0.key < $1.key }) {
            w.string(k)
            w.int(v)
        }
        w.array(agencies) { $0.value($1) }
        w.array(stops) { $0.value($1) }
        w.array(routes) { $0.value($1) }
        w.array(trips) { $0.value($1) }
        w.value(stopTimes)
        w.array(calendars) { $0.value($1) }
        w.array(calendarDates) { $0.value($1) }
        w.value(shapes)
        w.array(frequencies) { $0.value($1) }
        w.array(transfers) { $0.value($1) }
        w.optional(feedInfo) { $0.value($1) }
        w.optional(archiveTime) { $0.fixed($1) }
        w.count(extraTables.count)
        for (name, table) in extraTables.sorted(by: { $0.key < $1.key }) {
            w.string(name)
            w.value(table)
        }
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(displayPath: try r.string(), files: try r.dictionary(), allFileNames: try r.strings())
        let headers = try r.count()
        for _ in 0..<headers {
            let k = try r.string()
            headerLines[k] = try r.int()
        }
        agencies = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitAgency.self) }
        stops = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitStop.self) }
        routes = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitRoute.self) }
        trips = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitTrip.self) }
        stopTimes = try r.value()
        calendars = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitCalendar.self) }
        calendarDates = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitCalendarDate.self) }
        shapes = try r.value()
        frequencies = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitFrequency.self) }
        transfers = try r.array { r throws(CacheReader.Malformed) in try r.value(TransitTransfer.self) }
        feedInfo = try r.optional { r throws(CacheReader.Malformed) in try r.value(TransitFeedInfo.self) }
        archiveTime = try r.optional { r throws(CacheReader.Malformed) in try r.fixed(Int64.self) }
        let tables = try r.count()
        for _ in 0..<tables {
            let name = try r.string()
            extraTables[name] = try r.value(TransitExtraTable.self)
        }
    }
}

extension CacheWriter {
    /// Integer-keyed strings, ascending by key.
    package mutating func intDictionary(_ d: [Int: String]) {
        count(d.count)
        for (k, v) in d.sorted(by: { $0.key < $1.key }) {
            int(k)
            string(v)
        }
    }

    /// A feed (what the stage cache stores for `ingestGTFS`, one per feed).
    package mutating func feed(_ f: GTFSFeed) { value(f) }
}

extension CacheReader {
    /// What ``CacheWriter/intDictionary(_:)`` wrote.
    package mutating func intDictionary() throws(Malformed) -> [Int: String] {
        let n = try count()
        var d: [Int: String] = [:]
        for _ in 0..<n {
            let k = try int()
            d[k] = try string()
        }
        return d
    }

    /// What ``CacheWriter/feed(_:)`` wrote.
    package mutating func feed() throws(Malformed) -> GTFSFeed { try value() }
}
