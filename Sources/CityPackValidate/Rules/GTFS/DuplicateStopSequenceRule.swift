import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDuplicateStopSequence = RuleDescription(
        "gtfs.duplicate_stop_sequence", .gtfs, .error, "Two stop_times of one trip share a stop_sequence",
        title: "Duplicate stop sequence",
        rationale: "The order of the two stops is then undefined.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T1,08:10:00,08:10:00,S3,3,", "T1,08:10:00,08:10:00,S3,2,"),
            passing: Base.stopTimes))
}

/// Two stop_times of one trip with the same stop_sequence leave the order of their stops undefined. Rows come
/// sorted by sequence, so a repeat is always next to the row it repeats.
enum DuplicateStopSequenceRule {
    static func check(_ r: Int, _ st: TransitStopTimes, _ walk: StopTimeWalk, _ c: GTFSValidationContext) {
        let previous = walk.previous
        guard previous >= 0, st.sequence[r] == st.sequence[previous], st.sequence[r] >= 0 else { return }
        c.report(Rules.gtfsDuplicateStopSequence, .usedTwice(st.sequence[r], c.feed.trips[walk.trip]), "stop_times",
            st.line[r], field: "stop_sequence", entity: walk.entity(c),
            notes: [Diagnostic.Note(.firstUsed, at: c.at("stop_times", st.line[previous], "stop_sequence"))])
    }
}

extension String {
    fileprivate static func usedTwice(_ sequence: Int32, _ trip: TransitTrip) -> String {
        "stop_sequence \(sequence) is used twice in trip `\(trip.id)`"
    }

    fileprivate static let firstUsed = "first used here"
}
