import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsStopWithoutLocation = RuleDescription(
        "gtfs.stop_without_location", .gtfs, .error, "A stop, station or entrance has no stop_lat/stop_lon",
        title: "Stop without location",
        rationale: "GTFS requires coordinates for location_type 0–2; the stop cannot be placed on a map.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "Casino,43.74,7.42", "Casino,,"),
            passing: Base.stops))
}

/// GTFS requires stop_lat/stop_lon for stops, stations and entrances (location_type 0–2); without them the stop
/// cannot be placed on a map.
enum StopWithoutLocationRule {
    static func check(_ stop: TransitStop, entity: String, _ c: GTFSValidationContext) {
        guard stop.coordinate == nil, stop.locationType <= 2 else { return }
        c.report(Rules.gtfsStopWithoutLocation, .noLocation(stop.locationType), "stops", stop.line,
            field: "stop_lat", entity: entity)
    }
}

extension String {
    fileprivate static func noLocation(_ type: Int8) -> String {
        "\(GTFSValidator.locationTypeName(type)) has no stop_lat/stop_lon"
    }
}
