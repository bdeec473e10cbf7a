import CityPackDiagnostics
import CityPackModel

extension GTFSValidator {
    /// stop_times: references, time pairs, per-trip order of sequence, times and distances, and speed.
    static func checkStopTimes(_ c: GTFSValidationContext) {
        let feed = c.feed
        let st = feed.stopTimes
        let table = "stop_times"
        for (row, id) in st.unknownTripIDs.sorted(by: { $0.key < $1.key }) where c.canResolve("trips") {
            c.report(Rules.gtfsForeignKeyViolation, "trip_id `\(id)` is not defined in trips.txt", table,
                st.line[row], field: "trip_id", entity: "trip_id=\(id)")
        }
        for (row, id) in st.unknownStopIDs.sorted(by: { $0.key < $1.key }) where c.canResolve("stops") {
            let trip = st.trip[row] >= 0 ? feed.trips[Int(st.trip[row])].id : st.unknownTripIDs[row] ?? ""
            c.report(Rules.gtfsForeignKeyViolation, "stop_id `\(id)` is not defined in stops.txt", table,
                st.line[row], field: "stop_id", entity: "trip_id=\(trip)")
        }
        let routeTypes = feed.routes.reduce(into: [String: Int32]()) { m, r in
            if m[r.id] == nil { m[r.id] = r.type }
        }
        for (t, range) in st.tripRanges.enumerated() where !range.isEmpty {
            let trip = feed.trips[t]
            let entity = "trip_id=\(trip.id)"
            let tripNote = Diagnostic.Note("trip `\(trip.id)` defined here", at: c.at("trips", trip.line, "trip_id"))
            let rows = st.byTrip[Int(range.lowerBound)..<Int(range.upperBound)].map(Int.init)
            let first = rows[0], last = rows[rows.count - 1]
            for (edge, name) in [(first, "first"), (last, "last")] where st.arrival[edge] < 0 || st.departure[edge] < 0 {
                let field = st.arrival[edge] < 0 ? "arrival_time" : "departure_time"
                c.report(Rules.gtfsMissingTripEdge, "\(name) stop_time of the trip has no \(field)", table,
                    st.line[edge], field: field, entity: entity, notes: [tripNote])
                if edge == last { break }
            }
            let cap = maxSpeedKmh(routeType: routeTypes[trip.routeID] ?? -1)
            var previous = -1  // previous row in sequence order
            var previousTimed = -1  // previous row with a departure time
            var previousDistanceRow = -1
            var reportedSpeed = false
            for r in rows {
                let arrival = st.arrival[r], departure = st.departure[r]
                if (arrival < 0) != (departure < 0) {
                    c.report(Rules.gtfsOnlyArrivalOrDeparture,
                        "stop_time has \(arrival < 0 ? "departure_time but no arrival_time" : "arrival_time but no departure_time")",
                        table, st.line[r], field: arrival < 0 ? "arrival_time" : "departure_time", entity: entity)
                }
                if previous >= 0 && st.sequence[r] == st.sequence[previous] && st.sequence[r] >= 0 {
                    c.report(Rules.gtfsDuplicateStopSequence,
                        "stop_sequence \(st.sequence[r]) is used twice in trip `\(trip.id)`", table, st.line[r],
                        field: "stop_sequence", entity: entity,
                        notes: [Diagnostic.Note("first used here", at: c.at(table, st.line[previous], "stop_sequence"))])
                }
                if arrival >= 0, previousTimed >= 0, arrival < st.departure[previousTimed] {
                    c.report(Rules.gtfsArrivalBeforePreviousDeparture,
                        "arrival \(gtfsTimeText(arrival)) before previous departure \(gtfsTimeText(st.departure[previousTimed])) (trip \(trip.id))",
                        table, st.line[r], field: "arrival_time", entity: entity,
                        notes: [Diagnostic.Note("previous stop_time departs here", at: c.at(table, st.line[previousTimed], "departure_time")),
                            tripNote])
                } else if arrival >= 0, previousTimed >= 0, !reportedSpeed {
                    reportedSpeed = checkSpeed(c, from: previousTimed, to: r, cap: cap, entity: entity)
                }
                let distance = st.distance[r]
                if !distance.isNaN {
                    if previousDistanceRow >= 0 && distance < st.distance[previousDistanceRow] {
                        c.report(Rules.gtfsDecreasingStopTimeDistance,
                            "shape_dist_traveled \(distance) is less than the previous stop's \(st.distance[previousDistanceRow])",
                            table, st.line[r], field: "shape_dist_traveled", entity: entity,
                            notes: [Diagnostic.Note("previous stop_time is here",
                                at: c.at(table, st.line[previousDistanceRow], "shape_dist_traveled")), tripNote])
                    }
                    previousDistanceRow = r
                }
                if departure >= 0 { previousTimed = r }
                previous = r
            }
        }
    }

    /// Reports travel faster than the cap between two timed stop_times; true when it reported.
    private static func checkSpeed(_ c: GTFSValidationContext, from a: Int, to b: Int, cap: Double, entity: String)
        -> Bool
    {
        let st = c.feed.stopTimes
        let sa = st.stop[a], sb = st.stop[b]
        guard sa >= 0, sb >= 0, let pa = c.feed.stops[Int(sa)].coordinate, let pb = c.feed.stops[Int(sb)].coordinate,
            pa.isValid, pb.isValid
        else { return false }
        let metres = distanceMetres(pa, pb)
        // Times have minute precision in many feeds: never assume less than a minute between stops.
        let seconds = Double(max(st.arrival[b] - st.departure[a], 60))
        let kmh = metres / seconds * 3.6
        guard kmh > cap else { return false }
        c.report(Rules.gtfsFastTravel,
            "travel of \(Int(metres)) m in \(Int(seconds)) s is \(Int(kmh)) km/h, over the \(Int(cap)) km/h cap for this route type",
            "stop_times", st.line[b], field: "arrival_time", entity: entity,
            notes: [Diagnostic.Note("previous stop_time departs here", at: c.at("stop_times", st.line[a], "departure_time"))])
        return true
    }
}
