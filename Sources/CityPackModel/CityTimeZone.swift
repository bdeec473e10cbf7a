import CityPackGeometry

/// The time zone of a place from its coordinates, offline: the IANA zone whose principal location (tzdata's
/// zone.tab, embedded by scripts/embed-timezones.py) is nearest.
///
/// Why this source: it ships with every tzdata (so the ids are the ones `TimeZone(identifier:)` knows), needs no
/// network and no boundary file, and it lists every country's zones with a principal location in that country
/// (zone1970.tab merges small countries into a neighbour's zone: Monaco into Europe/Paris, whose principal location
/// is farther than Zurich's), so a city lies nearest its own zone's location: Monaco → Europe/Monaco, Vaduz →
/// Europe/Vaduz, Milan → Europe/Rome. Near a zone border it can pick the neighbour's, which is why `init` writes the
/// result into the city file with a comment, where an editor can override it, and why a GTFS feed's
/// agency_timezone, when there is one, wins. Pure; `Sendable`.
public enum CityTimeZone {
    /// One zone of the table.
    public struct Zone: Sendable, Hashable {
        /// IANA id, e.g. `Europe/Rome`.
        public var id: String
        /// The principal location, degrees.
        public var lat: Double
        public var lon: Double
        /// ISO 3166 codes of the countries the zone serves (`IT,SM,VA`).
        public var countries: [String]
    }

    /// Every zone of zone.tab.
    public static let zones: [Zone] = table.split(separator: "\n").compactMap { line in
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count == 4, let lat = Double(f[1]), let lon = Double(f[2]) else { return nil }
        return Zone(id: String(f[0]), lat: lat, lon: lon, countries: f[3].split(separator: ",").map(String.init))
    }

    /// The zone whose principal location is nearest to the point (ties: the smaller id).
    public static func nearest(lat: Double, lon: Double) -> Zone {
        var best = zones[0]
        var bestDistance = Double.infinity
        for zone in zones {
            let d = GreatCircle.distance(lat, lon, zone.lat, zone.lon)
            if d < bestDistance { (best, bestDistance) = (zone, d) }
        }
        return best
    }

    /// The zone of a box's centre (across the antimeridian too).
    public static func nearest(to box: BoundingBox) -> Zone {
        let lon = box.minLon + box.lonSpan / 2
        return nearest(lat: (box.minLat + box.maxLat) / 2, lon: lon > 180 ? lon - 360 : lon)
    }
}
