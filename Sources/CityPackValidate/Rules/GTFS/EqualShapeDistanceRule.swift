import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsEqualShapeDistance = RuleDescription(
        "gtfs.equal_shape_distance_diff_coordinates", .gtfs, .warning,
        "Two consecutive points of a shape have the same shape_dist_traveled but different coordinates",
        title: "Equal shape distance, other place",
        rationale: "Distance along a line must grow between two places; consumers that place vehicles by distance "
            + "put both points at one spot. gtfs-validator reports it as an error (equal_shape_distance_diff_coordinates); "
            + "CityPack warns, because packs hold no shapes and no distances, so it cannot mislead an app that "
            + "reads the pack.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.edit(Base.shapes, "SH1,43.74,7.42,2,1.4", "SH1,43.74,7.42,2,0"),
            passing: Base.shapes))
}

/// Consecutive points (in sequence order) with equal shape_dist_traveled at different coordinates (gtfs-validator:
/// `equal_shape_distance_diff_coordinates`). Points at the very same coordinates are a repeated point, not this.
enum EqualShapeDistanceRule {
    static func check(_ r: Int, _ shapes: TransitShapePoints, _ walk: ShapeWalk, _ c: GTFSValidationContext) {
        let p = walk.previous
        guard p >= 0 else { return }
        let d = shapes.distance[r]
        guard !d.isNaN, d == shapes.distance[p], shapes.lat[r] != shapes.lat[p] || shapes.lon[r] != shapes.lon[p] else { return }
        let metres = GreatCircle.distance(shapes.lat[p], shapes.lon[p], shapes.lat[r], shapes.lon[r])
        c.report(Rules.gtfsEqualShapeDistance, .equal(d, metres: metres), "shapes", shapes.line[r],
            field: "shape_dist_traveled", entity: walk.entity(c),
            notes: [Diagnostic.Note(.previousPoint, at: c.at("shapes", shapes.line[p]))])
    }
}

extension String {
    fileprivate static func equal(_ distance: Float, metres: Double) -> String {
        "shape_dist_traveled \(distance) equals the previous point's, \(Int(metres.rounded())) m away"
    }

    fileprivate static let previousPoint = "previous point is here"
}
