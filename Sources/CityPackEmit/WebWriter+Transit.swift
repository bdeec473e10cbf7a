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
        let maxRow = try db.prepare(PackSchema.Meta.valueQuery)
        maxRow.bind(1, PackSchema.MetaKey.transitMaxSeconds)
        if try maxRow.step() { out.maxSeconds = Int64(maxRow.text(0) ?? "") ?? 0 }
        maxRow.reset()
        maxRow.bind(1, PackSchema.MetaKey.transitTimezones)
        if try maxRow.step() { out.timezones = (maxRow.text(0) ?? "").split(separator: ",").map(String.init) }
        func int(_ s: SQLiteStatement<EmitError>, _ c: Int32) -> Int? { s.isNull(c) ? nil : Int(s.int64(c)) }
        func text(_ s: SQLiteStatement<EmitError>, _ c: Int32) -> String? { s.isNull(c) ? nil : s.text(c) }
        typealias S = PackSchema.Stop
        typealias L = PackSchema.Line
        typealias V = PackSchema.Service
        typealias D = PackSchema.ServiceDate
        typealias T = PackSchema.Trip
        typealias P = PackSchema.Pattern
        typealias F = PackSchema.Frequency
        typealias W = PackSchema.Footpath
        let stops = try db.prepare(
            "SELECT \(PackSchema.list([S.id, S.feed, S.stopID, S.name, S.lat, S.lon, S.locationType, S.parent, S.wheelchair])) "
                + "FROM \(S.table) ORDER BY \(S.id)")
        while try stops.step() {
            out.stops.id.append(stops.int64(0))
            out.stops.feed.append(Int(stops.int64(1)))
            out.stops.stopId.append(stops.text(2) ?? "")
            out.stops.name.append(text(stops, 3))
            out.stops.lat.append(stops.isNull(4) ? nil : stops.double(4))
            out.stops.lon.append(stops.isNull(5) ? nil : stops.double(5))
            out.stops.locationType.append(Int(stops.int64(6)))
            out.stops.parent.append(stops.isNull(7) ? nil : stops.int64(7))
            out.stops.wheelchair.append(int(stops, 8))
        }
        let lines = try db.prepare(
            "SELECT \(PackSchema.list([L.id, L.routeID, L.shortName, L.longName, L.type, L.colour, L.textColour])) "
                + "FROM \(L.table) ORDER BY \(L.id)")
        while try lines.step() {
            out.lines.id.append(lines.int64(0))
            out.lines.routeId.append(lines.text(1) ?? "")
            out.lines.shortName.append(text(lines, 2))
            out.lines.longName.append(text(lines, 3))
            out.lines.type.append(Int(lines.int64(4)))
            out.lines.colour.append(text(lines, 5))
            out.lines.textColour.append(text(lines, 6))
        }
        let services = try db.prepare(
            "SELECT \(V.id), \(V.startDate), \(V.endDate), \(V.days) FROM \(V.table) ORDER BY \(V.id)")
        while try services.step() {
            out.services.id.append(services.int64(0))
            out.services.start.append(int(services, 1))
            out.services.end.append(int(services, 2))
            out.services.days.append(int(services, 3))
        }
        let dates = try db.prepare(
            "SELECT \(D.service), \(D.date), \(D.type) FROM \(D.table) ORDER BY \(D.service), \(D.date)")
        while try dates.step() {
            out.serviceDates.service.append(dates.int64(0))
            out.serviceDates.date.append(Int(dates.int64(1)))
            out.serviceDates.type.append(Int(dates.int64(2)))
        }
        let trips = try db.prepare(
            "SELECT \(T.id), \(T.tripID), \(T.line), \(T.service), \(T.headsign), \(T.wheelchair) FROM \(T.table) ORDER BY \(T.id)")
        while try trips.step() {
            out.trips.id.append(trips.int64(0))
            out.trips.tripId.append(trips.text(1) ?? "")
            out.trips.line.append(trips.int64(2))
            out.trips.service.append(trips.int64(3))
            out.trips.headsign.append(text(trips, 4))
            out.trips.wheelchair.append(int(trips, 5))
        }
        let patterns = try db.prepare(P.allQuery)
        while try patterns.step() {
            guard let stops = TimetableCoding.decodeVarints(patterns.blob(2)),
                let trips = TimetableCoding.decodeVarints(patterns.blob(3)),
                let times = TimetableCoding.decodeVarints(patterns.blob(4))
            else { throw EmitError.sqlite(path: "pattern", message: "pattern \(patterns.int64(0)) does not decode") }
            out.patterns.flags.append(patterns.int64(1))
            out.patterns.stopCounts.append(stops.count)
            out.patterns.tripCounts.append(trips.count)
            out.patterns.stops += stops
            out.patterns.trips += trips
            out.patterns.times += times
        }
        let frequencies = try db.prepare(
            "SELECT \(F.trip), \(F.start), \(F.end), \(F.headway) FROM \(F.table) ORDER BY \(F.trip), \(F.start)")
        while try frequencies.step() {
            out.frequencies.trip.append(frequencies.int64(0))
            out.frequencies.start.append(frequencies.int64(1))
            out.frequencies.end.append(frequencies.int64(2))
            out.frequencies.headway.append(frequencies.int64(3))
        }
        let footpaths = try db.prepare(W.allQuery)
        while try footpaths.step() {
            out.footpaths.from.append(footpaths.int64(0))
            out.footpaths.to.append(footpaths.int64(1))
            out.footpaths.metres.append(footpaths.int64(2))
            out.footpaths.seconds.append(footpaths.isNull(3) ? nil : footpaths.int64(3))
        }
        return out
    }
}
