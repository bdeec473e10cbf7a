import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsCoordinateOutOfRange = RuleDescription(
        "gtfs.coordinate_out_of_range", .gtfs, .error, "A latitude is outside ±90° or a longitude outside ±180°",
        title: "Coordinate out of range",
        rationale: "Such a point is not on Earth; maps and distance checks break.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "143.74,7.42"),
            passing: Base.stops))
}

/// A stop or shape point that is not on Earth (latitude beyond ±90°, longitude beyond ±180°): maps and distance
/// checks break on it.
enum CoordinateOutOfRangeRule {
    static func check(_ p: Coordinate, table: String, line: Int32, field: String, entity: String,
        _ c: GTFSValidationContext)
    {
        guard !p.isValid else { return }
        c.report(Rules.gtfsCoordinateOutOfRange, .outOfRange(p), table, line, field: field, entity: entity)
    }
}

extension String {
    fileprivate static func outOfRange(_ p: Coordinate) -> String {
        "coordinate (\(p.lat), \(p.lon)) is outside ±90°/±180°"
    }
}
