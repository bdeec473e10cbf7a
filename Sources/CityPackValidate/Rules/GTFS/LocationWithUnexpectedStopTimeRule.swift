import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsLocationWithUnexpectedStopTime = RuleDescription(
        "gtfs.location_with_unexpected_stop_time", .gtfs, .error,
        "stop_times.stop_id names a station, entrance, generic node or boarding area instead of a stop",
        title: "Stop time at a non-stop location",
        rationale: "Vehicles call at stops and platforms (location_type 0); a station, an entrance, a node of a "
            + "pathway or a boarding area is no place to board, and the pack would list departures at it. "
            + "gtfs-validator reports it as an error (location_with_unexpected_stop_time), once per location, at "
            + "the first stop_time that names it.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,43.74,7.42,0,", "S2,Casino,43.74,7.42,1,"),
            passing: Base.stops))
}

/// A stop_time must name a stop or platform (location_type 0). Checked per row of stops.txt with the first
/// stop_times row (in file order) that names it, which ``GTFSValidator/firstStopTimes(_:)`` found in the pass
/// that also feeds `gtfs.stop_without_stop_time`; reported at that stop_times row, with a note at the stop.
/// References resolve to the first row of a repeated stop_id, so only that row is judged.
enum LocationWithUnexpectedStopTimeRule {
    /// Checks row `index` of stops.txt, `row` being the first stop_times row that names it (-1 for none).
    static func check(_ index: Int, _ stop: TransitStop, firstStopTime row: Int32, entity: String,
        _ c: GTFSValidationContext)
    {
        guard stop.locationType != 0, row >= 0, c.stopByID[stop.id] == index else { return }
        let st = c.feed.stopTimes
        let trip = st.trip[Int(row)]
        c.report(Rules.gtfsLocationWithUnexpectedStopTime, .notAStop(stop), "stop_times", st.line[Int(row)],
            field: "stop_id", entity: trip >= 0 ? "trip_id=\(c.feed.trips[Int(trip)].id)" : entity,
            notes: [Diagnostic.Note(.locationHere(stop), at: c.at("stops", stop.line, "location_type"))])
    }
}

extension String {
    fileprivate static func notAStop(_ stop: TransitStop) -> String {
        "stop_id `\(stop.id)` is a \(GTFSValidator.locationTypeName(stop.locationType)) (location_type "
            + "\(stop.locationType)), not a stop or platform"
    }

    fileprivate static func locationHere(_ stop: TransitStop) -> String {
        "\(GTFSValidator.locationTypeName(stop.locationType)) `\(stop.id)` is defined here"
    }
}
