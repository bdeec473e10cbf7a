import CityPackDiagnostics
import CityPackModel
import Foundation

extension GTFSValidator {
    /// Trips: keys, references to routes, services and shapes, and trips with too few stop_times.
    static func checkTrips(_ c: GTFSValidationContext) {
        let feed = c.feed
        c.checkDuplicates(feed.trips.lazy.map { (key: $0.id, line: $0.line) }, table: "trips", field: "trip_id")
        let routes = Set(c.routeByID.keys)
        let hasCalendars = feed.files["calendar"] != nil || feed.files["calendar_dates"] != nil
        let ranges = feed.stopTimes.tripRanges
        for (i, t) in feed.trips.enumerated() {
            let entity = "trip_id=\(t.id)"
            c.checkReference(t.routeID, in: routes, target: "routes", table: "trips", line: t.line,
                field: "route_id", entity: entity)
            if hasCalendars {
                c.checkReference(t.serviceID, in: c.serviceIDs, target: "calendar or calendar_dates",
                    table: "trips", line: t.line, field: "service_id", entity: entity)
            }
            c.checkReference(t.shapeID, in: c.shapeIDs, target: "shapes", table: "trips", line: t.line,
                field: "shape_id", entity: entity)
            guard feed.files["stop_times"] != nil, c.tripByID[t.id] == i else { continue }
            let count = i < ranges.count ? ranges[i].count : 0
            if count == 0 {
                c.report(Rules.gtfsUnusedTrip, "trip has no stop_times", "trips", t.line, field: "trip_id",
                    entity: entity)
            } else if count == 1 {
                c.report(Rules.gtfsUnusableTrip, "trip has only one stop_time", "trips", t.line, field: "trip_id",
                    entity: entity)
            }
        }
        checkBlocks(c)
    }

    /// Trips of one block and service must not overlap in time (first departure to last arrival).
    /// Approximation: trips with different service_ids are never compared, even if their dates intersect.
    private static func checkBlocks(_ c: GTFSValidationContext) {
        let feed = c.feed
        let st = feed.stopTimes
        var groups: [String: [(start: Int32, end: Int32, trip: Int)]] = [:]
        for (i, t) in feed.trips.enumerated() {
            guard let block = t.blockID, i < st.tripRanges.count, st.tripRanges[i].count >= 2 else { continue }
            let r = st.tripRanges[i]
            let first = Int(st.byTrip[Int(r.lowerBound)]), last = Int(st.byTrip[Int(r.upperBound) - 1])
            let start = st.departure[first] >= 0 ? st.departure[first] : st.arrival[first]
            let end = st.arrival[last] >= 0 ? st.arrival[last] : st.departure[last]
            guard start >= 0, end >= 0 else { continue }
            groups["\(block)\u{1F}\(t.serviceID)", default: []].append((start, end, i))
        }
        for key in groups.keys.sorted() {
            let trips = groups[key]!.sorted { ($0.start, $0.trip) < ($1.start, $1.trip) }
            var latest = trips[0]
            for t in trips.dropFirst() {
                if t.start < latest.end {
                    let a = feed.trips[latest.trip], b = feed.trips[t.trip]
                    c.report(Rules.gtfsBlockOverlap,
                        "trip `\(b.id)` starts at \(gtfsTimeText(t.start)) before trip `\(a.id)` of the same block `\(b.blockID ?? "")` ends at \(gtfsTimeText(latest.end))",
                        "trips", b.line, field: "block_id", entity: "trip_id=\(b.id)",
                        notes: [Diagnostic.Note("overlapping trip defined here", at: c.at("trips", a.line, "block_id"))])
                }
                if t.end > latest.end { latest = t }
            }
        }
    }

    /// Speed caps in km/h by route type (basic types and extended families), as in GTFS validators.
    static func maxSpeedKmh(routeType: Int32) -> Double {
        switch routeType {
        case 0, 900...999: 100  // tram, light rail
        case 1, 400...499: 150  // subway, metro
        case 2, 100...199: 500  // rail
        case 3, 200...299, 700...899: 150  // bus, coach, trolleybus
        case 4, 1000...1299: 80  // ferry
        case 5: 30  // cable tram
        case 6, 7, 1300...1499: 50  // aerial lift, funicular
        case 11: 150  // trolleybus
        case 12: 150  // monorail
        default: 200
        }
    }

    /// Great-circle distance in metres.
    static func distanceMetres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = 6_371_008.8
        let dLat = (b.lat - a.lat) * .pi / 180, dLon = (b.lon - a.lon) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2)
            + cos(a.lat * .pi / 180) * cos(b.lat * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }
}
