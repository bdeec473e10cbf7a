/// The family a rule belongs to; used to group `citypack rules` output and SARIF categories.
public enum RuleKind: String, Sendable, Codable, CaseIterable {
    case city, osm, csv, gtfs, editorial, copy, pack
}

/// A runnable example of a rule: the contents of one input file of the example city
/// (`Tests/Fixtures/rule-examples/base/`) that makes the rule fire, and a close variant that does not.
///
/// The rule-example tests overlay `file` onto a copy of the base city, run `check`, and require the rule's
/// code to appear for `triggering` and to be absent for `passing`; `citypack rules CODE` prints both.
public struct RuleExample: Sendable, Hashable, Codable {
    /// Path of the input file relative to the city folder, e.g. `city.yaml`, `map.osm`, `gtfs/stops.txt`.
    public let file: String
    /// Whole file contents that trigger the rule.
    public let triggering: String
    /// Whole file contents, as close as possible to `triggering`, that do not.
    public let passing: String

    public init(file: String, triggering: String, passing: String) {
        self.file = file
        self.triggering = triggering
        self.passing = passing
    }
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
    /// A triggering and a non-triggering input, when the rule can be shown with one input file.
    public let example: RuleExample?

    public init(
        _ code: String, _ kind: RuleKind, _ severity: Severity, _ summary: String, rationale: String,
        example: RuleExample? = nil
    ) {
        self.code = code
        self.kind = kind
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.example = example
    }
}
