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

    public init(id: String, priority: Int, labels: [String: String], synonyms: [String: [String]]) {
        self.id = id
        self.priority = priority
        self.labels = labels
        self.synonyms = synonyms
    }
}
