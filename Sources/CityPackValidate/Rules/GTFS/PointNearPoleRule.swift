import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsPointNearPole = RuleDescription(
        "gtfs.point_near_pole", .gtfs, .error, "A point lies within 1° of a pole",
        title: "Point near a pole",
        rationale: "Almost always swapped or corrupt coordinates; no transit runs there.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "89.5,7.42"),
            passing: Base.stops))
}

/// A stop within 1° of a pole: almost always swapped or corrupt coordinates, since no transit runs there.
enum PointNearPoleRule {
    static func check(_ p: Coordinate, table: String, line: Int32, field: String, entity: String,
        _ c: GTFSValidationContext)
    {
        guard p.isValid, abs(p.lat) >= 89 else { return }
        c.report(Rules.gtfsPointNearPole, .nearPole(p), table, line, field: field, entity: entity)
    }
}

extension String {
    fileprivate static func nearPole(_ p: Coordinate) -> String {
        "coordinate (\(p.lat), \(p.lon)) is within 1° of a pole"
    }
}
