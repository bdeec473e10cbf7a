import CityPackFormat
import CityPackSQLite

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
        typealias ST = PackSchema.Stop
        typealias LN = PackSchema.Line
        typealias TR = PackSchema.Trip
        typealias SV = PackSchema.Service
        typealias SD = PackSchema.ServiceDate
        typealias PT = PackSchema.Pattern
        typealias FQ = PackSchema.Frequency
        typealias FP = PackSchema.Footpath
        let hasPatterns = try PlaceLookup.hasTable(db, PT.table)
        var b = Builder()
        // Format 4 has wheelchair columns; older packs have no timetable either.
        let stops = try db.prepare(ST.select(
            [ST.id, ST.feed, ST.stopID, ST.name, ST.lat, ST.lon, ST.locationType, ST.parent, ST.wheelchair],
            orderBy: [ST.id], absent: hasPatterns ? [] : [ST.wheelchair]))
        var stopIndex: [Int64: Int32] = [:]
        var parents: [Int64?] = []
        while try stops.step() {
            stopIndex[stops[ST.id]] = Int32(b.stopPackID.count)
            b.stopPackID.append(stops[ST.id])
            b.stopFeed.append(Int32(stops[ST.feed]))
            b.stopCode.append(stops[ST.stopID])
            b.stopName.append(stops[ST.name])
            b.stopLat.append(stops[ST.lat])
            b.stopLon.append(stops[ST.lon])
            b.stopLocationType.append(Int8(truncatingIfNeeded: stops[ST.locationType]))
            parents.append(stops[ST.parent])
            b.stopWheelchair.append(Int8(truncatingIfNeeded: stops[ST.wheelchair] ?? 0))
        }
        b.stopParent = parents.map { $0.flatMap { stopIndex[$0] } ?? -1 }
        let lines = try db.prepare(
            LN.select([LN.id, LN.routeID, LN.shortName, LN.longName, LN.type, LN.colour, LN.textColour], orderBy: [LN.id]))
        var lineIndex: [Int64: Int32] = [:]
        while try lines.step() {
            lineIndex[lines[LN.id]] = Int32(b.lineRouteID.count)
            b.lineRouteID.append(lines[LN.routeID])
            b.lineShortName.append(lines[LN.shortName])
            b.lineLongName.append(lines[LN.longName])
            b.lineType.append(lines[LN.type])
            b.lineColour.append(lines[LN.colour])
            b.lineTextColour.append(lines[LN.textColour])
        }
        let services = try db.prepare(SV.select([SV.id, SV.startDate, SV.endDate, SV.days], orderBy: [SV.id]))
        var serviceIndex: [Int64: Int32] = [:]
        while try services.step() {
            serviceIndex[services[SV.id]] = Int32(b.serviceStart.count)
            b.serviceStart.append(services[SV.startDate])
            b.serviceEnd.append(services[SV.endDate])
            b.serviceDays.append(services[SV.days])
        }
        b.serviceExceptions = Array(repeating: [:], count: b.serviceStart.count)
        let dates = try db.prepare(SD.select([SD.service, SD.date, SD.type]))
        while try dates.step() {
            guard let service = serviceIndex[dates[SD.service]] else { continue }
            b.serviceExceptions[Int(service)][dates[SD.date]] = dates[SD.type]
        }
        let trips = try db.prepare(TR.select(
            [TR.id, TR.tripID, TR.line, TR.service, TR.headsign, TR.wheelchair], orderBy: [TR.id],
            absent: hasPatterns ? [] : [TR.wheelchair]))
        var tripIndex: [Int64: Int32] = [:]
        while try trips.step() {
            guard let line = lineIndex[trips[TR.line]], let service = serviceIndex[trips[TR.service]] else { continue }
            tripIndex[trips[TR.id]] = Int32(b.tripCode.count)
            b.tripCode.append(trips[TR.tripID])
            b.tripLine.append(line)
            b.tripService.append(service)
            b.tripHeadsign.append(trips[TR.headsign])
            b.tripWheelchair.append(Int8(truncatingIfNeeded: trips[TR.wheelchair] ?? 0))
        }
        if hasPatterns {
            let rows = try db.prepare(PT.all)
            while try rows.step() {
                let flags = rows[PT.flags]
                guard let stopIDs = TimetableCoding.decodeVarints(rows[PT.stops]).map(TimetableCoding.sums),
                    let tripIDs = TimetableCoding.decodeVarints(rows[PT.trips]).map(TimetableCoding.sums),
                    let numbers = TimetableCoding.decodeVarints(rows[PT.times]),
                    let times = TimetableCoding.decodeTimes(numbers, stopCount: stopIDs.count),
                    times.arrivals.count == stopIDs.count * tripIDs.count
                else { throw PackError.notAPack(path: "pattern \(rows[PT.id])", message: "damaged pattern row") }
                b.addPattern(
                    stops: stopIDs.map { stopIndex[$0] ?? -1 }, trips: tripIDs.map { tripIndex[$0] ?? -1 },
                    arrivals: times.arrivals, departures: times.departures,
                    through: flags & PT.throughFlag != 0, frequency: flags & PT.frequencyFlag != 0)
            }
            let footpaths = try db.prepare(FP.all)
            b.footpaths = Array(repeating: [], count: b.stopPackID.count)
            b.sameStopChange = Array(repeating: nil, count: b.stopPackID.count)
            while try footpaths.step() {
                guard let from = stopIndex[footpaths[FP.from]], let to = stopIndex[footpaths[FP.to]] else { continue }
                let seconds = footpaths[FP.seconds].map { Int32($0) }
                if from == to {
                    b.sameStopChange[Int(from)] = seconds
                } else {
                    b.footpaths[Int(from)].append(Footpath(to: to, metres: Int32(footpaths[FP.metres]), seconds: seconds))
                }
            }
        }
        let windows = try db.prepare(FQ.select([FQ.trip, FQ.start, FQ.end, FQ.headway], orderBy: [FQ.trip, FQ.start]))
        while try windows.step() {
            guard let trip = tripIndex[windows[FQ.trip]] else { continue }
            b.frequencies[trip, default: []].append((windows[FQ.start], windows[FQ.end], windows[FQ.headway]))
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

    /// The first and last dates (yyyymmdd) any service may run: the calendar ranges and the dates calendar_dates
    /// adds; nil without services. The range a query date is checked against ("the timetable has ended").
    package var serviceRange: (first: Int, last: Int)? {
        var first = Int.max, last = Int.min
        for s in serviceStart.indices {
            if let start = serviceStart[s], let end = serviceEnd[s], start <= end {
                first = min(first, start)
                last = max(last, end)
            }
            for (day, type) in serviceExceptions[s] where type == 1 {
                first = min(first, day)
                last = max(last, day)
            }
        }
        return first <= last ? (first, last) : nil
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
