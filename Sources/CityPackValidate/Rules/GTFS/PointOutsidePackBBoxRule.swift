import CityPackDiagnostics
import CityPackGeometry
import CityPackModel

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsPointOutsideBBox = RuleDescription(
        "gtfs.point_outside_pack_bbox", .gtfs, .warning,
        "Stops lie outside the city bounding box and are left out of the pack",
        title: "Stops outside the bounding box",
        rationale: "A city pack holds its city: a stop in another town would answer \"nearby\" and search there. "
            + "Feeds often list a whole region's or country's stops; the pack keeps the ones in the box, and trips "
            + "with no stop inside go too. One warning per feed counts them (the first stop is its location); "
            + "`stops_outside_bbox: keep` in the city file keeps them all and silences it.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "43.74,7.42", "43.74,7.48"),
            passing: Base.stops))
}

/// Stops outside the city box, counted once per feed, with the trips left without a stop inside
/// (``TransitBBoxSelection``, the decision the pack writer applies). Not judged when no box is given or the city
/// keeps such stops.
enum PointOutsidePackBBoxRule {
    /// Stops named in the warning's notes, at most.
    static let namedStops = 3

    static func check(_ c: GTFSValidationContext) {
        guard let box = c.bbox else { return }
        let selection = TransitBBoxSelection(c.feed, bbox: box)
        let dropped = selection.droppedStops.sorted { c.feed.stops[$0].line < c.feed.stops[$1].line }
        guard let first = dropped.first else { return }
        let stops = c.feed.stops
        let positions = dropped.compactMap { stops[$0].coordinate }.filter(\.isValid)
        let extent = BoundingBox.enclosing(positions)
        var notes = dropped.dropFirst().prefix(namedStops).map { i in
            Diagnostic.Note(.alsoOutside(stops[i]), at: c.at("stops", stops[i].line, "stop_lat"))
        }
        if let extent { notes.append(Diagnostic.Note(.extent(extent), at: nil)) }
        c.report(Rules.gtfsPointOutsideBBox, .outside(dropped.count, stops[first], box, selection.droppedTrips), "stops",
            stops[first].line, field: "stop_lat", entity: "stop_id=\(stops[first].id)", notes: notes)
    }
}

extension String {
    fileprivate static func outside(_ count: Int, _ stop: TransitStop, _ box: BoundingBox, _ trips: Int) -> String {
        let position = stop.coordinate.map { " at (\($0.lat), \($0.lon))" } ?? ""
        let what = count == 1 ? "stop `\(stop.id)`\(position) lies" : "\(count) stops lie"
        let tripText = trips == 0 ? "" : ", with \(trips) trip\(trips == 1 ? "" : "s") that stop\(trips == 1 ? "s" : "") nowhere inside"
        let first = count == 1 ? "" : "; the first is `\(stop.id)`\(position)"
        return "\(what) outside the city bounding box [\(box.minLon), \(box.minLat), \(box.maxLon), \(box.maxLat)] and "
            + "\(count == 1 ? "is" : "are") left out of the pack\(tripText)\(first); `stops_outside_bbox: keep` in the city "
            + "file keeps them"
    }

    fileprivate static func alsoOutside(_ stop: TransitStop) -> String {
        "stop `\(stop.id)`" + (stop.coordinate.map { " at (\($0.lat), \($0.lon))" } ?? "") + " is outside too"
    }

    fileprivate static func extent(_ box: BoundingBox) -> String {
        "the stops left out span [\(box.minLon), \(box.minLat), \(box.maxLon), \(box.maxLat)]"
    }
}
