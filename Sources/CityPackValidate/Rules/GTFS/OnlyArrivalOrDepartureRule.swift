import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsOnlyArrivalOrDeparture = RuleDescription(
        "gtfs.only_arrival_or_departure", .gtfs, .error, "A stop_time has arrival_time or departure_time but not both",
        title: "Only arrival or departure time",
        rationale: "GTFS requires both or neither; the missing one cannot be inferred safely.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2", "T1,08:05:00,,S2"),
            passing: Base.edit(Base.stopTimes, "T1,08:05:00,08:06:00,S2", "T1,,,S2")))
}

/// GTFS requires a stop_time's arrival and departure times together, or neither; the missing one cannot be
/// inferred safely.
enum OnlyArrivalOrDepartureRule {
    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let arrival = st.arrival[r], departure = st.departure[r]
        guard (arrival < 0) != (departure < 0) else { return }
        c.report(Rules.gtfsOnlyArrivalOrDeparture, .onlyOne(hasArrival: arrival >= 0), "stop_times",
            st.line[r], field: arrival < 0 ? "arrival_time" : "departure_time", entity: walk.entity(c))
    }
}

extension String {
    fileprivate static func onlyOne(hasArrival: Bool) -> String {
        "stop_time has \(hasArrival ? "arrival_time but no departure_time" : "departure_time but no arrival_time")"
    }
}
