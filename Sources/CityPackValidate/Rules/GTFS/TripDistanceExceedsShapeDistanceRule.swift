import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsTripDistanceExceedsShapeDistance = RuleDescription(
        "gtfs.trip_distance_exceeds_shape_distance", .gtfs, .warning,
        "A trip's last shape_dist_traveled exceeds its shape's, and its last stop is more than 11.1 m from the "
            + "shape's end",
        title: "Trip distance exceeds shape distance",
        rationale: "A trip cannot travel farther along its shape than the shape is long: the last stop lies beyond "
            + "the line's end, so the shape is cut short or the distances are in other units. gtfs-validator "
            + "reports it as an error (trip_distance_exceeds_shape_distance) when the last stop is more than 11.1 m "
            + "from the shape's farthest point, and warns below that "
            + "(gtfs.trip_distance_exceeds_shape_distance_below_threshold here). A warning here by default: the pack "
            + "carries no shapes and no shape_dist_traveled, so no answer of the pack depends on them; `--werror` or "
            + "`--rule gtfs.trip_distance_exceeds_shape_distance=error` refuse the feed as gtfs-validator does.",
        example: RuleExample(
            file: "gtfs/stop_times.txt",
            triggering: Base.edit(Base.stopTimes, "T2,09:10:00,09:10:00,S1,3,2.8", "T2,09:10:00,09:10:00,S1,3,2.9"),
            passing: Base.stopTimes))
}

/// A trip's last stop_time (in stop_sequence order) with a shape_dist_traveled greater than the largest of its
/// shape (gtfs-validator: `trip_distance_exceeds_shape_distance` and `…_below_threshold`, with its rules):
/// shape points without a distance count as 0, a shape whose largest distance is 0 is not judged, and the last
/// stop is measured to the shape's first point with that largest distance. More than ``threshold`` away is an
/// error, nearer (even 0 m) a warning. Reported at the last stop_time, once per trip, with notes at that shape
/// point and the trip. The largest distances are gathered in the walk over shapes.txt
/// (``observe(_:_:_:)``); then one look at each trip's last stop_time.
struct TripDistanceExceedsShapeDistanceRule {
    /// Metres, as gtfs-validator.
    static let threshold = 11.1

    /// For each shape, its first point (in sequence order) with the largest shape_dist_traveled above 0; -1 if none.
    private var farthest: [Int]

    init(_ shapes: TransitShapePoints) {
        farthest = [Int](repeating: -1, count: shapes.ids.count)
    }

    /// Takes point `r` of the shape being walked.
    mutating func observe(_ r: Int, _ shapes: TransitShapePoints, _ walk: ShapeWalk) {
        let d = shapes.distance[r]
        guard !d.isNaN, d > 0 else { return }
        let f = farthest[walk.shape]
        if f < 0 || d > shapes.distance[f] { farthest[walk.shape] = r }
    }

    func check(_ c: GTFSValidationContext) {
        let feed = c.feed, st = feed.stopTimes, shapes = feed.shapes
        guard farthest.contains(where: { $0 >= 0 }) else { return }
        var shapeIndex: [String: Int] = [:]
        for (i, id) in shapes.ids.enumerated() where farthest[i] >= 0 { shapeIndex[id] = i }
        for (t, range) in st.tripRanges.enumerated() where !range.isEmpty {
            guard let shapeID = feed.trips[t].shapeID, let s = shapeIndex[shapeID] else { continue }
            let r = Int(st.byTrip[Int(range.upperBound) - 1])
            let stop = Int(st.stop[r]), p = farthest[s]
            guard stop >= 0, let at = feed.stops[stop].coordinate, st.distance[r] > shapes.distance[p] else { continue }
            let metres = GreatCircle.distance(at.lat, at.lon, shapes.lat[p], shapes.lon[p])
            let rule = metres > Self.threshold
                ? Rules.gtfsTripDistanceExceedsShapeDistance : Rules.gtfsTripDistanceExceedsShapeDistanceBelowThreshold
            let trip = feed.trips[t]
            c.report(rule, .exceeds(st.distance[r], shapes.distance[p], shapeID, metres), "stop_times", st.line[r],
                field: "shape_dist_traveled", entity: "trip_id=\(trip.id)",
                notes: [
                    Diagnostic.Note(.farthestPoint(shapeID), at: c.at("shapes", shapes.line[p], "shape_dist_traveled")),
                    Diagnostic.Note(.tripHere(trip.id), at: c.at("trips", trip.line, "shape_id")),
                ])
        }
    }
}

extension String {
    fileprivate static func exceeds(_ trip: Float, _ shape: Float, _ shapeID: String, _ metres: Double) -> String {
        "last stop's shape_dist_traveled \(trip) exceeds \(shape), the largest of shape `\(shapeID)`; the stop is "
            + "\(metres < 1 ? "under 1" : "\(Int(metres.rounded()))") m from that point (gtfs-validator: error; a "
            + "warning here since the pack carries no shapes)"
    }

    fileprivate static func farthestPoint(_ shape: String) -> String { "shape `\(shape)` ends its distances here" }

    fileprivate static func tripHere(_ trip: String) -> String { "trip `\(trip)` follows this shape" }
}
