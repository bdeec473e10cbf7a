import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsTripRevisitsStop = RuleDescription(
        "gtfs.trip_revisits_stop", .gtfs, .warning,
        "A trip calls at the same stop twice (other than a loop ending where it started)",
        title: "Trip revisits a stop",
        rationale: "A journey planner boards and alights by position along the trip; a stop named twice is usually "
            + "a copy error, and a rider sees two boarding times for one trip at one place.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3", "T1,08:10:00,08:10:00,S2"),
            passing: Base.stopTimes))
}

/// A trip's stop_times should name each stop once: the pattern a router scans then has one position per stop.
/// A loop whose last stop is its first is fine. Reports every repeated call after the first, with a note at the
/// earlier one.
enum TripRevisitsStopRule {
    /// `rows`: the trip's stop_times in stop_sequence order (not empty).
    static func check(_ rows: [Int], _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        var firstRow: [Int32: Int] = [:]
        for (position, r) in rows.enumerated() {
            let stop = st.stop[r]
            guard stop >= 0 else { continue }
            guard let earlier = firstRow[stop] else {
                firstRow[stop] = r
                continue
            }
            if position == rows.count - 1 && earlier == rows[0] { continue }
            c.report(Rules.gtfsTripRevisitsStop, .revisits(c.feed.stops[Int(stop)].id), "stop_times", st.line[r],
                field: "stop_id", entity: walk.entity(c),
                notes: [Diagnostic.Note(.firstCall, at: c.at("stop_times", st.line[earlier], "stop_id")), walk.tripNote(c)])
        }
    }
}

extension String {
    fileprivate static func revisits(_ stop: String) -> String { "the trip calls at stop \(stop) again" }

    fileprivate static let firstCall = "first call at the stop here"
}
