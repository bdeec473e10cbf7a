import CityPackGeometry
import Foundation
import CityPackDiagnostics
import CityPackModel

/// One table's bytes as the parser reads them: pieces from `read` (see
/// ``CSVScanner/scan(file:options:bag:read:onRow:)``), never the whole table at once.
struct GTFSTableInput {
    /// Display path.
    let file: String
    /// Expected size in bytes (for reserving capacity; may be wrong).
    let sizeHint: Int
    let read: (UnsafeMutableRawBufferPointer) throws -> Int
}

/// Parses each GTFS table's rows into the model. One method per table; shared lookups live here.
struct GTFSTableParser {
    /// Receives diagnostics; the reader points it at a holding bag while a zip entry is not yet known sound.
    var bag: DiagnosticBag
    private var timezoneCache: [String: Bool] = [:]
    private var stopIndex: [String: Int32] = [:]
    private var tripIndex: [String: Int32] = [:]
    private var shapeIndex: [String: Int32] = [:]

    /// Where rows start in each file read (display path → header and marks), for ``GTFSCellFinder``.
    private(set) var rowIndexes: [String: CSVRowIndex] = [:]
    /// Progress of the table being parsed, when the caller asked for it.
    var rowProgress: GTFSRowProgress?
    /// Unusual IDs of the table being parsed, reported once per distinct value when it ends.
    private let ids = NonASCIIIDs()

    init(bag: DiagnosticBag) { self.bag = bag }

    mutating func parse(table: String, input: GTFSTableInput, options: CSVOptions, into feed: inout GTFSFeed) throws {
        let summary: CSVScanSummary
        switch table {
        case "agency": summary = try agency(input, options, &feed)
        case "stops": summary = try stops(input, options, &feed)
        case "routes": summary = try routes(input, options, &feed)
        case "trips": summary = try trips(input, options, &feed)
        case "stop_times": summary = try stopTimes(input, options, &feed)
        case "calendar": summary = try calendar(input, options, &feed)
        case "calendar_dates": summary = try calendarDates(input, options, &feed)
        case "shapes": summary = try shapes(input, options, &feed)
        case "frequencies": summary = try frequencies(input, options, &feed)
        case "transfers": summary = try transfers(input, options, &feed)
        case "feed_info": summary = try feedInfo(input, options, &feed)
        default: summary = try scan(input, options) { _ in }
        }
        if summary.header != nil { feed.headerLines[table] = summary.headerLine }
        keepRowIndex(summary, file: input.file)
        ids.flush(into: bag)
    }

    /// Tables without a model type: syntax is checked; those with keys or references are kept as text.
    mutating func parseOther(table: String, input: GTFSTableInput, options: CSVOptions, into feed: inout GTFSFeed) throws {
        let keep = table != "translations"
        var extra = TransitExtraTable(columns: [])
        let summary = try scan(input, options) { row in
            guard keep else { return }
            if extra.columns.isEmpty { extra.columns = row.header.names }
            extra.rows.append((0..<row.fields.count).map { row.string($0) })
            extra.lines.append(Int32(truncatingIfNeeded: row.line))
        }
        guard let header = summary.header else { return }
        keepRowIndex(summary, file: input.file)
        feed.headerLines[table] = summary.headerLine
        if keep {
            extra.columns = header.names
            feed.extraTables[table] = extra
        }
    }

    private func scan(_ input: GTFSTableInput, _ options: CSVOptions, _ onRow: (CSVRow) -> Void) throws -> CSVScanSummary {
        guard let progress = rowProgress else {
            return try CSVScanner.scan(file: input.file, options: options, bag: bag, read: input.read, onRow: onRow)
        }
        return try CSVScanner.scan(file: input.file, options: options, bag: bag, read: input.read) { row in
            onRow(row)
            progress.row()
        }
    }

    /// Keeps where the rows of a file just read start.
    private mutating func keepRowIndex(_ summary: CSVScanSummary, file: String) {
        guard let header = summary.header, !summary.rowMarks.isEmpty else { return }
        rowIndexes[file] = CSVRowIndex(header: header, marks: summary.rowMarks)
    }

    // MARK: Tables

    private mutating func agency(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: (id: Int?, name: Int?, url: Int?, tz: Int?)?
        var cache = timezoneCache
        defer { timezoneCache = cache }
        return try scan(input, options) { row in
            let h = row.header
            if c == nil {
                c = (h.index(of: "agency_id"), h.index(of: "agency_name"), h.index(of: "agency_url"),
                    h.index(of: "agency_timezone"))
            }
            let k = c!
            let cells = GTFSCells(row, bag: bag, key: k.id ?? k.name, ids: ids)
            let id = cells.id(k.id, "agency_id", required: false)
            let name = cells.required(k.name, "agency_name") ?? ""
            let url = cells.url(k.url, "agency_url", required: true) ?? ""
            let tz = cells.timezone(k.tz, "agency_timezone", required: true, cache: &cache) ?? ""
            feed.agencies.append(TransitAgency(id: id, name: name, url: url, timezone: tz, line: cells.line))
        }
    }

    private mutating func stops(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        var cache = timezoneCache
        var index = stopIndex
        defer {
            timezoneCache = cache
            stopIndex = index
        }
        return try scan(input, options) { row in
            if c.isEmpty {
                c = ["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station",
                    "stop_timezone", "stop_url", "wheelchair_boarding", "zone_id"].map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            guard let id = cells.id(c[0], "stop_id") else { return }
            let name = cells.string(c[1])
            var lat = cells.double(c[2], "stop_lat")
            var lon = cells.double(c[3], "stop_lon")
            if lat == nil || lon == nil { lat = nil; lon = nil }
            let type = cells.int(c[4], "location_type", in: 0...4) ?? 0
            let parent = cells.id(c[5], "parent_station", required: false)
            let timezone = cells.timezone(c[6], "stop_timezone", cache: &cache)
            _ = cells.url(c[7], "stop_url")
            let wheelchair = cells.int(c[8], "wheelchair_boarding", in: 0...2) ?? 0
            let coordinate = lat.map { Coordinate(lat: $0, lon: lon!) }
            if index[id] == nil { index[id] = Int32(feed.stops.count) }
            feed.stops.append(TransitStop(id: id, name: name, coordinate: coordinate, locationType: Int8(type),
                parentStation: parent, zoneID: cells.id(c[9], "zone_id", required: false), timezone: timezone,
                wheelchairBoarding: Int8(wheelchair), line: cells.line))
        }
    }

    private func routes(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        return try scan(input, options) { row in
            if c.isEmpty {
                c = ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type", "route_color",
                    "route_text_color", "route_url", "route_sort_order", "continuous_pickup", "continuous_drop_off", "network_id"]
                    .map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            guard let id = cells.id(c[0], "route_id") else { return }
            var type = -1
            if let col = c[4], !row.isEmpty(col) {
                if let v = CSVValues.int(row.raw(col)), (0...12).contains(v) || (100...1702).contains(v) {
                    type = v
                } else {
                    cells.invalid(col, "a route type (0–12 or an extended type 100–1702)")
                }
            } else {
                cells.missing(c[4], "route_type")
            }
            _ = cells.url(c[7], "route_url")
            _ = cells.int(c[8], "route_sort_order", in: 0...Int(Int32.max))
            _ = cells.int(c[9], "continuous_pickup", in: 0...3)
            _ = cells.int(c[10], "continuous_drop_off", in: 0...3)
            feed.routes.append(TransitRoute(
                id: id, agencyID: cells.id(c[1], "agency_id", required: false), shortName: cells.string(c[2]),
                longName: cells.string(c[3]), type: Int32(type), color: cells.color(c[5]),
                textColor: cells.color(c[6]), networkID: cells.id(c[11], "network_id", required: false), line: cells.line))
        }
    }

    private mutating func trips(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        var index = tripIndex
        defer { tripIndex = index }
        return try scan(input, options) { row in
            if c.isEmpty {
                c = ["trip_id", "route_id", "service_id", "trip_headsign", "direction_id", "block_id", "shape_id",
                    "wheelchair_accessible", "bikes_allowed"].map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            let id = cells.id(c[0], "trip_id")
            let route = cells.id(c[1], "route_id")
            let service = cells.id(c[2], "service_id")
            let direction = cells.int(c[4], "direction_id", in: 0...1)
            let wheelchair = cells.int(c[7], "wheelchair_accessible", in: 0...2) ?? 0
            _ = cells.int(c[8], "bikes_allowed", in: 0...2)
            guard let id, let route, let service else { return }
            if index[id] == nil { index[id] = Int32(feed.trips.count) }
            feed.trips.append(TransitTrip(
                id: id, routeID: route, serviceID: service, headsign: cells.string(c[3]),
                directionID: direction.map(Int8.init), blockID: cells.id(c[5], "block_id", required: false),
                shapeID: cells.id(c[6], "shape_id", required: false), wheelchairAccessible: Int8(wheelchair),
                line: cells.line))
        }
    }

    private func stopTimes(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        var st = TransitStopTimes()
        // Room for the shortest plausible rows (`T,08:00:00,08:00:00,S,1` is 24 bytes): growing a 10-million-row
        // column copies it, while capacity that is never filled costs address space, not memory (the pages are
        // never touched). The size is the file's or the entry's declared one, and at most the rows limit.
        let estimate = max(16, min(input.sizeHint / 24, options.maxRows + 1))
        st.trip.reserveCapacity(estimate)
        st.stop.reserveCapacity(estimate)
        st.sequence.reserveCapacity(estimate)
        st.arrival.reserveCapacity(estimate)
        st.departure.reserveCapacity(estimate)
        st.distance.reserveCapacity(estimate)
        st.line.reserveCapacity(estimate)
        // Rows are usually grouped by trip: remember the previous trip_id bytes to skip the hash lookup. (A copy:
        // the row's bytes are gone once the scanner reads on.)
        var previousTripID: [UInt8] = []
        previousTripID.reserveCapacity(64)
        var previousTrip: Int32 = -1
        let tripIndex = self.tripIndex
        let stopIndex = self.stopIndex
        let summary = try scan(input, options) { row in
            if c.isEmpty {
                c = ["trip_id", "stop_id", "stop_sequence", "arrival_time", "departure_time", "shape_dist_traveled",
                    "pickup_type", "drop_off_type", "timepoint", "location_group_id", "location_id"]
                    .map { row.header.index(of: $0) }
                if c[8] != nil { st.timepoint.reserveCapacity(estimate) }
            }
            guard let tc = c[0], !row.isEmpty(tc) else {
                GTFSCells(row, bag: bag, key: nil).missing(c[0], "trip_id")
                return
            }
            let tf = row.fields[tc]
            ids.check(row, tc, "trip_id")
            if let sc = c[1] { ids.check(row, sc, "stop_id") }
            var trip: Int32
            var unknownTrip: String?
            if previousTrip >= 0, tf.end - tf.start == previousTripID.count,
                previousTripID.withUnsafeBytes({ memcmp($0.baseAddress!, row.raw(tc).baseAddress!, $0.count) == 0 })
            {
                trip = previousTrip
            } else {
                let id = row.string(tc)!
                if let t = tripIndex[id] {
                    trip = t
                    previousTrip = t
                    previousTripID.removeAll(keepingCapacity: true)
                    previousTripID.append(contentsOf: row.raw(tc))
                } else {
                    trip = -1
                    unknownTrip = id
                }
            }
            var stop: Int32 = -1
            var unknownStop: String?
            if let sc = c[1], let id = row.string(sc) {
                if let s = stopIndex[id] { stop = s } else { unknownStop = id }
            } else if row.isEmpty(c[9]) && row.isEmpty(c[10]) {
                let cells = GTFSCells(row, bag: bag, key: tc)
                cells.missing(c[1] ?? tc, "stop_id")
            }
            var sequence: Int32 = -1
            var arrival: Int32 = -1, departure: Int32 = -1, timepoint: Int8 = -1
            var distance = Float.nan
            // Fast path for the three hot typed fields; the slow path reports.
            if let sq = c[2], !row.isEmpty(sq), let v = CSVValues.int(row.raw(sq)), v >= 0, v <= Int(Int32.max) {
                sequence = Int32(v)
            } else {
                let cells = GTFSCells(row, bag: bag, key: tc)
                if let sq = c[2], !row.isEmpty(sq) {
                    cells.invalid(sq, "a non-negative integer")
                } else {
                    cells.missing(c[2], "stop_sequence")
                }
            }
            if let ac = c[3], !row.isEmpty(ac) {
                if let v = CSVValues.time(row.raw(ac)) { arrival = v } else {
                    GTFSCells(row, bag: bag, key: tc).invalid(ac, "a time HH:MM:SS")
                }
            }
            if let dc = c[4], !row.isEmpty(dc) {
                if let v = CSVValues.time(row.raw(dc)) { departure = v } else {
                    GTFSCells(row, bag: bag, key: tc).invalid(dc, "a time HH:MM:SS")
                }
            }
            if let dc = c[5], !row.isEmpty(dc) {
                if let v = CSVValues.double(row.raw(dc)), v >= 0 { distance = Float(v) } else {
                    GTFSCells(row, bag: bag, key: tc).invalid(dc, "a non-negative number")
                }
            }
            for k in 6...7 {
                if let col = c[k], !row.isEmpty(col) {
                    let v = CSVValues.int(row.raw(col)) ?? -1
                    if v < 0 || v > 3 { GTFSCells(row, bag: bag, key: tc).invalid(col, "an integer in 0…3") }
                }
            }
            if let col = c[8], !row.isEmpty(col) {
                let v = CSVValues.int(row.raw(col)) ?? -1
                if v < 0 || v > 1 { GTFSCells(row, bag: bag, key: tc).invalid(col, "0 or 1") }
                timepoint = v == 0 || v == 1 ? Int8(v) : -1
            }
            let index = st.trip.count
            if let unknownTrip { st.unknownTripIDs[index] = unknownTrip }
            if let unknownStop { st.unknownStopIDs[index] = unknownStop }
            st.trip.append(trip)
            st.stop.append(stop)
            st.sequence.append(sequence)
            st.arrival.append(arrival)
            st.departure.append(departure)
            st.distance.append(distance)
            if c[8] != nil { st.timepoint.append(timepoint) }
            st.line.append(Int32(truncatingIfNeeded: row.line))
        }
        feed.stopTimes = st
        return summary
    }

    private func calendar(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return try scan(input, options) { row in
            if c.isEmpty { c = (["service_id", "start_date", "end_date"] + days).map { row.header.index(of: $0) } }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            let id = cells.id(c[0], "service_id")
            let start = cells.date(c[1], "start_date", required: true)
            let end = cells.date(c[2], "end_date", required: true)
            var mask: UInt8 = 0
            for (k, day) in days.enumerated() where cells.int(c[3 + k], day, in: 0...1, required: true) == 1 {
                mask |= 1 << k
            }
            guard let id, let start, let end else { return }
            feed.calendars.append(TransitCalendar(serviceID: id, days: mask, startDate: start, endDate: end,
                line: cells.line))
        }
    }

    private func calendarDates(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        return try scan(input, options) { row in
            if c.isEmpty { c = ["service_id", "date", "exception_type"].map { row.header.index(of: $0) } }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            let id = cells.id(c[0], "service_id")
            let date = cells.date(c[1], "date", required: true)
            let type = cells.int(c[2], "exception_type", in: 1...2, required: true)
            guard let id, let date, let type else { return }
            feed.calendarDates.append(TransitCalendarDate(serviceID: id, date: date, exceptionType: Int8(type),
                line: cells.line))
        }
    }

    private mutating func shapes(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        var index = shapeIndex
        var points = TransitShapePoints()
        defer { shapeIndex = index }
        let summary = try scan(input, options) { row in
            if c.isEmpty {
                c = ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence", "shape_dist_traveled"]
                    .map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            let id = cells.id(c[0], "shape_id")
            let lat = cells.double(c[1], "shape_pt_lat", required: true)
            let lon = cells.double(c[2], "shape_pt_lon", required: true)
            let seq = cells.int(c[3], "shape_pt_sequence", in: 0...Int(Int32.max), required: true)
            var dist = Float.nan
            if let col = c[4], !row.isEmpty(col) {
                if let v = CSVValues.double(row.raw(col)), v >= 0 { dist = Float(v) } else {
                    cells.invalid(col, "a non-negative number")
                }
            }
            guard let id, let lat, let lon, let seq else { return }
            let s: Int32
            if let known = index[id] { s = known } else {
                s = Int32(points.ids.count)
                index[id] = s
                points.ids.append(id)
            }
            points.shape.append(s)
            points.lat.append(lat)
            points.lon.append(lon)
            points.sequence.append(Int32(seq))
            points.distance.append(dist)
            points.line.append(cells.line)
        }
        feed.shapes = points
        return summary
    }

    private func frequencies(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        return try scan(input, options) { row in
            if c.isEmpty {
                c = ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"].map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            let id = cells.id(c[0], "trip_id")
            let start = cells.time(c[1], "start_time", required: true)
            let end = cells.time(c[2], "end_time", required: true)
            let headway = cells.int(c[3], "headway_secs", in: Int(Int32.min)...Int(Int32.max), required: true)
            let exact = cells.int(c[4], "exact_times", in: 0...1) ?? 0
            // Kept even with bad times (as -1) so the trip reference is still checked.
            guard let id else { return }
            feed.frequencies.append(TransitFrequency(tripID: id, startTime: start ?? -1, endTime: end ?? -1,
                headwaySecs: Int32(headway ?? 0), exactTimes: exact == 1, line: cells.line))
        }
    }

    private func transfers(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        return try scan(input, options) { row in
            if c.isEmpty {
                c = ["from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id",
                    "transfer_type", "min_transfer_time"].map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: c[0], ids: ids)
            let type = cells.int(c[6], "transfer_type", in: 0...5) ?? 0
            let minTime = cells.int(c[7], "min_transfer_time", in: 0...Int(Int32.max))
            feed.transfers.append(TransitTransfer(
                fromStopID: cells.id(c[0], "from_stop_id", required: false),
                toStopID: cells.id(c[1], "to_stop_id", required: false),
                fromRouteID: cells.id(c[2], "from_route_id", required: false),
                toRouteID: cells.id(c[3], "to_route_id", required: false),
                fromTripID: cells.id(c[4], "from_trip_id", required: false),
                toTripID: cells.id(c[5], "to_trip_id", required: false),
                transferType: Int8(type), minTransferTime: minTime.map { Int32($0) }, line: cells.line))
        }
    }

    private func feedInfo(_ input: GTFSTableInput, _ options: CSVOptions, _ feed: inout GTFSFeed) throws -> CSVScanSummary {
        var c: [Int?] = []
        return try scan(input, options) { row in
            if c.isEmpty {
                c = ["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date",
                    "feed_version"].map { row.header.index(of: $0) }
            }
            let cells = GTFSCells(row, bag: bag, key: nil)
            let info = TransitFeedInfo(
                publisherName: cells.required(c[0], "feed_publisher_name") ?? "",
                publisherURL: cells.url(c[1], "feed_publisher_url", required: true) ?? "",
                lang: cells.required(c[2], "feed_lang") ?? "", startDate: cells.date(c[3], "feed_start_date"),
                endDate: cells.date(c[4], "feed_end_date"), version: cells.string(c[5]), line: cells.line)
            if feed.feedInfo == nil { feed.feedInfo = info }
        }
    }

    // MARK: Indexing

    /// Groups stop_times by trip, sorted by stop_sequence (stable, so duplicate sequences keep file order).
    static func indexStopTimes(_ feed: inout GTFSFeed) {
        let st = feed.stopTimes
        let tripCount = feed.trips.count
        var counts = [Int32](repeating: 0, count: tripCount + 1)
        for t in st.trip where t >= 0 { counts[Int(t) + 1] += 1 }
        for i in 0..<tripCount { counts[i + 1] += counts[i] }
        var ranges: [Range<Int32>] = []
        ranges.reserveCapacity(tripCount)
        for i in 0..<tripCount { ranges.append(counts[i]..<counts[i + 1]) }
        var cursor = counts
        var order = [Int32](repeating: 0, count: Int(counts[tripCount]))
        for (row, t) in st.trip.enumerated() where t >= 0 {
            order[Int(cursor[Int(t)])] = Int32(row)
            cursor[Int(t)] += 1
        }
        let sequence = st.sequence
        for r in ranges where r.count > 1 {
            var sorted = true
            for k in (r.lowerBound + 1)..<r.upperBound
            where sequence[Int(order[Int(k)])] < sequence[Int(order[Int(k) - 1])] {
                sorted = false
                break
            }
            if !sorted {
                let slice = order[Int(r.lowerBound)..<Int(r.upperBound)].enumerated().sorted { a, b in
                    let sa = sequence[Int(a.element)], sb = sequence[Int(b.element)]
                    return sa != sb ? sa < sb : a.offset < b.offset
                }.map(\.element)
                order.replaceSubrange(Int(r.lowerBound)..<Int(r.upperBound), with: slice)
            }
        }
        feed.stopTimes.byTrip = order
        feed.stopTimes.tripRanges = ranges
    }
}
