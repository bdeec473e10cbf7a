import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// Agencies: duplicate agency_id; agency_id required when there are several agencies.
    static func checkAgencies(_ c: GTFSValidationContext) {
        let agencies = c.feed.agencies
        c.checkDuplicates(agencies.lazy.compactMap { a in a.id.map { (key: $0, line: a.line) } },
            table: "agency", field: "agency_id")
        if agencies.count > 1 {
            for a in agencies where a.id == nil {
                c.report(Rules.gtfsMissingAgencyID, "agency_id is required when the feed has several agencies",
                    "agency", a.line, field: "agency_id", entity: "agency_name=\(a.name)")
            }
        }
    }

    /// Stops: keys, coordinates, names, parent stations, use by stop_times.
    static func checkStops(_ c: GTFSValidationContext) {
        let stops = c.feed.stops
        c.checkDuplicates(stops.lazy.map { (key: $0.id, line: $0.line) }, table: "stops", field: "stop_id")
        var used = [Bool](repeating: false, count: stops.count)
        for s in c.feed.stopTimes.stop where s >= 0 { used[Int(s)] = true }
        // References resolve to the first row of a repeated stop_id; later rows are gtfs.duplicate_key findings,
        // not unused stops, so they count as used when the ID is.
        var firstRow: [String: Int] = [:]
        for (i, stop) in stops.enumerated() {
            if let first = firstRow[stop.id] { used[i] = used[first] } else { firstRow[stop.id] = i }
        }
        for (i, stop) in stops.enumerated() {
            let entity = "stop_id=\(stop.id)"
            let located = stop.locationType <= 2
            if let p = stop.coordinate {
                checkCoordinate(p, c, table: "stops", line: stop.line, field: "stop_lat", entity: entity)
                if let box = c.bbox, p.isValid, !box.contains(p) {
                    c.report(Rules.gtfsPointOutsideBBox,
                        "stop at (\(p.lat), \(p.lon)) is outside the city bounding box", "stops", stop.line,
                        field: "stop_lat", entity: entity)
                }
            } else if located {
                c.report(Rules.gtfsStopWithoutLocation,
                    "\(locationTypeName(stop.locationType)) has no stop_lat/stop_lon", "stops", stop.line,
                    field: "stop_lat", entity: entity)
            }
            if located && (stop.name ?? "").isEmpty {
                c.report(Rules.gtfsMissingStopName, "\(locationTypeName(stop.locationType)) has no stop_name",
                    "stops", stop.line, field: "stop_name", entity: entity)
            }
            checkParent(stop, c, entity: entity)
            if stop.locationType == 0 && !used[i] && c.feed.files["stop_times"] != nil {
                c.report(Rules.gtfsStopWithoutStopTime, "stop is not served by any trip", "stops", stop.line,
                    field: "stop_id", entity: entity)
            }
        }
    }

    /// Shared by stops and shapes: range, origin and pole checks.
    static func checkCoordinate(_ p: Coordinate, _ c: GTFSValidationContext, table: String, line: Int32,
        field: String, entity: String)
    {
        if !p.isValid {
            c.report(Rules.gtfsCoordinateOutOfRange, "coordinate (\(p.lat), \(p.lon)) is outside ±90°/±180°",
                table, line, field: field, entity: entity)
        } else if abs(p.lat) <= 1 && abs(p.lon) <= 1 {
            c.report(Rules.gtfsPointNearOrigin, "coordinate (\(p.lat), \(p.lon)) is within 1° of (0, 0)", table,
                line, field: field, entity: entity)
        } else if abs(p.lat) >= 89 {
            c.report(Rules.gtfsPointNearPole, "coordinate (\(p.lat), \(p.lon)) is within 1° of a pole", table,
                line, field: field, entity: entity)
        }
    }

    private static func checkParent(_ stop: TransitStop, _ c: GTFSValidationContext, entity: String) {
        guard let parentID = stop.parentStation else {
            if stop.locationType >= 2 {
                c.report(Rules.gtfsInvalidParentStation,
                    "\(locationTypeName(stop.locationType)) requires a parent_station", "stops", stop.line,
                    field: "parent_station", entity: entity)
            }
            return
        }
        guard let p = c.stopByID[parentID] else {
            guard c.canResolve("stops") else { return }
            c.report(Rules.gtfsForeignKeyViolation, "parent_station `\(parentID)` is not defined in stops.txt",
                "stops", stop.line, field: "parent_station", entity: entity)
            return
        }
        let parent = c.feed.stops[p]
        let expected: Int8? =
            switch stop.locationType {
            case 0, 2, 3: 1
            case 4: 0
            default: nil
            }
        if expected != parent.locationType {
            let want = expected.map { "a \(locationTypeName($0))" } ?? "no parent"
            c.report(Rules.gtfsInvalidParentStation,
                "parent_station `\(parentID)` is a \(locationTypeName(parent.locationType)), but a \(locationTypeName(stop.locationType)) needs \(want)",
                "stops", stop.line, field: "parent_station", entity: entity,
                notes: [Diagnostic.Note("parent defined here", at: c.at("stops", parent.line, "location_type"))])
        }
    }

    static func locationTypeName(_ type: Int8) -> String {
        switch type {
        case 0: "stop"
        case 1: "station"
        case 2: "entrance"
        case 3: "generic node"
        default: "boarding area"
        }
    }

    /// Routes: keys, agency references, names.
    static func checkRoutes(_ c: GTFSValidationContext) {
        let routes = c.feed.routes
        c.checkDuplicates(routes.lazy.map { (key: $0.id, line: $0.line) }, table: "routes", field: "route_id")
        let agencyCount = c.feed.agencies.count
        var firstWithName: [String: Int32] = [:]
        for r in routes {
            let entity = "route_id=\(r.id)"
            if let a = r.agencyID {
                if c.feed.files["agency"] != nil {
                    c.checkReference(a, in: c.agencyIDs, target: "agency", table: "routes", line: r.line,
                        field: "agency_id", entity: entity)
                }
            } else if agencyCount > 1 {
                c.report(Rules.gtfsMissingAgencyID, "agency_id is required because the feed has \(agencyCount) agencies",
                    "routes", r.line, field: "agency_id", entity: entity)
            }
            let short = r.shortName ?? "", long = r.longName ?? ""
            if short.isEmpty && long.isEmpty {
                c.report(Rules.gtfsRouteNameMissing, "route has neither route_short_name nor route_long_name",
                    "routes", r.line, field: "route_short_name", entity: entity)
            }
            if short.count > 12 {
                c.report(Rules.gtfsRouteShortNameTooLong,
                    "route_short_name `\(short)` has \(short.count) characters (at most 12)", "routes", r.line,
                    field: "route_short_name", entity: entity)
            }
            if !short.isEmpty && short.caseInsensitiveCompare(long) == .orderedSame {
                c.report(Rules.gtfsRouteShortLongNameEqual,
                    "route_short_name and route_long_name are both `\(short)`", "routes", r.line,
                    field: "route_long_name", entity: entity)
            }
            if !short.isEmpty || !long.isEmpty {
                // Same agency, type and names: riders cannot tell the routes apart.
                let key = [r.agencyID ?? "", String(r.type), short.lowercased(), long.lowercased()].joined(separator: "\u{1F}")
                if let first = firstWithName[key] {
                    c.report(Rules.gtfsDuplicateRouteName,
                        "another route of the same agency and type is also named `\([short, long].filter { !$0.isEmpty }.joined(separator: " "))`",
                        "routes", r.line, field: short.isEmpty ? "route_long_name" : "route_short_name", entity: entity,
                        notes: [Diagnostic.Note("first route with this name", at: c.at("routes", first, "route_short_name"))])
                } else {
                    firstWithName[key] = r.line
                }
            }
        }
    }

    /// Transfers: references to stops, routes and trips.
    static func checkTransfers(_ c: GTFSValidationContext) {
        let stops = Set(c.stopByID.keys), routes = Set(c.routeByID.keys), trips = Set(c.tripByID.keys)
        for t in c.feed.transfers {
            let entity = t.fromStopID.map { "from_stop_id=\($0)" }
            c.checkReference(t.fromStopID, in: stops, target: "stops", table: "transfers", line: t.line,
                field: "from_stop_id", entity: entity)
            c.checkReference(t.toStopID, in: stops, target: "stops", table: "transfers", line: t.line,
                field: "to_stop_id", entity: entity)
            c.checkReference(t.fromRouteID, in: routes, target: "routes", table: "transfers", line: t.line,
                field: "from_route_id", entity: entity)
            c.checkReference(t.toRouteID, in: routes, target: "routes", table: "transfers", line: t.line,
                field: "to_route_id", entity: entity)
            c.checkReference(t.fromTripID, in: trips, target: "trips", table: "transfers", line: t.line,
                field: "from_trip_id", entity: entity)
            c.checkReference(t.toTripID, in: trips, target: "trips", table: "transfers", line: t.line,
                field: "to_trip_id", entity: entity)
        }
    }
}
