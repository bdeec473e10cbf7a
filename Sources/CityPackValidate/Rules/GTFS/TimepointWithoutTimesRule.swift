import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsTimepointWithoutTimes = RuleDescription(
        "gtfs.timepoint_without_times", .gtfs, .error,
        "A stop_time with timepoint=1 lacks arrival_time or departure_time",
        title: "Timepoint without times",
        rationale: "timepoint=1 says the times are exact, so GTFS requires them: a timepoint without times gives "
            + "the pack a departure it cannot show. gtfs-validator reports it as an error "
            + "(stop_time_timepoint_without_times), once per missing field.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(TimepointWithoutTimesRule.example, "T1,08:05:00,08:06:00,S2,2,1.4,1",
                "T1,,,S2,2,1.4,1"),
            passing: Base.edit(TimepointWithoutTimesRule.example, "T1,08:05:00,08:06:00,S2,2,1.4,1",
                "T1,,,S2,2,1.4,0")))
}

/// A stop_time with timepoint=1 must give arrival_time and departure_time (gtfs-validator:
/// `stop_time_timepoint_without_times`): one finding per missing field, as gtfs-validator counts them. Judged
/// only when stop_times.txt has a timepoint column (``TransitStopTimes/timepoint`` is empty otherwise).
enum TimepointWithoutTimesRule {
    /// The example city's stop_times.txt with a timepoint column, every row a timepoint.
    static let example = Base.stopTimes.split(separator: "\n").enumerated()
        .map { $0.offset == 0 ? $0.element + ",timepoint" : $0.element + ",1" }.joined(separator: "\n") + "\n"

    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        guard r < st.timepoint.count, st.timepoint[r] == 1 else { return }
        for (field, time) in [("arrival_time", st.arrival[r]), ("departure_time", st.departure[r])] where time < 0 {
            c.report(Rules.gtfsTimepointWithoutTimes, .noTime(field), "stop_times", st.line[r], field: field,
                entity: walk.entity(c))
        }
    }
}

extension String {
    fileprivate static func noTime(_ field: String) -> String {
        "stop_time is a timepoint (timepoint=1) without \(field)"
    }
}
