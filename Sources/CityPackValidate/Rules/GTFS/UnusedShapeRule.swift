import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsUnusedShape = RuleDescription(
        "gtfs.unused_shape", .gtfs, .warning, "A shape is referenced by no trip",
        title: "Unused shape",
        rationale: "Dead weight in the pack; often a sign of a broken shape_id reference.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.shapes + "SH2,43.73,7.41,1,0\nSH2,43.75,7.43,2,2.8\n",
            passing: Base.shapes))
}

/// A shape no trip references is dead weight in the pack, and often a sign of a broken shape_id reference.
/// Reported at the shape's first row in the file.
struct UnusedShapeRule {
    /// shape_ids that trips reference.
    private let used: Set<String>

    init(_ c: GTFSValidationContext) { used = Set(c.feed.trips.compactMap(\.shapeID)) }

    func check(_ walk: ShapeWalk, firstRow: Int, _ c: GTFSValidationContext) {
        guard !used.contains(walk.id(c)) else { return }
        c.report(Rules.gtfsUnusedShape, .unused, "shapes", c.feed.shapes.line[firstRow], field: "shape_id",
            entity: walk.entity(c))
    }
}

extension String {
    fileprivate static let unused = "shape is not used by any trip"
}
