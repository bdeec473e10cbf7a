/// A WGS 84 position in degrees.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Latitude in degrees, −90…90.
    public var lat: Double
    /// Longitude in degrees, −180…180.
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// Finite and within ±90° latitude, ±180° longitude.
    public var isValid: Bool {
        lat.isFinite && lon.isFinite && abs(lat) <= 90 && abs(lon) <= 180
    }
}

/// An axis-aligned box in degrees. A box whose `minLon` is greater than its `maxLon` crosses the antimeridian:
/// it runs east from `minLon` through ±180° to `maxLon` (GeoJSON RFC 7946 §5.2), as a city on Fiji's Taveuni
/// (`[179.95, -16.9, -179.95, -16.7]`) does.
public struct BoundingBox: Sendable, Hashable, Codable {
    public var minLon: Double
    public var minLat: Double
    public var maxLon: Double
    public var maxLat: Double

    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon
        self.minLat = minLat
        self.maxLon = maxLon
        self.maxLat = maxLat
    }

    /// Four finite numbers in range with minLat ≤ maxLat; minLon > maxLon is a box across the antimeridian.
    package var isValid: Bool {
        [minLon, minLat, maxLon, maxLat].allSatisfy(\.isFinite)
            && minLat <= maxLat
            && minLat >= -90 && maxLat <= 90 && abs(minLon) <= 180 && abs(maxLon) <= 180
    }

    /// Whether the box runs east across ±180° (`minLon > maxLon`).
    package var crossesAntimeridian: Bool { minLon > maxLon }

    /// Width in degrees of longitude, 0…360.
    package var lonSpan: Double { crossesAntimeridian ? maxLon + 360 - minLon : maxLon - minLon }

    /// Inclusive containment test (across the antimeridian when the box crosses it; −180 and 180 are one meridian).
    public func contains(_ c: Coordinate) -> Bool {
        guard c.lat >= minLat && c.lat <= maxLat else { return false }
        if crossesAntimeridian { return c.lon >= minLon || c.lon <= maxLon || abs(c.lon) == 180 }
        return c.lon >= minLon && c.lon <= maxLon
    }

    /// The box as one or two boxes that do not cross the antimeridian (west part first when split).
    package var unwrapped: [BoundingBox] {
        guard crossesAntimeridian else { return [self] }
        return [
            BoundingBox(minLon: -180, minLat: minLat, maxLon: maxLon, maxLat: maxLat),
            BoundingBox(minLon: minLon, minLat: minLat, maxLon: 180, maxLat: maxLat),
        ]
    }

    /// Latitude of the middle of the box.
    public var centerLat: Double { (minLat + maxLat) / 2 }

    /// Longitude of the middle of the box, in −180…180 (across the antimeridian for a box that crosses it).
    public var centerLon: Double {
        guard crossesAntimeridian else { return (minLon + maxLon) / 2 }
        let center = minLon + lonSpan / 2
        return center > 180 ? center - 360 : center
    }

    /// `[minLon, minLat, maxLon, maxLat]`, the GeoJSON order.
    package var array: [Double] { [minLon, minLat, maxLon, maxLat] }

    /// The smallest box holding every coordinate, or nil for none. Longitudes are taken on the circle: the box
    /// leaves out the widest gap between neighbouring longitudes, so points on both sides of ±180° give a narrow
    /// box across the antimeridian rather than one 360° wide; otherwise it is the plain min/max box.
    package static func enclosing<S: Sequence>(_ coordinates: S) -> BoundingBox? where S.Element == Coordinate {
        var minLat = Double.infinity
        var maxLat = -Double.infinity
        var lons: [Double] = []
        for c in coordinates {
            minLat = min(minLat, c.lat)
            maxLat = max(maxLat, c.lat)
            lons.append(c.lon)
        }
        guard !lons.isEmpty else { return nil }
        lons.sort()
        // The gap that wraps around ±180 (from the easternmost to the westernmost) is the plain box's outside.
        var widest = (gap: lons[0] + 360 - lons[lons.count - 1], east: lons[0], west: lons[lons.count - 1])
        for i in 1..<lons.count where lons[i] - lons[i - 1] > widest.gap {
            widest = (lons[i] - lons[i - 1], lons[i], lons[i - 1])
        }
        // The plain box unless an inner gap is wider than the one around ±180°.
        return BoundingBox(minLon: widest.east, minLat: minLat, maxLon: widest.west, maxLat: maxLat)
    }
}
