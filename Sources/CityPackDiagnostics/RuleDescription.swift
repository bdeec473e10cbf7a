/// The family a rule belongs to; used to group `citypack rules` output and SARIF categories.
public enum RuleKind: String, Sendable, Codable, CaseIterable {
    case city, osm, csv, gtfs, editorial, copy, pack
}

/// A runnable example of a rule: the contents of one input file of the example city
/// (`Tests/Fixtures/rule-examples/base/`) that makes the rule fire, and a close variant that does not.
///
/// The rule-example tests overlay `file` onto a copy of the base city, run `check` as of ``checkDate``, and
/// require the rule's code to appear for `triggering` and to be absent (with no error at all) for `passing`;
/// `citypack rules CODE` prints both.
public struct RuleExample: Sendable, Hashable, Codable {
    /// The date (UTC, `YYYY-MM-DD`) examples are checked against, for rules that compare service dates with
    /// the build date (`gtfs.expired_calendar`, `gtfs.feed_expires_soon`).
    public static let checkDate = "2026-06-01"

    /// Path of the input file relative to the city folder, e.g. `city.yaml`, `map.osm`, `gtfs/stops.txt`.
    public let file: String
    /// Whole file contents that trigger the rule; nil when the rule is about the file being absent (the
    /// example then removes `file` from the base city).
    public let triggering: String?
    /// Whole file contents, as close as possible to `triggering`, that do not; nil when the passing variant is
    /// the city without `file` (for rules about a file that should not be there).
    public let passing: String?

    public init(file: String, triggering: String?, passing: String?) {
        self.file = file
        self.triggering = triggering
        self.passing = passing
    }
}

/// A validation rule as data: stable code, title, default severity, one-line meaning, and examples.
///
/// Documentation (`citypack rules`, README.md, docs/RULES.md), SARIF rule metadata and tests all come from
/// these values.
public struct RuleDescription: Sendable, Hashable, Codable {
    /// Stable dotted code, e.g. `osm.invalid_coordinates`. Never renamed once shipped.
    public let code: String
    /// Short human name, e.g. "Invalid coordinates".
    public let title: String
    public let kind: RuleKind
    public let severity: Severity
    /// One-line meaning.
    public let summary: String
    /// Why the rule exists.
    public let rationale: String
    /// A triggering and a non-triggering input, when the rule can be shown with one input file.
    public let example: RuleExample?
    /// Why the rule has no ``example`` and which test covers it instead; nil when it has one.
    public let exampleWaiver: String?

    public init(
        _ code: String, _ kind: RuleKind, _ severity: Severity, _ summary: String, title: String? = nil,
        rationale: String, example: RuleExample? = nil, exampleWaiver: String? = nil
    ) {
        self.code = code
        self.title = title ?? Self.defaultTitle(code)
        self.kind = kind
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.example = example
        self.exampleWaiver = exampleWaiver
    }

    /// A title from the code's last part: `csv.invalid_utf8` → "Invalid UTF-8".
    public static func defaultTitle(_ code: String) -> String {
        let name = code.split(separator: ".").last.map(String.init) ?? code
        let acronyms: [String: String] = [
            "id": "ID", "ids": "IDs", "osm": "OSM", "gtfs": "GTFS", "xml": "XML", "utf8": "UTF-8", "utf16": "UTF-16",
            "bom": "BOM", "url": "URL", "nul": "NUL", "bbox": "bounding box", "csv": "CSV", "poi": "POI", "pois": "POIs",
        ]
        let words = name.split(separator: "_").map { acronyms[String($0)] ?? String($0) }
        guard let first = words.first else { return code }
        let head = first.prefix(1).uppercased() + first.dropFirst()
        return ([head] + words.dropFirst()).joined(separator: " ")
    }
}
