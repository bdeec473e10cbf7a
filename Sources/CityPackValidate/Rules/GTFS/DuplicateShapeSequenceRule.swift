import CityPackDiagnostics
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsDuplicateShapeSequence = RuleDescription(
        "gtfs.duplicate_shape_sequence", .gtfs, .error, "Two points of one shape share a shape_pt_sequence",
        title: "Duplicate shape sequence",
        rationale: "The order of the points, and so the drawn line, is undefined.",
        example: RuleExample(
            file: "gtfs/shapes.txt",
            triggering: Base.edit(Base.shapes, "SH1,43.75,7.43,3,", "SH1,43.75,7.43,2,"),
            passing: Base.shapes))
}

/// Two points of one shape with the same shape_pt_sequence leave the order of the points, and so the drawn
/// line, undefined. Points come sorted by sequence, so a repeat is next to the point it repeats.
enum DuplicateShapeSequenceRule {
    static func check(_ r: Int, _ shapes: TransitShapePoints, _ walk: ShapeWalk, _ c: GTFSValidationContext) {
        let previous = walk.previous
        guard previous >= 0, shapes.sequence[r] == shapes.sequence[previous] else { return }
        c.report(Rules.gtfsDuplicateShapeSequence, .usedTwice(shapes.sequence[r], walk.id(c)), "shapes",
            shapes.line[r], field: "shape_pt_sequence", entity: walk.entity(c),
            notes: [Diagnostic.Note(.firstUsed, at: c.at("shapes", shapes.line[previous]))])
    }
}

extension String {
    fileprivate static func usedTwice(_ sequence: Int32, _ shape: String) -> String {
        "shape_pt_sequence \(sequence) is used twice in shape `\(shape)`"
    }

    fileprivate static let firstUsed = "first used here"
}
