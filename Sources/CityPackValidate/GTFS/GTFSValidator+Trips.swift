import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// trips.txt: keys, references to routes, services and shapes, trips with too few stop_times, and blocks.
    static func checkTrips(_ c: GTFSValidationContext) {
        let feed = c.feed
        DuplicateKeyRule.check(feed.trips.lazy.map { (key: $0.id, line: $0.line) }, table: "trips", field: "trip_id", c)
        let routes = Set(c.routeByID.keys)
        let hasCalendars = feed.files["calendar"] != nil || feed.files["calendar_dates"] != nil
        let ranges = feed.stopTimes.tripRanges
        for (i, t) in feed.trips.enumerated() {
            let entity = "trip_id=\(t.id)"
            ForeignKeyViolationRule.check(t.routeID, in: routes, target: "routes", table: "trips", line: t.line,
                field: "route_id", entity: entity, c)
            if hasCalendars {
                ForeignKeyViolationRule.check(t.serviceID, in: c.serviceIDs, target: "calendar or calendar_dates",
                    table: "trips", line: t.line, field: "service_id", entity: entity, c)
            }
            ForeignKeyViolationRule.check(t.shapeID, in: c.shapeIDs, target: "shapes", table: "trips", line: t.line,
                field: "shape_id", entity: entity, c)
            // stop_times are counted for the first row of each trip_id (repeats are gtfs.duplicate_key), and only
            // when the feed has stop_times.txt (else gtfs.missing_required_file says so).
            guard feed.files["stop_times"] != nil, c.tripByID[t.id] == i else { continue }
            let count = i < ranges.count ? ranges[i].count : 0
            UnusedTripRule.check(t, stopTimes: count, entity: entity, c)
            UnusableTripRule.check(t, stopTimes: count, entity: entity, c)
        }
        BlockOverlapRule.check(c)
    }

    /// frequencies.txt: trip references, headways, then overlaps between the usable frequencies.
    static func checkFrequencies(_ c: GTFSValidationContext) {
        let trips = Set(c.tripByID.keys)
        var usable: [TransitFrequency] = []
        for f in c.feed.frequencies {
            ForeignKeyViolationRule.check(f.tripID, in: trips, target: "trips", table: "frequencies", line: f.line,
                field: "trip_id", entity: "trip_id=\(f.tripID)", c)
            if InvalidHeadwayRule.check(f, c) { usable.append(f) }
        }
        OverlappingFrequencyRule.check(usable, c)
    }

    /// transfers.txt: references to stops, routes and trips.
    static func checkTransfers(_ c: GTFSValidationContext) {
        let stops = Set(c.stopByID.keys), routes = Set(c.routeByID.keys), trips = Set(c.tripByID.keys)
        for t in c.feed.transfers {
            let entity = t.fromStopID.map { "from_stop_id=\($0)" }
            let references: [(String?, Set<String>, String, String)] = [
                (t.fromStopID, stops, "stops", "from_stop_id"), (t.toStopID, stops, "stops", "to_stop_id"),
                (t.fromRouteID, routes, "routes", "from_route_id"), (t.toRouteID, routes, "routes", "to_route_id"),
                (t.fromTripID, trips, "trips", "from_trip_id"), (t.toTripID, trips, "trips", "to_trip_id"),
            ]
            for (id, ids, target, field) in references {
                ForeignKeyViolationRule.check(id, in: ids, target: target, table: "transfers", line: t.line,
                    field: field, entity: entity, c)
            }
        }
    }
}
