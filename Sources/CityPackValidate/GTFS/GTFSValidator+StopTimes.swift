import CityPackDiagnostics
import CityPackModel

/// Where the walk along one trip's stop_times is (rows in stop_sequence order): the trip, and the earlier rows
/// that rules compare the current row with. Rows index ``TransitStopTimes``; -1 means none yet. Only integers,
/// so handing it to every rule for every row copies nothing of note.
struct StopTimeWalk {
    /// Index of the trip in ``GTFSFeed/trips``.
    let trip: Int
    /// The previous row.
    var previous = -1
    /// The previous row with a departure time.
    var previousTimed = -1
    /// The previous row with a shape_dist_traveled.
    var previousWithDistance = -1

    /// `trip_id=…`: the entity of every finding on the trip.
    func entity(_ c: GTFSValidationContext) -> String { "trip_id=\(c.feed.trips[trip].id)" }

    /// A note pointing at the trip in trips.txt.
    func tripNote(_ c: GTFSValidationContext) -> Diagnostic.Note {
        let trip = c.feed.trips[trip]
        return Diagnostic.Note("trip `\(trip.id)` defined here", at: c.at("trips", trip.line, "trip_id"))
    }
}

extension GTFSValidator {
    /// stop_times.txt, the largest table, in one pass: unresolved references, then each trip's rows in sequence
    /// order, each row handed to every rule over stop_times.
    static func checkStopTimes(_ c: GTFSValidationContext) {
        let st = c.feed.stopTimes
        EmptyTimetableRule.check(c)
        ForeignKeyViolationRule.checkStopTimes(c)
        var fastTravel = FastTravelRule(c)
        for (t, range) in st.tripRanges.enumerated() where !range.isEmpty {
            var walk = StopTimeWalk(trip: t)
            let rows = st.byTrip[Int(range.lowerBound)..<Int(range.upperBound)].map(Int.init)
            MissingTripEdgeRule.check(rows, st, walk, c)
            TripRevisitsStopRule.check(rows, st, walk, c)
            fastTravel.start(c.feed.trips[t])
            for r in rows {
                OnlyArrivalOrDepartureRule.check(r, st, walk, c)
                DepartureBeforeArrivalRule.check(r, st, walk, c)
                TimepointWithoutTimesRule.check(r, st, walk, c)
                DuplicateStopSequenceRule.check(r, st, walk, c)
                ArrivalBeforePreviousDepartureRule.check(r, st, walk, c)
                fastTravel.check(r, st, walk, c)
                DecreasingStopTimeDistanceRule.check(r, st, walk, c)
                EqualStopTimeDistanceRule.check(r, st, walk, c)
                if !st.distance[r].isNaN { walk.previousWithDistance = r }
                if st.departure[r] >= 0 { walk.previousTimed = r }
                walk.previous = r
            }
        }
    }
}
