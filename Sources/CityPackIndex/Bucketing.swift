import CityPackFormat
import CityPackModel

/// The proximity buckets the pack writer stores in `poi_bucket`.
public enum Bucketing {
    /// Each POI with its precision-``PackSchema/bucketPrecision`` cell, sorted by (cell, stable id): the row
    /// order of `poi_bucket`, so a cell or a coarser prefix is one range scan.
    /// - Parameter pois: POIs with valid coordinates (validation has run); invalid ones are bucketed by clamping.
    public static func bucketed(_ pois: [POI]) -> [(cell: Int64, poi: POI)] {
        pois.map { (cell: Geohash.cell(lat: $0.coordinate.lat, lon: $0.coordinate.lon, precision: PackSchema.bucketPrecision), poi: $0) }
            .sorted { ($0.cell, $0.poi.ref.stableID) < ($1.cell, $1.poi.ref.stableID) }
    }
}

/// Shorthand for ``Bucketing/bucketed(_:)``.
public func bucketed(_ pois: [POI]) -> [(cell: Int64, poi: POI)] {
    Bucketing.bucketed(pois)
}
