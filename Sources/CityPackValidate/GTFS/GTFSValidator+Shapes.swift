import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

/// Where the walk along one shape's points is (in sequence order): the earlier points that rules compare the
/// current one with. Points index ``TransitShapePoints``; -1 means none yet. Only integers, so handing it to
/// every rule for every point copies nothing of note.
struct ShapeWalk {
    /// Index of the shape in ``TransitShapePoints/ids``.
    let shape: Int
    /// The shape's first point in sequence order.
    let start: Int
    /// The previous point.
    var previous = -1
    /// The previous point with a shape_dist_traveled.
    var previousWithDistance = -1

    /// The shape_id.
    func id(_ c: GTFSValidationContext) -> String { c.feed.shapes.ids[shape] }

    /// `shape_id=…`: the entity of every finding on the shape.
    func entity(_ c: GTFSValidationContext) -> String { "shape_id=\(id(c))" }
}

extension GTFSValidator {
    /// shapes.txt: each shape's use by trips, then its points in sequence order (sequence, distance, coordinates),
    /// then the stops and trips that follow each shape.
    static func checkShapes(_ c: GTFSValidationContext) {
        let shapes = c.feed.shapes
        guard shapes.count > 0 else { return }
        var byShape = [[Int]](repeating: [], count: shapes.ids.count)
        for i in 0..<shapes.count { byShape[Int(shapes.shape[i])].append(i) }
        let unused = UnusedShapeRule(c)
        var tripDistance = TripDistanceExceedsShapeDistanceRule(shapes)
        var polylines = [[Coordinate]](repeating: [], count: byShape.count)
        for (s, rows) in byShape.enumerated() {
            let ordered = rows.sorted { (shapes.sequence[$0], $0) < (shapes.sequence[$1], $1) }
            polylines[s] = ordered.map { Coordinate(lat: shapes.lat[$0], lon: shapes.lon[$0]) }
            guard let start = ordered.first else { continue }
            var walk = ShapeWalk(shape: s, start: start)
            let entity = walk.entity(c)
            unused.check(walk, firstRow: rows[0], c)
            for r in ordered {
                DuplicateShapeSequenceRule.check(r, shapes, walk, c)
                DecreasingShapeDistanceRule.check(r, shapes, walk, c)
                EqualShapeDistanceRule.check(r, shapes, walk, c)
                tripDistance.observe(r, shapes, walk)
                CoordinateOutOfRangeRule.check(Coordinate(lat: shapes.lat[r], lon: shapes.lon[r]), table: "shapes",
                    line: shapes.line[r], field: "shape_pt_lat", entity: entity, c)
                if !shapes.distance[r].isNaN { walk.previousWithDistance = r }
                walk.previous = r
            }
        }
        StopTooFarFromShapeRule.check(polylines, c)
        tripDistance.check(c)
    }
}
