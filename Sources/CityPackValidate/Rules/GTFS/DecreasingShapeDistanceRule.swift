import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDecreasingShapeDistance = RuleDescription(
        "gtfs.decreasing_shape_distance", .gtfs, .error, "shape_dist_traveled decreases along a shape",
        title: "Decreasing shape distance",
        rationale: "Distance along a line can only grow.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.edit(Base.shapes, "SH1,43.75,7.43,3,2.8", "SH1,43.75,7.43,3,1.2"),
            passing: Base.shapes))
}

/// shape_dist_traveled can only grow along a shape. Compared with the previous point that has a distance.
enum DecreasingShapeDistanceRule {
    static func check(_ r: Int, _ shapes: TransitShapePoints, _ walk: ShapeWalk, _ c: GTFSValidationContext) {
        let previous = walk.previousWithDistance
        let d = shapes.distance[r]
        guard !d.isNaN, previous >= 0, d < shapes.distance[previous] else { return }
        c.report(Rules.gtfsDecreasingShapeDistance, .decreasing(d, shapes.distance[previous]), "shapes",
            shapes.line[r], field: "shape_dist_traveled", entity: walk.entity(c),
            notes: [Diagnostic.Note(.previousPoint, at: c.at("shapes", shapes.line[previous])),
                Diagnostic.Note(.shapeStarts(walk.id(c)), at: c.at("shapes", shapes.line[walk.start]))])
    }
}

extension String {
    fileprivate static func decreasing(_ distance: Float, _ previous: Float) -> String {
        "shape_dist_traveled \(distance) is less than the previous point's \(previous)"
    }

    fileprivate static let previousPoint = "previous point is here"
    fileprivate static func shapeStarts(_ shape: String) -> String { "shape `\(shape)` starts here" }
}
