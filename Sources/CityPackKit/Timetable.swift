import CityPackFormat

/// A pack's whole timetable in memory, read once from `stop`, `line`, `trip`, `service`, `service_date`,
/// `pattern`, `frequency` and `footpath` (format 4): what departure boards and the journey planner scan.
///
/// Stops, lines, trips and services are addressed by dense indices (positions in id order). Immutable after
/// loading, so it is `Sendable` and may be read from any thread.
package final class Timetable: Sendable {
    // Stops, in pack id order.
    package let stopPackID: [Int64]
    package let stopCode: [String]
    package let stopName: [String?]
    package let stopLat: [Double?]
    package let stopLon: [Double?]
    package let stopFeed: [Int32]
    package let stopLocationType: [Int8]
    /// Index of the parent station, -1 without.
    package let stopParent: [Int32]
    /// wheelchair_boarding (0 no information, 1 possible, 2 not).
    package let stopWheelchair: [Int8]
    /// Stop indices by stop_id, in (feed, id) order.
    package let stopsByCode: [String: [Int32]]
    /// Child stops of a station, in id order.
    package let children: [Int32: [Int32]]

    // Lines and trips.
    package let lineRouteID: [String]
    package let lineShortName: [String?]
    package let lineLongName: [String?]
    package let lineType: [Int]
    package let lineColour: [String?]
    package let lineTextColour: [String?]
    package let tripCode: [String]
    package let tripLine: [Int32]
    package let tripService: [Int32]
    package let tripHeadsign: [String?]
    /// wheelchair_accessible (0 no information, 1 accessible, 2 not).
    package let tripWheelchair: [Int8]

    // Services.
    package let serviceStart: [Int?]
    package let serviceEnd: [Int?]
    package let serviceDays: [Int?]
    /// calendar_dates by service index: yyyymmdd → 1 added, 2 removed.
    package let serviceExceptions: [[Int: Int]]

    /// The stored patterns (a frequency pattern's times are offsets from its trip's first departure).
    package let patterns: [Pattern]
    /// Frequency windows by trip index: (start, end, headway) sorted by start.
    package let frequencies: [Int32: [(start: Int, end: Int, headway: Int)]]
    /// (pattern, position) pairs at each stop, pattern then position order.
    package let stopPatterns: [[(pattern: Int32, position: Int32)]]
    /// Footpaths leaving each stop (to another stop), to-index order.
    package let footpaths: [[Footpath]]
    /// transfers.txt's change time at one stop: seconds, -1 forbidden, nil when it says nothing.
    package let sameStopChange: [Int32?]
    /// meta `transit_max_seconds`.
    package let maxSeconds: Int
    /// Each feed's time zone (agency_timezone), feed order.
    package let timezones: [String]

    /// One pattern: ordered stops, trips, and times stop-major (`departures[i * tripCount + k]`), so a stop's
    /// column of departures is contiguous and ascending.
    package struct Pattern: Sendable {
        package var stops: [Int32]
        package var trips: [Int32]
        package var arrivals: [Int32]
        package var departures: [Int32]
        package var through: Bool
        package var frequency: Bool
        package var tripCount: Int { trips.count }
    }

    /// A change from one stop to another.
    package struct Footpath: Sendable {
        package var to: Int32
        package var metres: Int32
        /// transfers.txt's time, nil to walk the metres.
        package var seconds: Int32?
    }

    /// Reads the timetable; an empty one for packs without transit tables (format before 4).
    static func load(_ db: PackConnection.Database, meta: [String: String]) throws(PackError) -> Timetable {
        typealias S = PackSchema.Stop
        typealias L = PackSchema.Line
        typealias T = PackSchema.Trip
        typealias V = PackSchema.Service
        typealias X = PackSchema.ServiceDate
        typealias P = PackSchema.Pattern
        typealias F = PackSchema.Frequency
        typealias W = PackSchema.Footpath
        let hasPatterns = try db.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(P.table)'") > 0
        var b = Builder()
        func text(_ s: PackConnection.Statement, _ c: Int32) -> String? { s.isNull(c) ? nil : s.text(c) }
        // Format 4 has wheelchair columns; older packs have no timetable either.
        let stopWheelchair = hasPatterns ? S.wheelchair.name : "NULL"
        let tripWheelchair = hasPatterns ? T.wheelchair.name : "NULL"
        let stops = try db.prepare(
            "SELECT \(PackSchema.list([S.id, S.feed, S.stopID, S.name, S.lat, S.lon, S.locationType, S.parent])), "
                + "\(stopWheelchair) FROM \(S.table) ORDER BY \(S.id)")
        var stopIndex: [Int64: Int32] = [:]
        var parents: [Int64?] = []
        while try stops.step() {
            stopIndex[stops.int64(0)] = Int32(b.stopPackID.count)
            b.stopPackID.append(stops.int64(0))
            b.stopFeed.append(Int32(stops.int64(1)))
            b.stopCode.append(stops.text(2) ?? "")
            b.stopName.append(text(stops, 3))
            b.stopLat.append(stops.isNull(4) ? nil : stops.double(4))
            b.stopLon.append(stops.isNull(5) ? nil : stops.double(5))
            b.stopLocationType.append(Int8(truncatingIfNeeded: stops.int64(6)))
            parents.append(stops.isNull(7) ? nil : stops.int64(7))
            b.stopWheelchair.append(stops.isNull(8) ? 0 : Int8(truncatingIfNeeded: stops.int64(8)))
        }
        b.stopParent = parents.map { $0.flatMap { stopIndex[$0] } ?? -1 }
        let lines = try db.prepare(
            "SELECT \(PackSchema.list([L.id, L.routeID, L.shortName, L.longName, L.type, L.colour, L.textColour])) "
                + "FROM \(L.table) ORDER BY \(L.id)")
        var lineIndex: [Int64: Int32] = [:]
        while try lines.step() {
            lineIndex[lines.int64(0)] = Int32(b.lineRouteID.count)
            b.lineRouteID.append(lines.text(1) ?? "")
            b.lineShortName.append(text(lines, 2))
            b.lineLongName.append(text(lines, 3))
            b.lineType.append(Int(lines.int64(4)))
            b.lineColour.append(text(lines, 5))
            b.lineTextColour.append(text(lines, 6))
        }
        let services = try db.prepare(
            "SELECT \(V.id), \(V.startDate), \(V.endDate), \(V.days) FROM \(V.table) ORDER BY \(V.id)")
        var serviceIndex: [Int64: Int32] = [:]
        while try services.step() {
            serviceIndex[services.int64(0)] = Int32(b.serviceStart.count)
            b.serviceStart.append(services.isNull(1) ? nil : Int(services.int64(1)))
            b.serviceEnd.append(services.isNull(2) ? nil : Int(services.int64(2)))
            b.serviceDays.append(services.isNull(3) ? nil : Int(services.int64(3)))
        }
        b.serviceExceptions = Array(repeating: [:], count: b.serviceStart.count)
        let dates = try db.prepare("SELECT \(X.service), \(X.date), \(X.type) FROM \(X.table)")
        while try dates.step() {
            guard let service = serviceIndex[dates.int64(0)] else { continue }
            b.serviceExceptions[Int(service)][Int(dates.int64(1))] = Int(dates.int64(2))
        }
        let trips = try db.prepare(
            "SELECT \(T.id), \(T.tripID), \(T.line), \(T.service), \(T.headsign), \(tripWheelchair) FROM \(T.table) "
                + "ORDER BY \(T.id)")
        var tripIndex: [Int64: Int32] = [:]
        while try trips.step() {
            guard let line = lineIndex[trips.int64(2)], let service = serviceIndex[trips.int64(3)] else { continue }
            tripIndex[trips.int64(0)] = Int32(b.tripCode.count)
            b.tripCode.append(trips.text(1) ?? "")
            b.tripLine.append(line)
            b.tripService.append(service)
            b.tripHeadsign.append(text(trips, 4))
            b.tripWheelchair.append(trips.isNull(5) ? 0 : Int8(truncatingIfNeeded: trips.int64(5)))
        }
        if hasPatterns {
            let rows = try db.prepare(P.allQuery)
            while try rows.step() {
                let flags = rows.int64(1)
                guard let stopIDs = TimetableCoding.decodeVarints(rows.blob(2)).map(TimetableCoding.sums),
                    let tripIDs = TimetableCoding.decodeVarints(rows.blob(3)).map(TimetableCoding.sums),
                    let numbers = TimetableCoding.decodeVarints(rows.blob(4)),
                    let times = TimetableCoding.decodeTimes(numbers, stopCount: stopIDs.count),
                    times.arrivals.count == stopIDs.count * tripIDs.count
                else { throw PackError.notAPack(path: "pattern \(rows.int64(0))", message: "damaged pattern row") }
                b.addPattern(
                    stops: stopIDs.map { stopIndex[$0] ?? -1 }, trips: tripIDs.map { tripIndex[$0] ?? -1 },
                    arrivals: times.arrivals, departures: times.departures,
                    through: flags & P.throughFlag != 0, frequency: flags & P.frequencyFlag != 0)
            }
            let footpaths = try db.prepare(W.allQuery)
            b.footpaths = Array(repeating: [], count: b.stopPackID.count)
            b.sameStopChange = Array(repeating: nil, count: b.stopPackID.count)
            while try footpaths.step() {
                guard let from = stopIndex[footpaths.int64(0)], let to = stopIndex[footpaths.int64(1)] else { continue }
                let seconds = footpaths.isNull(3) ? nil : Int32(footpaths.int64(3))
                if from == to {
                    b.sameStopChange[Int(from)] = seconds
                } else {
                    b.footpaths[Int(from)].append(Footpath(to: to, metres: Int32(footpaths.int64(2)), seconds: seconds))
                }
            }
        }
        let windows = try db.prepare(
            "SELECT \(F.trip), \(F.start), \(F.end), \(F.headway) FROM \(F.table) ORDER BY \(F.trip), \(F.start)")
        while try windows.step() {
            guard let trip = tripIndex[windows.int64(0)] else { continue }
            b.frequencies[trip, default: []].append(
                (Int(windows.int64(1)), Int(windows.int64(2)), Int(windows.int64(3))))
        }
        b.maxSeconds = meta[PackSchema.MetaKey.transitMaxSeconds].flatMap { Int($0) } ?? 0
        b.timezones = (meta[PackSchema.MetaKey.transitTimezones] ?? "").split(separator: ",").map(String.init)
        return Timetable(b)
    }

    /// Mutable fields while loading.
    private struct Builder {
        var stopPackID: [Int64] = []
        var stopCode: [String] = []
        var stopName: [String?] = []
        var stopLat: [Double?] = []
        var stopLon: [Double?] = []
        var stopFeed: [Int32] = []
        var stopLocationType: [Int8] = []
        var stopParent: [Int32] = []
        var stopWheelchair: [Int8] = []
        var lineRouteID: [String] = []
        var lineShortName: [String?] = []
        var lineLongName: [String?] = []
        var lineType: [Int] = []
        var lineColour: [String?] = []
        var lineTextColour: [String?] = []
        var tripCode: [String] = []
        var tripLine: [Int32] = []
        var tripService: [Int32] = []
        var tripHeadsign: [String?] = []
        var tripWheelchair: [Int8] = []
        var serviceStart: [Int?] = []
        var serviceEnd: [Int?] = []
        var serviceDays: [Int?] = []
        var serviceExceptions: [[Int: Int]] = []
        var patterns: [Pattern] = []
        var frequencies: [Int32: [(start: Int, end: Int, headway: Int)]] = [:]
        var footpaths: [[Footpath]] = []
        var sameStopChange: [Int32?] = []
        var maxSeconds = 0
        var timezones: [String] = []

        /// Transposes trip-major times to stop-major.
        mutating func addPattern(
            stops: [Int32], trips: [Int32], arrivals: [Int64], departures: [Int64], through: Bool, frequency: Bool
        ) {
            let n = stops.count, m = trips.count
            var arr = [Int32](repeating: 0, count: n * m)
            var dep = [Int32](repeating: 0, count: n * m)
            for k in 0..<m {
                for i in 0..<n {
                    arr[i * m + k] = Int32(clamping: arrivals[k * n + i])
                    dep[i * m + k] = Int32(clamping: departures[k * n + i])
                }
            }
            patterns.append(Pattern(stops: stops, trips: trips, arrivals: arr, departures: dep, through: through,
                frequency: frequency))
        }
    }

    private init(_ b: Builder) {
        stopPackID = b.stopPackID
        stopCode = b.stopCode
        stopName = b.stopName
        stopLat = b.stopLat
        stopLon = b.stopLon
        stopFeed = b.stopFeed
        stopLocationType = b.stopLocationType
        stopParent = b.stopParent
        stopWheelchair = b.stopWheelchair
        var byCode: [String: [Int32]] = [:]
        let order = b.stopPackID.indices.sorted { (b.stopFeed[$0], b.stopPackID[$0]) < (b.stopFeed[$1], b.stopPackID[$1]) }
        for i in order { byCode[b.stopCode[i], default: []].append(Int32(i)) }
        stopsByCode = byCode
        var kids: [Int32: [Int32]] = [:]
        for (i, parent) in b.stopParent.enumerated() where parent >= 0 { kids[parent, default: []].append(Int32(i)) }
        children = kids
        lineRouteID = b.lineRouteID
        lineShortName = b.lineShortName
        lineLongName = b.lineLongName
        lineType = b.lineType
        lineColour = b.lineColour
        lineTextColour = b.lineTextColour
        tripCode = b.tripCode
        tripLine = b.tripLine
        tripService = b.tripService
        tripHeadsign = b.tripHeadsign
        tripWheelchair = b.tripWheelchair
        serviceStart = b.serviceStart
        serviceEnd = b.serviceEnd
        serviceDays = b.serviceDays
        serviceExceptions = b.serviceExceptions
        patterns = b.patterns
        frequencies = b.frequencies
        var at = [[(pattern: Int32, position: Int32)]](repeating: [], count: b.stopPackID.count)
        for (p, pattern) in b.patterns.enumerated() {
            for (i, stop) in pattern.stops.enumerated() where stop >= 0 { at[Int(stop)].append((Int32(p), Int32(i))) }
        }
        stopPatterns = at
        footpaths = b.footpaths.isEmpty ? Array(repeating: [], count: b.stopPackID.count) : b.footpaths
        sameStopChange = b.sameStopChange.isEmpty ? Array(repeating: nil, count: b.stopPackID.count) : b.sameStopChange
        maxSeconds = b.maxSeconds
        timezones = b.timezones
    }

    /// Whether a service runs on a date: calendar_dates decides when it names the date; else the calendar's
    /// date range and weekday mask.
    package func serviceRuns(_ service: Int32, on date: ServiceDate) -> Bool {
        let s = Int(service), day = date.yyyymmdd
        if let type = serviceExceptions[s][day] { return type == 1 }
        guard let start = serviceStart[s], let end = serviceEnd[s], let days = serviceDays[s] else { return false }
        return start <= day && day <= end && days & (1 << date.weekday) != 0
    }

    /// The display name of a trip's line: short name, else long name, else route_id.
    package func lineName(trip: Int32) -> String {
        let line = Int(tripLine[Int(trip)])
        return lineShortName[line] ?? lineLongName[line] ?? lineRouteID[line]
    }
}
