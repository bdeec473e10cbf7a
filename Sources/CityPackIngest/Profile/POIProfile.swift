import CityPackModel

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

/// A category of the profile: the model's ``PackCategory`` (id, priority, labels, synonyms, expectsName).
public typealias CategoryDefinition = PackCategory
