import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsUnusedTrip = RuleDescription(
        "gtfs.unused_trip", .gtfs, .warning, "A trip has no stop_times",
        title: "Trip without stop times",
        rationale: "The trip is dead weight; usually stop_times were filtered without trips.",
        example: RuleExample(file: "gtfs/trips.txt", triggering: Base.trips + "R1,WK,T3,,SH1\n", passing: Base.trips))
}

/// A trip without stop_times is dead weight; usually stop_times were filtered without their trips.
enum UnusedTripRule {
    /// `stopTimes`: how many stop_times the trip has.
    static func check(_ trip: TransitTrip, stopTimes: Int, entity: String, _ c: GTFSValidationContext) {
        guard stopTimes == 0 else { return }
        c.report(Rules.gtfsUnusedTrip, .noStopTimes, "trips", trip.line, field: "trip_id", entity: entity)
    }
}

extension String {
    fileprivate static let noStopTimes = "trip has no stop_times"
}
