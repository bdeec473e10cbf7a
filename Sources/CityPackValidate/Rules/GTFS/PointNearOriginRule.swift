import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsPointNearOrigin = RuleDescription(
        "gtfs.point_near_origin", .gtfs, .error, "A point lies within 1° of (0, 0)",
        title: "Point near origin",
        rationale: "Almost always a missing coordinate written as zeros.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "0.0,0.0"),
            passing: Base.stops))
}

/// A stop within 1° of (0, 0): almost always a missing coordinate written as zeros.
enum PointNearOriginRule {
    static func check(_ p: Coordinate, table: String, line: Int32, field: String, entity: String,
        _ c: GTFSValidationContext)
    {
        guard p.isValid, abs(p.lat) <= 1, abs(p.lon) <= 1 else { return }
        c.report(Rules.gtfsPointNearOrigin, .nearOrigin(p), table, line, field: field, entity: entity)
    }
}

extension String {
    fileprivate static func nearOrigin(_ p: Coordinate) -> String {
        "coordinate (\(p.lat), \(p.lon)) is within 1° of (0, 0)"
    }
}
