/// The family a rule belongs to; used to group `citypack rules` output and SARIF categories.
public enum RuleKind: String, Sendable, Codable, CaseIterable {
    case city, osm, csv, gtfs, pack
}

/// A validation rule as data: stable code, default severity, one-line meaning, and examples.
///
/// Documentation (`citypack rules`), SARIF rule metadata and tests all come from these values.
public struct RuleDescription: Sendable, Hashable, Codable {
    /// Stable dotted code, e.g. `osm.invalid_coordinates`. Never renamed once shipped.
    public let code: String
    public let kind: RuleKind
    public let severity: Severity
    /// One-line meaning.
    public let summary: String
    /// Why the rule exists.
    public let rationale: String

    public init(_ code: String, _ kind: RuleKind, _ severity: Severity, _ summary: String, rationale: String) {
        self.code = code
        self.kind = kind
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
    }
}
