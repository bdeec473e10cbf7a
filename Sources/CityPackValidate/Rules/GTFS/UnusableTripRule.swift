import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsUnusableTrip = RuleDescription(
        "gtfs.unusable_trip", .gtfs, .warning, "A trip has fewer than two stop_times",
        title: "Unusable trip",
        rationale: "A trip must go from one stop to another to be usable for routing.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T2,09:05:00,09:05:00,S2,2,1.4\nT2,09:10:00,09:10:00,S1,3,2.8\n", ""),
            passing: Base.stopTimes))
}

/// A trip with a single stop_time goes nowhere, so it cannot be used for routing. (No stop_times at all is
/// `gtfs.unused_trip`.)
enum UnusableTripRule {
    /// `stopTimes`: how many stop_times the trip has.
    static func check(_ trip: TransitTrip, stopTimes: Int, entity: String, _ c: GTFSValidationContext) {
        guard stopTimes == 1 else { return }
        c.report(Rules.gtfsUnusableTrip, .oneStopTime, "trips", trip.line, field: "trip_id", entity: entity)
    }
}

extension String {
    fileprivate static let oneStopTime = "trip has only one stop_time"
}
