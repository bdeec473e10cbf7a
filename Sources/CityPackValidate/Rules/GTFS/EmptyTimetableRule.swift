import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsEmptyTimetable = RuleDescription(
        "gtfs.empty_timetable", .gtfs, .error, "stop_times.txt has a header but no rows: the feed has no departures",
        title: "Empty timetable",
        rationale: "A transit pack with stops and lines but no departures looks complete and answers every "
            + "departure question with nothing; gtfs-validator reports a required file without data as empty_file.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n",
            passing: Base.stopTimes))
}

/// stop_times.txt is present with a header and no data rows (its absence is `gtfs.missing_required_file`, a
/// file without even a header `csv.empty_file`). Reported once, at the header.
enum EmptyTimetableRule {
    static func check(_ c: GTFSValidationContext) {
        guard c.feed.files["stop_times"] != nil, c.feed.stopTimes.count == 0, c.canResolve("stop_times") else { return }
        c.report(Rules.gtfsEmptyTimetable, .noRows(trips: c.feed.trips.count), "stop_times", 1)
    }
}

extension String {
    fileprivate static func noRows(trips: Int) -> String {
        "stop_times.txt has no rows, so none of the feed's \(trips) trip\(trips == 1 ? "" : "s") has a departure; "
            + "the pack would show stops and lines with empty timetables"
    }
}
