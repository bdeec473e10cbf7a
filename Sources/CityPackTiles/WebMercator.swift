import CityPackGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A position on the Web Mercator (EPSG:3857) square of the whole world, as fractions of its side: x runs 0 at
/// 180° W to 1 at 180° E, y runs 0 at the top (85.0511° N) to 1 at the bottom (85.0511° S), y down as in tiles.
///
/// Project a feature's coordinates once into world points, then scale them to any zoom and tile with
/// ``TileProjection`` (one multiply-add per axis) instead of repeating the trigonometry per zoom.
public struct WorldPoint: Sendable, Hashable {
    /// Fraction of the world's width from 180° W, 0…1.
    public var x: Double
    /// Fraction of the world's height from the top (85.0511° N), 0…1, growing southwards.
    public var y: Double

    /// A world point from its two fractions (not checked).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The projection of a WGS 84 coordinate; latitude is clamped to ±``WebMercator/maxLatitude`` first.
    /// - Parameter coordinate: degrees.
    @inlinable
    public init(_ coordinate: Coordinate) {
        self.init(x: WebMercator.worldX(longitude: coordinate.lon), y: WebMercator.worldY(latitude: coordinate.lat))
    }
}

/// Web Mercator (spherical Mercator, EPSG:3857) as slippy-map tiles use it: the standard formulas of the OSM wiki's
/// "Slippy map tilenames", with the world square ending at ±``maxLatitude``. Stateless, thread-safe.
public enum WebMercator {
    /// The latitude, in degrees, where the Web Mercator square ends (north and south): atan(sinh(π)).
    public static let maxLatitude = 85.0511287798

    /// Latitude clamped to ±``maxLatitude``, in degrees (NaN stays NaN).
    @inlinable
    public static func clampedLatitude(_ latitude: Double) -> Double {
        Swift.min(Swift.max(latitude, -maxLatitude), maxLatitude)
    }

    /// The world x fraction (0…1) of a longitude in degrees; −180 gives 0 and 180 gives 1 (not wrapped).
    @inlinable
    public static func worldX(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    /// The world y fraction (0 at the top, 1 at the bottom) of a latitude in degrees, clamped first to
    /// ±``maxLatitude``: y = (1 − asinh(tan φ) / π) / 2.
    @inlinable
    public static func worldY(latitude: Double) -> Double {
        let phi = clampedLatitude(latitude) * .pi / 180
        return (1 - asinh(tan(phi)) / .pi) / 2
    }

    /// The longitude in degrees of a world x fraction (inverse of ``worldX(longitude:)``).
    @inlinable
    public static func longitude(worldX: Double) -> Double {
        worldX * 360 - 180
    }

    /// The latitude in degrees of a world y fraction (inverse of ``worldY(latitude:)``): atan(sinh(π(1 − 2y))).
    @inlinable
    public static func latitude(worldY: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * worldY))) * 180 / .pi
    }

    /// Number of tiles along each axis at a zoom: 2^z.
    /// - Parameter zoom: 0…30.
    @inlinable
    public static func tileCount(zoom: Int) -> Int {
        1 << zoom
    }

    /// The global pixel position of a coordinate at a zoom: the world square is `2^z × extent` units wide, y down.
    /// - Parameters:
    ///   - coordinate: degrees (latitude clamped to ±``maxLatitude``).
    ///   - zoom: 0…30.
    ///   - extent: units per tile side (MVT default 4096; 256 gives classic screen pixels).
    /// - Returns: x and y in units of `1 / extent` tile from the world's top-left corner.
    @inlinable
    public static func globalPixel(_ coordinate: Coordinate, zoom: Int, extent: Int = 4096) -> (x: Double, y: Double) {
        let scale = Double(tileCount(zoom: zoom)) * Double(extent)
        let w = WorldPoint(coordinate)
        return (w.x * scale, w.y * scale)
    }

    /// The global tile position (fractional tile column and row) of a coordinate at a zoom.
    /// - Parameters:
    ///   - coordinate: degrees (latitude clamped).
    ///   - zoom: 0…30.
    /// - Returns: x and y in tiles from the world's top-left corner; the integer parts are the tile's column and row.
    @inlinable
    public static func globalTile(_ coordinate: Coordinate, zoom: Int) -> (x: Double, y: Double) {
        globalPixel(coordinate, zoom: zoom, extent: 1)
    }
}
