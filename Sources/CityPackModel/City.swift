import CityPackDiagnostics
import CityPackGeometry

/// A city as described by its city file (`inputs/<city>/city.yaml`).
public struct City: Sendable, Hashable {
    /// Lowercase identifier used for output folders and the catalog, e.g. `monaco`.
    public var id: String
    /// Display name in the default locale.
    public var name: String
    /// Names per locale.
    public var names: [String: String]
    public var defaultLocale: String
    /// Supported locales, default first.
    public var locales: [String]
    public var bbox: BoundingBox
    /// OSM XML sources (`.osm`, `.osm.gz`), resolved to absolute or cwd-relative paths.
    public var osmFiles: [String]
    /// GTFS feeds (directories or `.zip`), resolved paths.
    public var gtfsFeeds: [String]
    /// Category profile file, resolved path; nil = the default profile in `templates/`.
    public var profile: String?
    /// Rule code → severity overrides (`rules:` in the city file).
    public var severityOverrides: [String: Severity]
    /// Codes switched off entirely.
    public var disabledRules: Set<String>
    /// Compressed size budget in bytes, if any.
    public var sizeBudget: Int?
    /// `keep_versions:`: how many previous data versions stay beside the current one; nil = the tool's default.
    /// `build --keep N` wins over it.
    public var keepVersions: Int?
    /// `stops_outside_bbox: keep`: GTFS stops outside ``bbox`` (and trips with no stop inside) stay in the pack;
    /// by default (`drop`) they are left out, with one warning counting them.
    public var keepStopsOutsideBBox = false
    /// `timezone:` the IANA zone of the city's clock ("open now", times without a zone); nil when the city file
    /// gives none (a build then takes the first feed's agency_timezone, else ``CityTimeZone`` from the bbox's centre).
    public var timezone: String? = nil
    /// Attribution shown by apps (ODbL requires it for OSM data).
    public var attribution: String
    /// Bounds on the sources (`limits:` in the city file); defaults when absent.
    public var limits: InputLimits = InputLimits()
    /// Directory holding the city file.
    public var directory: String
    /// Path of the city file itself.
    public var file: String
    /// Folder of editorial CSV (cards, situations, actions, routes, waypoints); nil = none.
    public var editorialDirectory: String? = nil
    /// Folder of the city's copy files (`<locale>.yaml`) overriding and adding to `templates/copy/`; nil = none.
    public var copyDirectory: String? = nil

    public init(
        id: String, name: String, names: [String: String] = [:], defaultLocale: String = "en",
        locales: [String] = ["en"], bbox: BoundingBox, osmFiles: [String] = [], gtfsFeeds: [String] = [],
        profile: String? = nil, severityOverrides: [String: Severity] = [:], disabledRules: Set<String> = [],
        sizeBudget: Int? = nil, attribution: String = "© OpenStreetMap contributors", directory: String = ".",
        file: String = "city.yaml"
    ) {
        self.id = id
        self.name = name
        self.names = names
        self.defaultLocale = defaultLocale
        self.locales = locales
        self.bbox = bbox
        self.osmFiles = osmFiles
        self.gtfsFeeds = gtfsFeeds
        self.profile = profile
        self.severityOverrides = severityOverrides
        self.disabledRules = disabledRules
        self.sizeBudget = sizeBudget
        self.attribution = attribution
        self.directory = directory
        self.file = file
    }
}
