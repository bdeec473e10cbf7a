/// Length and map region (a ``BoundingBox`` that never crosses the antimeridian) of a walking route, as the pack
/// stores them in `route`.
package enum RouteGeometry {
    /// Padding added on each side of the waypoints' bounding box, as a fraction of its span (20 %).
    package static let padding = 0.2
    /// Smallest span of the region on each axis, in degrees (0.01° ≈ 1.1 km of latitude).
    package static let minimumSpan = 0.01

    /// Sum of great-circle legs between consecutive points, in metres.
    /// - Parameter points: `(lat, lon)` in degrees, in route order.
    package static func length(_ points: [(lat: Double, lon: Double)]) -> Double {
        guard points.count > 1 else { return 0 }
        var total = 0.0
        for i in 1..<points.count {
            total += GreatCircle.distance(points[i - 1].lat, points[i - 1].lon, points[i].lat, points[i].lon)
        }
        return total
    }

    /// The region to focus a map on: the points' bounding box, padded by ``padding`` × span on each side, then
    /// widened symmetrically to at least ``minimumSpan`` per axis, clamped to ±90° / ±180°. Nil for no points.
    package static func region(_ points: [(lat: Double, lon: Double)]) -> BoundingBox? {
        guard let first = points.first else { return nil }
        var r = BoundingBox(minLon: first.lon, minLat: first.lat, maxLon: first.lon, maxLat: first.lat)
        for p in points.dropFirst() {
            r.minLat = min(r.minLat, p.lat)
            r.maxLat = max(r.maxLat, p.lat)
            r.minLon = min(r.minLon, p.lon)
            r.maxLon = max(r.maxLon, p.lon)
        }
        func widen(_ lo: Double, _ hi: Double) -> (Double, Double) {
            let pad = (hi - lo) * padding
            var (a, b) = (lo - pad, hi + pad)
            if b - a < minimumSpan {
                let mid = (a + b) / 2
                (a, b) = (mid - minimumSpan / 2, mid + minimumSpan / 2)
            }
            return (a, b)
        }
        let (minLat, maxLat) = widen(r.minLat, r.maxLat)
        let (minLon, maxLon) = widen(r.minLon, r.maxLon)
        return BoundingBox(minLon: max(-180, minLon), minLat: max(-90, minLat), maxLon: min(180, maxLon), maxLat: min(90, maxLat))
    }
}
