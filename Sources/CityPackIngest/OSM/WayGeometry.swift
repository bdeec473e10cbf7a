import CityPackGeometry
import Foundation
import CityPackModel

/// Representative points of ways, computed in an equirectangular projection around the first node
/// (x = Δlon·cos(lat₀), y = Δlat, in degrees), which is accurate enough at city scale.
package enum WayGeometry {
    /// The point that stands for a way on a map.
    ///
    /// - Closed ways (first node = last node, at least 4 refs): the area centroid when it lies inside the
    ///   polygon, otherwise a point on the surface: the midpoint of the widest interval where the horizontal
    ///   line through the centroid crosses the polygon.
    /// - Open ways (and degenerate polygons): the point halfway along the line.
    /// - Parameter points: The way's node positions in order, in degrees.
    /// - Returns: nil for an empty way. Coordinates are rounded to 1e-7°.
    package static func representativePoint(_ points: [(lat: Double, lon: Double)]) -> Coordinate? {
        guard let first = points.first else { return nil }
        let k = cos(first.lat * .pi / 180)
        let xy = points.map { ((($0.lon - first.lon) * k), $0.lat - first.lat) }
        let p: (x: Double, y: Double)
        let closed = points.count >= 4 && points.last! == first
        if closed, let c = surfacePoint(xy) {
            p = c
        } else {
            p = halfway(xy)
        }
        let lon = k > 1e-12 ? p.x / k + first.lon : first.lon
        return Coordinate(lat: round7(p.y + first.lat), lon: round7(lon))
    }

    /// The representative point of a way of which only some nodes are present (an extract cut at its edge):
    /// the present nodes, in order, as a ring when the way was closed and at least three distinct nodes remain,
    /// otherwise as a line.
    /// - Parameters:
    ///   - points: Positions of the nodes that are present, in way order, in degrees.
    ///   - wasClosed: Whether the full way was closed (first ref = last ref).
    /// - Returns: nil when no node is present.
    package static func representativePoint(ofPartial points: [(lat: Double, lon: Double)], wasClosed: Bool) -> Coordinate? {
        guard let first = points.first else { return nil }
        var ring = points
        if wasClosed {
            if ring.count > 1 && ring.last! == first { ring.removeLast() }
            var distinct: [(lat: Double, lon: Double)] = []
            for p in ring where !distinct.contains(where: { $0 == p }) { distinct.append(p) }
            if distinct.count >= 3 { ring.append(first) }
        }
        return representativePoint(ring)
    }

    private static func round7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }

    /// Centroid if inside, else a point on the surface; nil for a polygon with no area. The centroid and the
    /// even–odd test are ``Multipolygon``'s.
    private static func surfacePoint(_ ring: [(Double, Double)]) -> (x: Double, y: Double)? {
        let points = ring.map { Multipolygon.Point(x: $0.0, y: $0.1) }
        guard let c = Multipolygon.centroid(points) else { return nil }
        if Multipolygon.contains(points, c) { return (c.x, c.y) }
        let cy = c.y
        // Horizontal line through the centroid: crossings with each edge (half-open on y, so vertices count once).
        var xs: [Double] = []
        for i in 0..<(ring.count - 1) {
            let (x0, y0) = ring[i]
            let (x1, y1) = ring[i + 1]
            if (y0 <= cy) != (y1 <= cy) {
                xs.append(x0 + (cy - y0) / (y1 - y0) * (x1 - x0))
            }
        }
        xs.sort()
        var best: (x: Double, y: Double)?
        var widest = -1.0
        var i = 0
        while i + 1 < xs.count {
            if xs[i + 1] - xs[i] > widest {
                widest = xs[i + 1] - xs[i]
                best = ((xs[i] + xs[i + 1]) / 2, cy)
            }
            i += 2
        }
        return best
    }

    /// The point at half the line's length (the first point for zero length).
    private static func halfway(_ line: [(Double, Double)]) -> (x: Double, y: Double) {
        var total = 0.0
        for i in 0..<(line.count - 1) {
            total += hypot(line[i + 1].0 - line[i].0, line[i + 1].1 - line[i].1)
        }
        guard total > 0 else { return line[0] }
        var remaining = total / 2
        for i in 0..<(line.count - 1) {
            let d = hypot(line[i + 1].0 - line[i].0, line[i + 1].1 - line[i].1)
            if remaining <= d && d > 0 {
                let t = remaining / d
                return (line[i].0 + t * (line[i + 1].0 - line[i].0), line[i].1 + t * (line[i + 1].1 - line[i].1))
            }
            remaining -= d
        }
        return line[line.count - 1]
    }
}
