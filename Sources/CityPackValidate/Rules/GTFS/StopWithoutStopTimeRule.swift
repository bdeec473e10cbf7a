import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsStopWithoutStopTime = RuleDescription(
        "gtfs.stop_without_stop_time", .gtfs, .warning, "A stop (location_type 0) is served by no trip",
        title: "Stop without stop times",
        rationale: "Unused stops clutter the map with places no vehicle serves.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.stops + "S4,Monte-Carlo,43.745,7.425,0,\n",
            passing: Base.stops + "S4,Monte-Carlo,43.745,7.425,1,\n"))
}

/// A stop (location_type 0) that no stop_time serves clutters the map with a place no vehicle calls at. Not
/// judged when the feed has no stop_times.txt (`gtfs.missing_required_file` says so).
struct StopWithoutStopTimeRule {
    /// Whether each row of stops.txt is served. References resolve to the first row of a repeated stop_id; later
    /// rows are `gtfs.duplicate_key` findings, not unused stops, so they count as served when the ID is (as
    /// ``GTFSValidator/firstStopTimes(_:)`` gives them).
    private let served: [Bool]

    /// - Parameter firstStopTimes: ``GTFSValidator/firstStopTimes(_:)``.
    init(firstStopTimes: [Int32]) {
        served = firstStopTimes.map { $0 >= 0 }
    }

    /// Checks row `index` of stops.txt.
    func check(_ index: Int, _ stop: TransitStop, entity: String, _ c: GTFSValidationContext) {
        guard stop.locationType == 0, !served[index], c.feed.files["stop_times"] != nil else { return }
        c.report(Rules.gtfsStopWithoutStopTime, .notServed, "stops", stop.line, field: "stop_id", entity: entity)
    }
}

extension String {
    fileprivate static let notServed = "stop is not served by any trip"
}
