import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import Foundation

// The build cache's encoding of GTFS feeds (CacheCodec.swift has the primitives and the other model types).

// MARK: GTFS

extension CacheWriter {
    mutating func intDictionary(_ d: [Int: String]) {
        count(d.count)
        for (k, v) in d.sorted(by: { $0.key < $1.key }) {
            int(k)
            string(v)
        }
    }
    mutating func feed(_ f: GTFSFeed) {
        string(f.displayPath)
        dictionary(f.files)
        strings(f.allFileNames)
        count(f.headerLines.count)
        for (k, v) in f.headerLines.sorted(by: { $0.key < $1.key }) {
            string(k)
            int(v)
        }
        array(f.agencies) { w, a in
            w.string(a.id)
            w.string(a.name)
            w.string(a.url)
            w.string(a.timezone)
            w.fixed(a.line)
        }
        array(f.stops) { w, s in
            w.string(s.id)
            w.string(s.name)
            w.optional(s.coordinate) { $0.coordinate($1) }
            w.fixed(s.locationType)
            w.string(s.parentStation)
            w.string(s.zoneID)
            w.string(s.timezone)
            w.fixed(s.wheelchairBoarding)
            w.fixed(s.line)
        }
        array(f.routes) { w, r in
            w.string(r.id)
            w.string(r.agencyID)
            w.string(r.shortName)
            w.string(r.longName)
            w.fixed(r.type)
            w.string(r.color)
            w.string(r.textColor)
            w.string(r.networkID)
            w.fixed(r.line)
        }
        array(f.trips) { w, t in
            w.string(t.id)
            w.string(t.routeID)
            w.string(t.serviceID)
            w.string(t.headsign)
            w.optional(t.directionID) { $0.fixed($1) }
            w.string(t.blockID)
            w.string(t.shapeID)
            w.fixed(t.wheelchairAccessible)
            w.fixed(t.line)
        }
        let st = f.stopTimes
        block(st.trip)
        block(st.stop)
        block(st.sequence)
        block(st.arrival)
        block(st.departure)
        block(st.distance)
        block(st.timepoint)
        block(st.line)
        intDictionary(st.unknownTripIDs)
        intDictionary(st.unknownStopIDs)
        block(st.byTrip)
        block(st.tripRanges.map(\.lowerBound))
        block(st.tripRanges.map(\.upperBound))
        array(f.calendars) { w, c in
            w.string(c.serviceID)
            w.u8(c.days)
            w.fixed(c.startDate)
            w.fixed(c.endDate)
            w.fixed(c.line)
        }
        array(f.calendarDates) { w, c in
            w.string(c.serviceID)
            w.fixed(c.date)
            w.fixed(c.exceptionType)
            w.fixed(c.line)
        }
        let sh = f.shapes
        strings(sh.ids)
        block(sh.shape)
        block(sh.lat)
        block(sh.lon)
        block(sh.sequence)
        block(sh.distance)
        block(sh.line)
        array(f.frequencies) { w, q in
            w.string(q.tripID)
            w.fixed(q.startTime)
            w.fixed(q.endTime)
            w.fixed(q.headwaySecs)
            w.bool(q.exactTimes)
            w.fixed(q.line)
        }
        array(f.transfers) { w, t in
            w.string(t.fromStopID)
            w.string(t.toStopID)
            w.string(t.fromRouteID)
            w.string(t.toRouteID)
            w.string(t.fromTripID)
            w.string(t.toTripID)
            w.fixed(t.transferType)
            w.optional(t.minTransferTime) { $0.fixed($1) }
            w.fixed(t.line)
        }
        optional(f.feedInfo) { w, i in
            w.string(i.publisherName)
            w.string(i.publisherURL)
            w.string(i.lang)
            w.optional(i.startDate) { $0.fixed($1) }
            w.optional(i.endDate) { $0.fixed($1) }
            w.string(i.version)
            w.fixed(i.line)
        }
        optional(f.archiveTime) { $0.fixed($1) }
        count(f.extraTables.count)
        for (name, table) in f.extraTables.sorted(by: { $0.key < $1.key }) {
            string(name)
            strings(table.columns)
            array(table.rows) { w, row in w.array(row) { $0.string($1) } }
            block(table.lines)
        }
    }
}

extension CacheReader {
    mutating func intDictionary() throws(Malformed) -> [Int: String] {
        let n = try count()
        var d: [Int: String] = [:]
        for _ in 0..<n {
            let k = try int()
            d[k] = try string()
        }
        return d
    }
    mutating func feed() throws(Malformed) -> GTFSFeed {
        var f = GTFSFeed(displayPath: try string(), files: try dictionary(), allFileNames: try strings())
        let headers = try count()
        for _ in 0..<headers {
            let k = try string()
            f.headerLines[k] = try int()
        }
        f.agencies = try array { r throws(Malformed) in
            TransitAgency(id: try r.optionalString(), name: try r.string(), url: try r.string(), timezone: try r.string(), line: try r.fixed())
        }
        f.stops = try array { r throws(Malformed) in
            TransitStop(
                id: try r.string(), name: try r.optionalString(), coordinate: try r.optional { r throws(Malformed) in try r.coordinate() },
                locationType: try r.fixed(), parentStation: try r.optionalString(), zoneID: try r.optionalString(),
                timezone: try r.optionalString(), wheelchairBoarding: try r.fixed(), line: try r.fixed())
        }
        f.routes = try array { r throws(Malformed) in
            TransitRoute(
                id: try r.string(), agencyID: try r.optionalString(), shortName: try r.optionalString(),
                longName: try r.optionalString(), type: try r.fixed(), color: try r.optionalString(),
                textColor: try r.optionalString(), networkID: try r.optionalString(), line: try r.fixed())
        }
        f.trips = try array { r throws(Malformed) in
            TransitTrip(
                id: try r.string(), routeID: try r.string(), serviceID: try r.string(), headsign: try r.optionalString(),
                directionID: try r.optional { r throws(Malformed) in try r.fixed(Int8.self) }, blockID: try r.optionalString(),
                shapeID: try r.optionalString(), wheelchairAccessible: try r.fixed(), line: try r.fixed())
        }
        var st = TransitStopTimes()
        st.trip = try block()
        st.stop = try block()
        st.sequence = try block()
        st.arrival = try block()
        st.departure = try block()
        st.distance = try block()
        st.timepoint = try block()
        st.line = try block()
        st.unknownTripIDs = try intDictionary()
        st.unknownStopIDs = try intDictionary()
        st.byTrip = try block()
        let lower: [Int32] = try block(), upper: [Int32] = try block()
        guard lower.count == upper.count, zip(lower, upper).allSatisfy({ $0 <= $1 }) else { throw Malformed() }
        st.tripRanges = zip(lower, upper).map { $0..<$1 }
        f.stopTimes = st
        f.calendars = try array { r throws(Malformed) in
            TransitCalendar(serviceID: try r.string(), days: try r.u8(), startDate: try r.fixed(), endDate: try r.fixed(), line: try r.fixed())
        }
        f.calendarDates = try array { r throws(Malformed) in
            TransitCalendarDate(serviceID: try r.string(), date: try r.fixed(), exceptionType: try r.fixed(), line: try r.fixed())
        }
        var sh = TransitShapePoints()
        sh.ids = try strings()
        sh.shape = try block()
        sh.lat = try block()
        sh.lon = try block()
        sh.sequence = try block()
        sh.distance = try block()
        sh.line = try block()
        f.shapes = sh
        f.frequencies = try array { r throws(Malformed) in
            TransitFrequency(
                tripID: try r.string(), startTime: try r.fixed(), endTime: try r.fixed(), headwaySecs: try r.fixed(),
                exactTimes: try r.bool(), line: try r.fixed())
        }
        f.transfers = try array { r throws(Malformed) in
            TransitTransfer(
                fromStopID: try r.optionalString(), toStopID: try r.optionalString(), fromRouteID: try r.optionalString(),
                toRouteID: try r.optionalString(), fromTripID: try r.optionalString(), toTripID: try r.optionalString(),
                transferType: try r.fixed(), minTransferTime: try r.optional { r throws(Malformed) in try r.fixed(Int32.self) },
                line: try r.fixed())
        }
        f.feedInfo = try optional { r throws(Malformed) in
            TransitFeedInfo(
                publisherName: try r.string(), publisherURL: try r.string(), lang: try r.string(),
                startDate: try r.optional { r throws(Malformed) in try r.fixed(Int32.self) },
                endDate: try r.optional { r throws(Malformed) in try r.fixed(Int32.self) }, version: try r.optionalString(),
                line: try r.fixed())
        }
        f.archiveTime = try optional { r throws(Malformed) in try r.fixed(Int64.self) }
        let tables = try count()
        for _ in 0..<tables {
            let name = try string()
            let columns = try strings()
            let rows = try array { r throws(Malformed) in try r.array { r throws(Malformed) in try r.optionalString() } }
            f.extraTables[name] = TransitExtraTable(columns: columns, rows: rows, lines: try block())
        }
        return f
    }
}
