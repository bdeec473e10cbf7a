import CityPackFormat
import CityPackStorage
import Foundation

/// The web flavour's `transit` part (see ``WebWriter``).
extension WebWriter {
    struct Transit: Encodable {
        struct Stops: Encodable {
            var id: [Int64] = []; var feed: [Int] = []; var stopId: [String] = []; var name: [String?] = []
            var lat: [Double?] = []; var lon: [Double?] = []; var locationType: [Int] = []; var parent: [Int64?] = []
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
            var headsign: [String?] = []
        }
        /// Rows of `departure` grouped by stop (ascending): `counts[i]` rows belong to `stop[i]`; within a stop,
        /// rows by (seconds, trip), `seconds` delta-encoded from the previous row of the same stop (the first from 0).
        struct Departures: Encodable {
            var stop: [Int64] = []; var counts: [Int] = []; var seconds: [Int64] = []; var trip: [Int64] = []
        }
        struct Frequencies: Encodable {
            var trip: [Int64] = []; var start: [Int64] = []; var end: [Int64] = []; var headway: [Int64] = []
        }
        struct Offsets: Encodable { var stop: [Int64] = []; var trip: [Int64] = []; var offset: [Int64] = [] }
        var format = WebFlavour.formatVersion
        var maxSeconds: Int64 = 0
        var stops = Stops()
        var lines = Lines()
        var services = Services()
        var serviceDates = ServiceDates()
        var trips = Trips()
        var departures = Departures()
        var frequencies = Frequencies()
        var tripOffsets = Offsets()
    }

    static func transit(_ db: Database) throws(EmitError) -> Transit {
        var out = Transit()
        let maxRow = try db.prepare(PackSchema.Meta.valueQuery)
        maxRow.bind(1, PackSchema.MetaKey.transitMaxSeconds)
        if try maxRow.step() { out.maxSeconds = Int64(maxRow.text(0) ?? "") ?? 0 }
        func int(_ s: SQLiteStatement<EmitError>, _ c: Int32) -> Int? { s.isNull(c) ? nil : Int(s.int64(c)) }
        func text(_ s: SQLiteStatement<EmitError>, _ c: Int32) -> String? { s.isNull(c) ? nil : s.text(c) }
        typealias S = PackSchema.Stop
        typealias L = PackSchema.Line
        typealias V = PackSchema.Service
        typealias D = PackSchema.ServiceDate
        typealias T = PackSchema.Trip
        typealias P = PackSchema.Departure
        typealias F = PackSchema.Frequency
        typealias O = PackSchema.TripOffset
        let stops = try db.prepare(
            "SELECT \(PackSchema.list([S.id, S.feed, S.stopID, S.name, S.lat, S.lon, S.locationType, S.parent])) "
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
            "SELECT \(T.id), \(T.tripID), \(T.line), \(T.service), \(T.headsign) FROM \(T.table) ORDER BY \(T.id)")
        while try trips.step() {
            out.trips.id.append(trips.int64(0))
            out.trips.tripId.append(trips.text(1) ?? "")
            out.trips.line.append(trips.int64(2))
            out.trips.service.append(trips.int64(3))
            out.trips.headsign.append(text(trips, 4))
        }
        let departures = try db.prepare(
            "SELECT \(P.stop), \(P.seconds), \(P.trip) FROM \(P.table) ORDER BY \(P.stop), \(P.seconds), \(P.trip)")
        var lastStop: Int64? = nil
        var lastSeconds: Int64 = 0
        while try departures.step() {
            let stop = departures.int64(0)
            if stop != lastStop {
                out.departures.stop.append(stop)
                out.departures.counts.append(0)
                lastStop = stop
                lastSeconds = 0
            }
            out.departures.counts[out.departures.counts.count - 1] += 1
            let seconds = departures.int64(1)
            out.departures.seconds.append(seconds - lastSeconds)
            lastSeconds = seconds
            out.departures.trip.append(departures.int64(2))
        }
        let frequencies = try db.prepare(
            "SELECT \(F.trip), \(F.start), \(F.end), \(F.headway) FROM \(F.table) ORDER BY \(F.trip), \(F.start)")
        while try frequencies.step() {
            out.frequencies.trip.append(frequencies.int64(0))
            out.frequencies.start.append(frequencies.int64(1))
            out.frequencies.end.append(frequencies.int64(2))
            out.frequencies.headway.append(frequencies.int64(3))
        }
        let offsets = try db.prepare(
            "SELECT \(O.stop), \(O.trip), \(O.offset) FROM \(O.table) ORDER BY \(O.stop), \(O.trip), \(O.offset)")
        while try offsets.step() {
            out.tripOffsets.stop.append(offsets.int64(0))
            out.tripOffsets.trip.append(offsets.int64(1))
            out.tripOffsets.offset.append(offsets.int64(2))
        }
        return out
    }
}
