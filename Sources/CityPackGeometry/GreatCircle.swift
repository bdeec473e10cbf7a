#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle distances on a spherical Earth: the distance every `nearby` query filters by, shared by the
/// writer's index and the reader.
package enum GreatCircle {
    /// Mean Earth radius in metres (IUGG R₁ = 6 371 008.8 m).
    package static let earthRadius: Double = 6_371_008.8

    /// Haversine distance in metres between two points given in degrees.
    ///
    /// Accurate to about 0.5 % against the WGS 84 ellipsoid, and numerically stable for small distances; the
    /// result is symmetric and 0 for identical points. Longitudes need not be normalised (−180 and 180 coincide).
    /// - Parameters:
    ///   - lat1: Latitude of the first point, degrees.
    ///   - lon1: Longitude of the first point, degrees.
    ///   - lat2: Latitude of the second point, degrees.
    ///   - lon2: Longitude of the second point, degrees.
    /// - Returns: Metres, `0 … π × earthRadius`.
    @inlinable
    package static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let phi1 = lat1 * radians
        let phi2 = lat2 * radians
        let sinDPhi = sin((phi2 - phi1) / 2)
        let sinDLambda = sin((lon2 - lon1) * radians / 2)
        let a = sinDPhi * sinDPhi + cos(phi1) * cos(phi2) * sinDLambda * sinDLambda
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}
