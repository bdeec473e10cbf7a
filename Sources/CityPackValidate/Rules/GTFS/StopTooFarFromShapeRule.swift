import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import Foundation

private typealias Base = RuleExampleCity

extension Rules {
    package static let gtfsStopTooFarFromShape = RuleDescription(
        "gtfs.stop_too_far_from_shape", .gtfs, .warning,
        "A stop lies more than 100 m from the shape of a trip that serves it",
        title: "Stop too far from shape",
        rationale: "A stop far off its line is a stop with wrong coordinates or a trip with the wrong shape: riders "
            + "are sent to a place the vehicle never passes. gtfs-validator reports it (stop_too_far_from_shape) with "
            + "the same 100 m threshold, once per shape and stop.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,43.74,7.42", "S2,Casino,43.745,7.415"),
            passing: Base.stops))
}

/// Each stop served by a trip with a shape is at most ``threshold`` from that shape's polyline (gtfs-validator:
/// `stop_too_far_from_shape`). Checked once per distinct (shape, stop) pair and reported at the first stop_times
/// row that makes the pair, in row order, with notes at the stop and the trip. Shapes with fewer than two points
/// and stops without coordinates are other rules' findings.
enum StopTooFarFromShapeRule {
    /// Metres, as gtfs-validator.
    static let threshold = 100.0

    /// - Parameter polylines: each shape's points in sequence order, as `GTFSValidator.checkShapes` walks them.
    static func check(_ polylines: [[Coordinate]], _ c: GTFSValidationContext) {
        let feed = c.feed
        let shapes = feed.shapes
        guard shapes.count > 1, feed.stopTimes.count > 0 else { return }
        var shapeIndex: [String: Int] = [:]
        for (i, id) in shapes.ids.enumerated() where polylines[i].count >= 2 { shapeIndex[id] = i }
        let st = feed.stopTimes
        var seen: Set<Int64> = []
        var findings: [(row: Int, trip: Int, stop: Int, shape: Int, metres: Double)] = []
        for (t, range) in st.tripRanges.enumerated() where !range.isEmpty {
            guard let shapeID = feed.trips[t].shapeID, let s = shapeIndex[shapeID] else { continue }
            let polyline = polylines[s]
            for r in st.byTrip[Int(range.lowerBound)..<Int(range.upperBound)].map(Int.init) {
                let stop = Int(st.stop[r])
                guard stop >= 0, let at = feed.stops[stop].coordinate,
                    seen.insert(Int64(s) << 32 | Int64(stop)).inserted
                else { continue }
                let metres = distance(from: at, to: polyline)
                if metres > threshold { findings.append((r, t, stop, s, metres)) }
            }
        }
        for f in findings.sorted(by: { $0.row < $1.row }) {
            let stop = feed.stops[f.stop]
            let trip = feed.trips[f.trip]
            c.report(Rules.gtfsStopTooFarFromShape, .farFromShape(stop.id, shapes.ids[f.shape], f.metres), "stop_times",
                st.line[f.row], field: "stop_id", entity: "trip_id=\(trip.id)",
                notes: [
                    Diagnostic.Note(.stopHere(stop.id), at: c.at("stops", stop.line, "stop_lat")),
                    Diagnostic.Note(.tripHere(trip.id), at: c.at("trips", trip.line, "shape_id")),
                ])
        }
    }

    /// Metres from `point` to the nearest point of `polyline`: segments are measured in a plane tangent at the
    /// point (equirectangular, exact to well under a metre at the distances that matter here), and the nearest
    /// point found is measured again on the sphere.
    static func distance(from point: Coordinate, to polyline: [Coordinate]) -> Double {
        let scale = cos(point.lat * .pi / 180)
        func plane(_ p: Coordinate) -> (x: Double, y: Double) {
            var dLon = p.lon - point.lon
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return (dLon * scale, p.lat - point.lat)
        }
        var best = Double.infinity
        var nearest = polyline[0]
        var a = plane(polyline[0])
        for i in 1..<polyline.count {
            let b = plane(polyline[i])
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / length2)) : 0
            let x = a.x + t * dx
            let y = a.y + t * dy
            let d2 = x * x + y * y
            if d2 < best {
                best = d2
                let p = polyline[i - 1]
                let q = polyline[i]
                var dLon = q.lon - p.lon
                if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
                nearest = Coordinate(lat: p.lat + t * (q.lat - p.lat), lon: p.lon + t * dLon)
            }
            a = b
        }
        return GreatCircle.distance(point.lat, point.lon, nearest.lat, nearest.lon)
    }
}

extension String {
    fileprivate static func farFromShape(_ stop: String, _ shape: String, _ metres: Double) -> String {
        "stop `\(stop)` is \(Int(metres.rounded())) m from shape `\(shape)` of the trip that serves it"
    }

    fileprivate static func stopHere(_ stop: String) -> String { "stop `\(stop)` is here" }

    fileprivate static func tripHere(_ trip: String) -> String { "trip `\(trip)` follows this shape" }
}
