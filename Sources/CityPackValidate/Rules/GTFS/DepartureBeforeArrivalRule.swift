import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDepartureBeforeArrival = RuleDescription(
        "gtfs.departure_before_arrival", .gtfs, .error, "A stop_time departs before it arrives",
        title: "Departure before arrival",
        rationale: "A vehicle leaves a stop after it gets there; a departure_time before the arrival_time of the "
            + "same row is swapped or mistyped, and the pack would show the wrong time. gtfs-validator reports it as "
            + "an error (start_and_end_range_out_of_order in stop_times.txt).",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2", "T1,08:06:00,08:05:00,S2"),
            passing: Base.stopTimes))
}

/// A stop_time's departure_time must not be earlier than its arrival_time (gtfs-validator:
/// `start_and_end_range_out_of_order` on stop_times.txt). Rows lacking either time are other rules' findings.
enum DepartureBeforeArrivalRule {
    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let arrival = st.arrival[r], departure = st.departure[r]
        guard arrival >= 0, departure >= 0, departure < arrival else { return }
        c.report(Rules.gtfsDepartureBeforeArrival, .departsBefore(departure, arrival), "stop_times", st.line[r],
            field: "departure_time", entity: walk.entity(c))
    }
}

extension String {
    fileprivate static func departsBefore(_ departure: Int32, _ arrival: Int32) -> String {
        "departure_time \(gtfsTimeText(departure)) is before arrival_time \(gtfsTimeText(arrival))"
    }
}
