import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsEqualStopTimeDistance = RuleDescription(
        "gtfs.equal_stop_time_distance", .gtfs, .error,
        "Two consecutive stop_times of a trip have the same shape_dist_traveled",
        title: "Equal stop time distance",
        rationale: "Distance along the shape must grow from one stop to the next: two stops at the same distance "
            + "are placed at one point of the line, so one of the values is wrong. gtfs-validator reports it as an "
            + "error (decreasing_or_equal_stop_time_distance), with decreasing distances "
            + "(gtfs.decreasing_stop_time_distance here).",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3,3,2.8", "T1,08:10:00,08:10:00,S3,3,1.4"),
            passing: Base.stopTimes))
}

/// shape_dist_traveled equal to the previous stop_time's, compared (as `gtfs.decreasing_stop_time_distance`
/// does) with the previous stop_time that has a distance; gtfs-validator compares adjacent rows only, so a row
/// without a distance in between hides the fault from it.
enum EqualStopTimeDistanceRule {
    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let previous = walk.previousWithDistance
        let distance = st.distance[r]
        guard !distance.isNaN, previous >= 0, distance == st.distance[previous] else { return }
        c.report(Rules.gtfsEqualStopTimeDistance, .equal(distance), "stop_times", st.line[r],
            field: "shape_dist_traveled", entity: walk.entity(c),
            notes: [
                Diagnostic.Note(.previousStopTime, at: c.at("stop_times", st.line[previous], "shape_dist_traveled")),
                walk.tripNote(c),
            ])
    }
}

extension String {
    fileprivate static func equal(_ distance: Float) -> String {
        "shape_dist_traveled \(distance) equals the previous stop's"
    }

    fileprivate static let previousStopTime = "previous stop_time is here"
}
