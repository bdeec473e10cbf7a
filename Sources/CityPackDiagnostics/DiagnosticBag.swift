import Foundation

/// Thread-safe collector of diagnostics for one build. Passed explicitly to every stage.
///
/// It applies severity overrides (from the city file), `--werror`, and caps how many diagnostics of one
/// code it keeps (`maxPerCode`), counting the rest so the summary stays truthful on huge inputs.
public final class DiagnosticBag: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Diagnostic] = []
    private var perCode: [String: Int] = [:]
    private var suppressedCounts: [String: Int] = [:]

    /// Rule code → severity to use instead of the rule's default.
    public private(set) var overrides: [String: Severity]
    /// Codes whose findings are dropped entirely.
    public private(set) var disabled: Set<String>
    /// Turn warnings into errors.
    public let warningsAsErrors: Bool
    /// Keep at most this many diagnostics per code; the rest are only counted.
    public let maxPerCode: Int

    public init(
        overrides: [String: Severity] = [:], disabled: Set<String> = [], warningsAsErrors: Bool = false,
        maxPerCode: Int = 1000
    ) {
        self.overrides = overrides
        self.disabled = disabled
        self.warningsAsErrors = warningsAsErrors
        self.maxPerCode = maxPerCode
    }

    /// Applies the city file's rule settings to everything reported from now on.
    public func configure(overrides: [String: Severity], disabled: Set<String>) {
        lock.withLock {
            self.overrides.merge(overrides) { _, new in new }
            self.disabled.formUnion(disabled)
        }
    }

    /// Records a diagnostic after applying overrides and `--werror`.
    public func report(_ diagnostic: Diagnostic) {
        lock.lock()
        defer { lock.unlock() }
        if disabled.contains(diagnostic.code) { return }
        var d = diagnostic
        if let severity = overrides[d.code] { d.severity = severity }
        if warningsAsErrors && d.severity == .warning { d.severity = .error }
        let n = perCode[d.code, default: 0]
        perCode[d.code] = n + 1
        if n < maxPerCode {
            items.append(d)
        } else {
            suppressedCounts[d.code, default: 0] += 1
        }
        if d.severity == .error { errorTotal += 1 } else if d.severity == .warning { warningTotal += 1 }
    }

    /// Convenience for catalogued rules.
    public func report(
        _ rule: RuleDescription, _ message: String, at location: SourceLocation?, entity: String? = nil,
        notes: [Diagnostic.Note] = []
    ) {
        report(Diagnostic(rule, message, at: location, entity: entity, notes: notes))
    }

    private var errorTotal = 0
    private var warningTotal = 0

    /// Number of errors reported, including those beyond the per-code cap.
    public var errorCount: Int { lock.withLock { errorTotal } }
    /// Number of warnings reported, including those beyond the per-code cap.
    public var warningCount: Int { lock.withLock { warningTotal } }
    public var hasErrors: Bool { errorCount > 0 }

    /// Kept diagnostics in deterministic order.
    public var diagnostics: [Diagnostic] {
        lock.withLock { items }.sorted(by: Diagnostic.ordered)
    }

    /// Codes whose diagnostics went over the cap, with how many were dropped.
    public var suppressed: [String: Int] { lock.withLock { suppressedCounts } }

    /// Effective severity of a rule in this bag (after overrides and `--werror`).
    public func severity(of rule: RuleDescription) -> Severity? {
        lock.lock()
        defer { lock.unlock() }
        if disabled.contains(rule.code) { return nil }
        var s = overrides[rule.code] ?? rule.severity
        if warningsAsErrors && s == .warning { s = .error }
        return s
    }
}
