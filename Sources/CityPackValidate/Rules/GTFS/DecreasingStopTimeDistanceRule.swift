import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDecreasingStopTimeDistance = RuleDescription(
        "gtfs.decreasing_stop_time_distance", .gtfs, .error,
        "shape_dist_traveled decreases along a trip's stop_times",
        title: "Decreasing stop time distance",
        rationale: "Distance travelled can only grow; shape projection breaks otherwise.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3,3,2.8", "T1,08:10:00,08:10:00,S3,3,1.0"),
            passing: Base.stopTimes))
}

/// shape_dist_traveled can only grow along a trip; shape projection breaks otherwise. Compared with the
/// previous stop_time that has a distance.
enum DecreasingStopTimeDistanceRule {
    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let previous = walk.previousWithDistance
        let distance = st.distance[r]
        guard !distance.isNaN, previous >= 0, distance < st.distance[previous] else { return }
        c.report(Rules.gtfsDecreasingStopTimeDistance, .decreasing(distance, st.distance[previous]), "stop_times",
            st.line[r], field: "shape_dist_traveled", entity: walk.entity(c),
            notes: [Diagnostic.Note(.previousStopTime, at: c.at("stop_times", st.line[previous], "shape_dist_traveled")),
                walk.tripNote(c)])
    }
}

extension String {
    fileprivate static func decreasing(_ distance: Float, _ previous: Float) -> String {
        "shape_dist_traveled \(distance) is less than the previous stop's \(previous)"
    }

    fileprivate static let previousStopTime = "previous stop_time is here"
}
