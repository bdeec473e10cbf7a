import CityPackFormat
import CityPackSQLite
import CityPackStorage
import Foundation

/// The web flavour's `transit` part (see ``WebWriter``).
extension WebWriter {
    struct Transit: Encodable {
        struct Stops: Encodable {
            var id: [Int64] = []; var feed: [Int] = []; var stopId: [String] = []; var name: [String?] = []
            var lat: [Double?] = []; var lon: [Double?] = []; var locationType: [Int] = []; var parent: [Int64?] = []
            var wheelchair: [Int?] = []
        }
        struct Lines: Encodable {
            var id: [Int64] = []; var routeId: [String] = []; var shortName: [String?] = []; var longName: [String?] = []
            var type: [Int] = []; var colour: [String?] = []; var textColour: [String?] = []
        }
        struct Services: Encodable {
            var id: [Int64] = []; var start: [Int?] = []; var end: [Int?] = []; var days: [Int?] = []
        }
        struct ServiceDates: Encodable { var service: [Int64] = []; var date: [Int] = []; var type: [Int] = [] }
        struct Trips: Encodable {
            var id: [Int64] = []; var tripId: [String] = []; var line: [Int64] = []; var service: [Int64] = []
            var headsign: [String?] = []; var wheelchair: [Int?] = []
        }
        /// `pattern` rows (``TimetableCoding``'s numbers as arrays): pattern i has `stopCounts[i]` stops and
        /// `tripCounts[i]` trips; `stops`, `trips` and `times` are the patterns' numbers one after another.
        struct Patterns: Encodable {
            var flags: [Int64] = []; var stopCounts: [Int] = []; var tripCounts: [Int] = []
            var stops: [Int64] = []; var trips: [Int64] = []; var times: [Int64] = []
        }
        /// `footpath` rows by (from, to); `seconds` null: walk; -1: forbidden.
        struct Footpaths: Encodable {
            var from: [Int64] = []; var to: [Int64] = []; var metres: [Int64] = []; var seconds: [Int64?] = []
        }
        struct Frequencies: Encodable {
            var trip: [Int64] = []; var start: [Int64] = []; var end: [Int64] = []; var headway: [Int64] = []
        }
        var format = WebFlavour.formatVersion
        var maxSeconds: Int64 = 0
        var stops = Stops()
        var lines = Lines()
        var services = Services()
        var serviceDates = ServiceDates()
        var trips = Trips()
        var patterns = Patterns()
        var frequencies = Frequencies()
        var footpaths = Footpaths()
        /// Each feed's time zone (agency_timezone), feed order.
        var timezones: [String] = []
    }

    static func transit(_ db: Database) throws(EmitError) -> Transit {
        var out = Transit()
        typealias M = PackSchema.Meta
        let maxRow = try db.prepare(M.select([M.value], where: [M.key]))
        maxRow.bind(M.key, PackSchema.MetaKey.transitMaxSeconds)
        if try maxRow.step() { out.maxSeconds = Int64(maxRow[M.value]) ?? 0 }
        maxRow.reset()
        maxRow.bind(M.key, PackSchema.MetaKey.transitTimezones)
        if try maxRow.step() { out.timezones = maxRow[M.value].split(separator: ",").map(String.init) }
        typealias ST = PackSchema.Stop
        typealias LN = PackSchema.Line
        typealias SV = PackSchema.Service
        typealias SD = PackSchema.ServiceDate
        typealias TR = PackSchema.Trip
        typealias PT = PackSchema.Pattern
        typealias FQ = PackSchema.Frequency
        typealias FP = PackSchema.Footpath
        let stops = try db.prepare(ST.select(
            [ST.id, ST.feed, ST.stopID, ST.name, ST.lat, ST.lon, ST.locationType, ST.parent, ST.wheelchair], orderBy: [ST.id]))
        while try stops.step() {
            out.stops.id.append(stops[ST.id])
            out.stops.feed.append(stops[ST.feed])
            out.stops.stopId.append(stops[ST.stopID])
            out.stops.name.append(stops[ST.name])
            out.stops.lat.append(stops[ST.lat])
            out.stops.lon.append(stops[ST.lon])
            out.stops.locationType.append(stops[ST.locationType])
            out.stops.parent.append(stops[ST.parent])
            out.stops.wheelchair.append(stops[ST.wheelchair])
        }
        let lines = try db.prepare(LN.select(
            [LN.id, LN.routeID, LN.shortName, LN.longName, LN.type, LN.colour, LN.textColour], orderBy: [LN.id]))
        while try lines.step() {
            out.lines.id.append(lines[LN.id])
            out.lines.routeId.append(lines[LN.routeID])
            out.lines.shortName.append(lines[LN.shortName])
            out.lines.longName.append(lines[LN.longName])
            out.lines.type.append(lines[LN.type])
            out.lines.colour.append(lines[LN.colour])
            out.lines.textColour.append(lines[LN.textColour])
        }
        let services = try db.prepare(SV.select([SV.id, SV.startDate, SV.endDate, SV.days], orderBy: [SV.id]))
        while try services.step() {
            out.services.id.append(services[SV.id])
            out.services.start.append(services[SV.startDate])
            out.services.end.append(services[SV.endDate])
            out.services.days.append(services[SV.days])
        }
        let dates = try db.prepare(SD.select([SD.service, SD.date, SD.type], orderBy: [SD.service, SD.date]))
        while try dates.step() {
            out.serviceDates.service.append(dates[SD.service])
            out.serviceDates.date.append(dates[SD.date])
            out.serviceDates.type.append(dates[SD.type])
        }
        let trips = try db.prepare(
            TR.select([TR.id, TR.tripID, TR.line, TR.service, TR.headsign, TR.wheelchair], orderBy: [TR.id]))
        while try trips.step() {
            out.trips.id.append(trips[TR.id])
            out.trips.tripId.append(trips[TR.tripID])
            out.trips.line.append(trips[TR.line])
            out.trips.service.append(trips[TR.service])
            out.trips.headsign.append(trips[TR.headsign])
            out.trips.wheelchair.append(trips[TR.wheelchair])
        }
        let patterns = try db.prepare(PT.all)
        while try patterns.step() {
            guard let stops = TimetableCoding.decodeVarints(patterns[PT.stops]),
                let trips = TimetableCoding.decodeVarints(patterns[PT.trips]),
                let times = TimetableCoding.decodeVarints(patterns[PT.times])
            else { throw EmitError.sqlite(path: "pattern", message: "pattern \(patterns[PT.id]) does not decode") }
            out.patterns.flags.append(patterns[PT.flags])
            out.patterns.stopCounts.append(stops.count)
            out.patterns.tripCounts.append(trips.count)
            out.patterns.stops += stops
            out.patterns.trips += trips
            out.patterns.times += times
        }
        let frequencies = try db.prepare(
            FQ.select([FQ.trip, FQ.start, FQ.end, FQ.headway], orderBy: [FQ.trip, FQ.start]))
        while try frequencies.step() {
            out.frequencies.trip.append(frequencies[FQ.trip])
            out.frequencies.start.append(Int64(frequencies[FQ.start]))
            out.frequencies.end.append(Int64(frequencies[FQ.end]))
            out.frequencies.headway.append(Int64(frequencies[FQ.headway]))
        }
        let footpaths = try db.prepare(FP.all)
        while try footpaths.step() {
            out.footpaths.from.append(footpaths[FP.from])
            out.footpaths.to.append(footpaths[FP.to])
            out.footpaths.metres.append(Int64(footpaths[FP.metres]))
            out.footpaths.seconds.append(footpaths[FP.seconds].map(Int64.init))
        }
        return out
    }
}
