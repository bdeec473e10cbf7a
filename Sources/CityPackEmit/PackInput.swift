import CityPackFormat
import CityPackModel

/// Everything the emitter writes for one city: validated POIs, categories, provenance and build time.
package struct PackInput: Sendable {
    package var city: City
    /// POIs that passed validation, all inside `city.bbox`.
    package var pois: [POI]
    package var categories: [PackCategory]
    /// Build time in seconds since 1970 (from `SOURCE_DATE_EPOCH` or the data).
    package var createdAt: Int64
    /// Tool name and version, e.g. `citypack 0.1.0`.
    package var generator: String
    /// Source files with their hashes, paths relative to the city directory.
    package var sources: [Manifest.SourceFile]
    /// Validated GTFS feeds whose stops, lines and timetables go into the pack.
    package var transit: [GTFSFeed]
    /// Validated cards, situations, actions and walking routes (waypoints resolved).
    package var editorial: EditorialContent = EditorialContent()
    /// The city's UI copy; nil writes no copy tables and no `string` rows.
    package var copy: CopyTable? = nil

    package init(
        city: City, pois: [POI], categories: [PackCategory], createdAt: Int64, generator: String,
        sources: [Manifest.SourceFile], transit: [GTFSFeed] = []
    ) {
        self.city = city
        self.pois = pois
        self.categories = categories
        self.createdAt = createdAt
        self.generator = generator
        self.sources = sources
        self.transit = transit
    }

    /// Stops (rows of every feed's stops.txt) and lines (distinct route_ids per feed) the pack will hold: those
    /// the city's box keeps (``TransitBBoxSelection``).
    package var transitCounts: (stops: Int, lines: Int) {
        var stops = 0
        var lines = 0
        for feed in transit {
            let selection = TransitBBoxSelection(feed, city: city)
            stops += selection.keptStopCount
            lines += Set(feed.routes.map(\.id)).subtracting(selection.droppedRoutes).count
        }
        return (stops, lines)
    }
}

extension PackInput {
    /// The city's time zone: the city file's `timezone`, else the first feed's agency_timezone, else the zone
    /// ``CityTimeZone`` derives from the bbox's centre and the country most POIs give in `addr:country` (Monaco's
    /// own zone rather than its neighbour's). Pack meta `timezone` and the manifest's `city.timezone`.
    package var timezone: String {
        if let zone = city.timezone { return zone }
        if let zone = transit.lazy.compactMap({ $0.agencies.first?.timezone }).first(where: { !$0.isEmpty }) { return zone }
        let country = CityTimeZone.majorityCountry(pois.lazy.compactMap { $0.tags["addr:country"] })
        return CityTimeZone.nearest(to: city.bbox, country: country).id
    }
}
