import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsMissingStopName = RuleDescription(
        "gtfs.missing_stop_name", .gtfs, .error, "A stop, station or entrance has no stop_name",
        title: "Missing stop name",
        rationale: "Riders identify stops by name; GTFS requires it for location_type 0–2.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,", "S2,,"),
            passing: Base.stops))
}

/// GTFS requires stop_name for stops, stations and entrances (location_type 0–2): riders identify stops by name.
enum MissingStopNameRule {
    static func check(_ stop: TransitStop, entity: String, _ c: GTFSValidationContext) {
        guard stop.locationType <= 2, (stop.name ?? "").isEmpty else { return }
        c.report(Rules.gtfsMissingStopName, .noName(stop.locationType), "stops", stop.line, field: "stop_name",
            entity: entity)
    }
}

extension String {
    fileprivate static func noName(_ type: Int8) -> String {
        "\(GTFSValidator.locationTypeName(type)) has no stop_name"
    }
}
