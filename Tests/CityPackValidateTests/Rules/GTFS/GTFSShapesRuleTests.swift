import Testing

/// Rules on shapes.txt (`GTFSValidator+Shapes.swift`).
@Suite struct GTFSShapesRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        Case(code: "gtfs.decreasing_shape_distance",
            files: ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nSH1,45.46,9.19,1,0\nSH1,45.47,9.20,2,1.3\nSH1,45.48,9.21,3,1.2\n"],
            at: "feed/shapes.txt:4"),
        Case(code: "gtfs.duplicate_shape_sequence",
            files: ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,45.46,9.19,1\nSH1,45.47,9.20,1\n"],
            at: "feed/shapes.txt:3"),
        Case(code: "gtfs.unused_shape",
            files: ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,45.46,9.19,1\nSH1,45.47,9.20,2\nSH2,45.46,9.19,1\n"],
            at: "feed/shapes.txt:4"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }
}
