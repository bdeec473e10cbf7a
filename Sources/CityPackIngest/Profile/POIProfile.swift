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

    /// Further categories of a POI classified as `primary` (never `primary` itself), in profile order: every other
    /// category one of whose rules matches (a pub with `internet_access=wlan` is a bar and Wi-Fi, a restaurant that
    /// is also `tourism=hotel` a hotel too), its `also` rules (a bank with `atm=yes` is an ATM) and the attributes
    /// people search for (`wheelchair=yes`). Empty by default.
    func alsoCategories(tags: [String: String], primary: String) -> [String]

    /// Whether the reader must keep this tag key, either to classify elements or to copy it into a POI.
    ///
    /// Names (`name`, `name:xx`) are handled by the reader and need not be listed.
    func keeps(tag key: String) -> Bool

    /// Whether a kept tag is copied into ``POI/tags`` (opening_hours, wheelchair, phone, …).
    func exposes(tag key: String) -> Bool

    /// Which values of a key can make ``classify(tags:)`` succeed. An element none of whose tags is covered is
    /// never a POI, so readers may skip its tags (the PBF decoder does, on its worker threads). Must never say
    /// ``TagRelevance/never`` for a tag that can lead to a category.
    func classificationRelevance(ofKey key: String) -> TagRelevance
}

/// Which values of a tag key can lead to a category (``POIProfile/classificationRelevance(ofKey:)``).
public enum TagRelevance: Sendable, Equatable {
    /// No element is classified because of this key.
    case never
    /// Any value may lead to a category.
    case anyValue
    /// Only these values may.
    case values(Set<String>)

    /// Whether `value` of the key may lead to a category.
    public func covers(_ value: String) -> Bool {
        switch self {
        case .never: false
        case .anyValue: true
        case .values(let values): values.contains(value)
        }
    }
}

extension POIProfile {
    /// Every kept key, whatever its value (always safe; profiles can say more).
    public func classificationRelevance(ofKey key: String) -> TagRelevance { keeps(tag: key) ? .anyValue : .never }

    /// No further categories.
    public func alsoCategories(tags: [String: String], primary: String) -> [String] { [] }
}

/// A category of the profile: the model's ``PackCategory`` (id, priority, labels, synonyms, expectsName).
public typealias CategoryDefinition = PackCategory
