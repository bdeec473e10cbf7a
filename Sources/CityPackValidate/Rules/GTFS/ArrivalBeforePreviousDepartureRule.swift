import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsArrivalBeforePreviousDeparture = RuleDescription(
        "gtfs.arrival_before_previous_departure", .gtfs, .error,
        "A stop_time arrives before the previous stop_time of the trip departs",
        title: "Arrival before previous departure",
        rationale: "Time cannot go backwards; journey planners produce nonsense itineraries.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3", "T1,08:05:30,08:10:00,S3"),
            passing: Base.stopTimes))
}

/// Time cannot go backwards along a trip: a stop_time must not arrive before the previous timed stop_time
/// departs. Untimed stop_times in between are skipped.
enum ArrivalBeforePreviousDepartureRule {
    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let previous = walk.previousTimed
        let arrival = st.arrival[r]
        guard arrival >= 0, previous >= 0, arrival < st.departure[previous] else { return }
        c.report(Rules.gtfsArrivalBeforePreviousDeparture,
            .before(arrival, st.departure[previous], c.feed.trips[walk.trip]), "stop_times", st.line[r],
            field: "arrival_time", entity: walk.entity(c),
            notes: [Diagnostic.Note(.previousDeparts, at: c.at("stop_times", st.line[previous], "departure_time")),
                walk.tripNote(c)])
    }
}

extension String {
    fileprivate static func before(_ arrival: Int32, _ departure: Int32, _ trip: TransitTrip) -> String {
        "arrival \(gtfsTimeText(arrival)) before previous departure \(gtfsTimeText(departure)) (trip \(trip.id))"
    }

    fileprivate static let previousDeparts = "previous stop_time departs here"
}
