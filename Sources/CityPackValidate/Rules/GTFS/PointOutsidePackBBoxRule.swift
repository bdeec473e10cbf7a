import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    public static let gtfsPointOutsideBBox = RuleDescription(
        "gtfs.point_outside_pack_bbox", .gtfs, .warning, "A stop lies outside the city bounding box",
        title: "Stop outside the bounding box",
        rationale: "The pack covers its box; stops outside are useless to users and hint at a wrong feed or box.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "43.74,7.48"),
            passing: Base.stops))
}

/// A stop outside the city bounding box: useless to the pack's users, and a hint at a wrong feed or box. Not
/// judged when no box is given or the coordinate is not on Earth (`gtfs.coordinate_out_of_range` says so).
enum PointOutsidePackBBoxRule {
    static func check(_ stop: TransitStop, at p: Coordinate, entity: String, _ c: GTFSValidationContext) {
        guard let box = c.bbox, p.isValid, !box.contains(p) else { return }
        c.report(Rules.gtfsPointOutsideBBox, .outside(p), "stops", stop.line, field: "stop_lat", entity: entity)
    }
}

extension String {
    fileprivate static func outside(_ p: Coordinate) -> String {
        "stop at (\(p.lat), \(p.lon)) is outside the city bounding box"
    }
}
