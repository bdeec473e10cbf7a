import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// agency.txt: keys, agency_id when the feed has several agencies, and one timezone for all.
    static func checkAgencies(_ c: GTFSValidationContext) {
        DuplicateKeyRule.check(c.feed.agencies.lazy.compactMap { a in a.id.map { (key: $0, line: a.line) } },
            table: "agency", field: "agency_id", c)
        MissingAgencyIDRule.checkAgencies(c)
        InconsistentAgencyTimezoneRule.check(c)
    }

    /// stops.txt: keys, then each stop's coordinates, name, parent station and use by stop_times.
    static func checkStops(_ c: GTFSValidationContext) {
        let stops = c.feed.stops
        DuplicateKeyRule.check(stops.lazy.map { (key: $0.id, line: $0.line) }, table: "stops", field: "stop_id", c)
        let firstStopTimes = firstStopTimes(c)
        let unserved = StopWithoutStopTimeRule(firstStopTimes: firstStopTimes)
        for (i, stop) in stops.enumerated() {
            let entity = "stop_id=\(stop.id)"
            if let p = stop.coordinate {
                CoordinateOutOfRangeRule.check(p, table: "stops", line: stop.line, field: "stop_lat", entity: entity, c)
                PointNearOriginRule.check(p, table: "stops", line: stop.line, field: "stop_lat", entity: entity, c)
                PointNearPoleRule.check(p, table: "stops", line: stop.line, field: "stop_lat", entity: entity, c)
            }
            StopWithoutLocationRule.check(stop, entity: entity, c)
            MissingStopNameRule.check(stop, entity: entity, c)
            DanglingParentStationRule.check(stop, entity: entity, c)
            InvalidParentStationRule.check(stop, entity: entity, c)
            unserved.check(i, stop, entity: entity, c)
            LocationWithUnexpectedStopTimeRule.check(i, stop, firstStopTime: firstStopTimes[i], entity: entity, c)
        }
        PointOutsidePackBBoxRule.check(c)
    }

    /// For each row of stops.txt, the first row of stop_times.txt (in file order) that names it, or -1: one pass
    /// over the stop column. References resolve to the first row of a repeated stop_id, and later rows with that
    /// ID get the same answer (they are `gtfs.duplicate_key` findings, not unused stops).
    static func firstStopTimes(_ c: GTFSValidationContext) -> [Int32] {
        let stops = c.feed.stops
        var first = [Int32](repeating: -1, count: stops.count)
        for (r, s) in c.feed.stopTimes.stop.enumerated() where s >= 0 && first[Int(s)] < 0 { first[Int(s)] = Int32(r) }
        var firstRow: [String: Int] = [:]
        for (i, stop) in stops.enumerated() {
            if let f = firstRow[stop.id] { first[i] = first[f] } else { firstRow[stop.id] = i }
        }
        return first
    }

    /// The name of a location_type for messages: `stop`, `station`, `entrance`, `generic node`, `boarding area`.
    static func locationTypeName(_ type: Int8) -> String {
        switch type {
        case 0: "stop"
        case 1: "station"
        case 2: "entrance"
        case 3: "generic node"
        default: "boarding area"
        }
    }

    /// routes.txt: keys, agency references, names.
    static func checkRoutes(_ c: GTFSValidationContext) {
        let routes = c.feed.routes
        DuplicateKeyRule.check(routes.lazy.map { (key: $0.id, line: $0.line) }, table: "routes", field: "route_id", c)
        var duplicateNames = DuplicateRouteNameRule()
        for r in routes {
            let entity = "route_id=\(r.id)"
            if c.feed.files["agency"] != nil {
                ForeignKeyViolationRule.check(r.agencyID, in: c.agencyIDs, target: "agency", table: "routes",
                    line: r.line, field: "agency_id", entity: entity, c)
            }
            MissingAgencyIDRule.check(r, entity: entity, c)
            RouteNameMissingRule.check(r, entity: entity, c)
            RouteShortNameTooLongRule.check(r, entity: entity, c)
            RouteShortLongNameEqualRule.check(r, entity: entity, c)
            duplicateNames.check(r, entity: entity, c)
        }
    }
}
