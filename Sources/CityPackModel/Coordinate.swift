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

/// An axis-aligned box in degrees. `minLon > maxLon` is not supported (no antimeridian-crossing cities).
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

    /// Four finite numbers in range with min ≤ max on both axes.
    public var isValid: Bool {
        [minLon, minLat, maxLon, maxLat].allSatisfy(\.isFinite)
            && minLat <= maxLat && minLon <= maxLon
            && minLat >= -90 && maxLat <= 90 && minLon >= -180 && maxLon <= 180
    }

    /// Inclusive containment test.
    public func contains(_ c: Coordinate) -> Bool {
        c.lat >= minLat && c.lat <= maxLat && c.lon >= minLon && c.lon <= maxLon
    }

    /// `[minLon, minLat, maxLon, maxLat]`, the GeoJSON order.
    public var array: [Double] { [minLon, minLat, maxLon, maxLat] }

    /// The smallest box holding every coordinate, or nil for none.
    public static func enclosing<S: Sequence>(_ coordinates: S) -> BoundingBox? where S.Element == Coordinate {
        var box: BoundingBox?
        for c in coordinates {
            if var b = box {
                b.minLon = min(b.minLon, c.lon)
                b.maxLon = max(b.maxLon, c.lon)
                b.minLat = min(b.minLat, c.lat)
                b.maxLat = max(b.maxLat, c.lat)
                box = b
            } else {
                box = BoundingBox(minLon: c.lon, minLat: c.lat, maxLon: c.lon, maxLat: c.lat)
            }
        }
        return box
    }
}
