/// How serious a finding is. Errors stop a build; warnings and notes do not.
public enum Severity: String, Sendable, Codable, Hashable, Comparable, CaseIterable {
    case error
    case warning
    case info
    case note

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        case .note: 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding about the input: a rule code, a message and where it is.
///
/// Libraries produce diagnostics and hand them to a ``DiagnosticBag``; only the CLI renders them.
public struct Diagnostic: Sendable, Codable, Equatable, Hashable {
    /// A secondary message attached to a diagnostic, with its own optional location.
    public struct Note: Sendable, Codable, Equatable, Hashable {
        public var message: String
        public var location: SourceLocation?
        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// Effective severity (after city-file overrides and `--werror`).
    public var severity: Severity
    /// Stable rule code such as `osm.invalid_coordinates`.
    public var code: String
    public var message: String
    public var location: SourceLocation?
    /// The entity the finding concerns (`n123`, `stop_id=S1`), used for stable fingerprints.
    public var entity: String?
    public var notes: [Note]

    public init(
        _ severity: Severity, code: String, message: String, at location: SourceLocation?,
        entity: String? = nil, notes: [Note] = []
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.entity = entity
        self.notes = notes
    }

    /// Builds a diagnostic for a catalogued rule at the rule's default severity.
    public init(
        _ rule: RuleDescription, _ message: String, at location: SourceLocation?, entity: String? = nil,
        notes: [Note] = []
    ) {
        self.init(rule.severity, code: rule.code, message: message, at: location, entity: entity, notes: notes)
    }

    /// Deterministic order: file, line, column, code, message.
    public static func ordered(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        let l = lhs.location ?? SourceLocation(file: "")
        let r = rhs.location ?? SourceLocation(file: "")
        if l.file != r.file { return l.file < r.file }
        if l.line != r.line { return l.line < r.line }
        if l.column != r.column { return l.column < r.column }
        if lhs.code != rhs.code { return lhs.code < rhs.code }
        return lhs.message < rhs.message
    }
}
