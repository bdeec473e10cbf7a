/// Maps OSM tags to POI categories. The engine is generic; everything city- or product-specific lives in a profile.
///
/// Implementations must be immutable after creation (they are shared across threads).
public protocol POIProfile: Sendable {
    /// Every category the profile can produce, ordered by priority then id.
    var categories: [CategoryDefinition] { get }

    /// The category of an element with these tags, or nil when the element is not a POI.
    ///
    /// When several categories match, the one with the lowest ``CategoryDefinition/priority`` wins (ties: smaller id).
    /// - Parameter tags: The element's tags; only keys for which ``keeps(tag:)`` is true need to be present.
    func classify(tags: [String: String]) -> String?

    /// Whether the reader must keep this tag key, either to classify elements or to copy it into a POI.
    ///
    /// Names (`name`, `name:xx`) are handled by the reader and need not be listed.
    func keeps(tag key: String) -> Bool

    /// Whether a kept tag is copied into ``POI/tags`` (opening_hours, wheelchair, phone, …).
    func exposes(tag key: String) -> Bool
}

/// One POI category: stable id, priority, display labels and search synonyms per locale.
public struct CategoryDefinition: Sendable, Hashable, Codable {
    /// Stable snake_case id stored in packs, e.g. `toilet`.
    public var id: String
    /// Lower wins when an element matches several categories.
    public var priority: Int
    /// Display label per locale (`en`, `fr`, …).
    public var labels: [String: String]
    /// Search terms per locale, lowercase as written by people (`wc`, `restroom`, `Toilette` → `toilette`).
    public var synonyms: [String: [String]]
    /// Whether POIs of this category normally carry a name (false for toilets, ATMs, drinking water, …);
    /// `osm.poi_missing_name` only reports categories that expect one.
    public var expectsName: Bool

    public init(
        id: String, priority: Int, labels: [String: String], synonyms: [String: [String]] = [:], expectsName: Bool = true
    ) {
        self.id = id
        self.priority = priority
        self.labels = labels
        self.synonyms = synonyms
        self.expectsName = expectsName
    }
}
