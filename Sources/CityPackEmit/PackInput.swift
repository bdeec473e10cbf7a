import CityPackFormat
import CityPackModel

/// Everything the emitter writes for one city: validated POIs, categories, provenance and build time.
public struct PackInput: Sendable {
    public var city: City
    /// POIs that passed validation, all inside `city.bbox`.
    public var pois: [POI]
    public var categories: [PackCategory]
    /// Build time in seconds since 1970 (from `SOURCE_DATE_EPOCH` or the data).
    public var createdAt: Int64
    /// Tool name and version, e.g. `citypack 0.1.0`.
    public var generator: String
    /// Source files with their hashes, paths relative to the city directory.
    public var sources: [Manifest.SourceFile]
    /// Validated GTFS feeds whose stops, lines and timetables go into the pack.
    public var transit: [GTFSFeed]
    /// Validated cards, situations, actions and walking routes (waypoints resolved).
    public var editorial: EditorialContent = EditorialContent()
    /// The city's UI copy; nil writes no copy tables and no `string` rows.
    public var copy: CopyTable? = nil

    public init(
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

    /// Stops (rows of every feed's stops.txt) and lines (distinct route_ids per feed) the pack will hold.
    public var transitCounts: (stops: Int, lines: Int) {
        var stops = 0
        var lines = 0
        for feed in transit {
            stops += feed.stops.count
            lines += Set(feed.routes.map(\.id)).count
        }
        return (stops, lines)
    }
}

/// `1970-01-01T00:00:00Z`-style UTC text for seconds since 1970, independent of locale and time zone.
public func iso8601UTC(_ seconds: Int64) -> String {
    var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let rem = seconds - days * 86_400
    // Civil-from-days (proleptic Gregorian), valid for all Int64 day counts we care about.
    days += 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let doe = days - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(day))T\(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60))Z"
}
