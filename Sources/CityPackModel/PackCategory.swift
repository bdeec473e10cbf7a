/// A category as the pack stores it: id, priority, labels and search synonyms per locale.
public struct PackCategory: Sendable, Hashable, Codable {
    /// snake_case id such as `toilet` or `metro`.
    public var id: String
    /// Lower wins when a POI matches several categories.
    public var priority: Int
    /// Display label per locale.
    public var labels: [String: String]
    /// Search terms per locale (`toilet` ⇄ `wc`, `restroom`, `Toilette`).
    public var synonyms: [String: [String]]
    /// Whether POIs of this category normally have a name (false for toilets, ATMs, drinking water).
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
