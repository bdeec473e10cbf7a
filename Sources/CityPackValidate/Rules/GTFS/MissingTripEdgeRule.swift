import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsMissingTripEdge = RuleDescription(
        "gtfs.missing_trip_edge", .gtfs, .error, "The first or last stop_time of a trip has no times",
        title: "Untimed first or last stop",
        rationale: "Trip start and end must be timed for the trip to be placed in the day.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3", "T1,,,S3"),
            passing: Base.stopTimes))
}

/// A trip's first and last stop_times must have both times, or the trip cannot be placed in the day. Reports
/// the first edge that lacks a time (the last one only when the trip has more than one stop_time).
enum MissingTripEdgeRule {
    /// `rows`: the trip's stop_times in stop_sequence order (not empty).
    static func check(_ rows: [Int], _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let first = rows[0], last = rows[rows.count - 1]
        for (edge, name) in [(first, "first"), (last, "last")] where st.arrival[edge] < 0 || st.departure[edge] < 0 {
            let field = st.arrival[edge] < 0 ? "arrival_time" : "departure_time"
            c.report(Rules.gtfsMissingTripEdge, .untimed(name, field), "stop_times", st.line[edge], field: field,
                entity: walk.entity(c), notes: [walk.tripNote(c)])
            if edge == last { break }
        }
    }
}

extension String {
    fileprivate static func untimed(_ edge: String, _ field: String) -> String {
        "\(edge) stop_time of the trip has no \(field)"
    }
}
