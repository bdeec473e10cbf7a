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

    /// Command-line rule settings (`--rule CODE=LEVEL`); they win over the city file. nil means off.
    public private(set) var pinned: [String: Severity?] = [:]
    private var baselineMatcher: BaselineMatcher?
    private var baselinedItems: [Diagnostic] = []

    /// Sets rule severities given on the command line; they beat the city file's `rules:` map, which
    /// ``configure(overrides:disabled:)`` applies later. A nil severity switches the rule off.
    public func pin(_ settings: [String: Severity?]) {
        lock.withLock { pinned.merge(settings) { _, new in new } }
    }

    /// Silences every diagnostic whose fingerprint is in `baseline` (one entry per occurrence).
    /// - Parameters:
    ///   - baseline: the known problems.
    ///   - root: the city folder; fingerprints use file names relative to it.
    public func use(baseline: Baseline, root: String) {
        lock.withLock { baselineMatcher = BaselineMatcher(baseline, root: root) }
    }

    /// Diagnostics silenced by the baseline, in deterministic order.
    public var baselined: [Diagnostic] { lock.withLock { baselinedItems }.sorted(by: Diagnostic.ordered) }

    /// Baseline entries that matched nothing: problems fixed since the baseline was written. An entry of a rule
    /// switched off in this run (`--rule CODE=off`, the city file's `rules:`) matched nothing because the rule did
    /// not run, not because anything was fixed: it is in ``uncheckedBaselineEntries`` instead.
    public var fixedBaselineEntries: [Baseline.Entry] {
        lock.withLock { (baselineMatcher?.unmatched ?? []).filter { !isOff($0.code) } }
    }

    /// Baseline entries of rules switched off in this run: not checked, so neither fixed nor still there.
    public var uncheckedBaselineEntries: [Baseline.Entry] {
        lock.withLock { (baselineMatcher?.unmatched ?? []).filter { isOff($0.code) } }
    }

    /// Whether a rule is off in this run (called under the lock).
    private func isOff(_ code: String) -> Bool {
        if let pin = pinned[code] { return pin == nil }
        return disabled.contains(code)
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
        if recording != nil { recording?.append(.report(diagnostic)) }
        var d = diagnostic
        if let pin = pinned[d.code] {
            guard let severity = pin else { return }
            d.severity = severity
        } else {
            if disabled.contains(diagnostic.code) { return }
            if let severity = overrides[d.code] { d.severity = severity }
        }
        if warningsAsErrors && d.severity == .warning { d.severity = .error }
        if let matcher = baselineMatcher, matcher.consume(d) {
            baselinedItems.append(d)
            return
        }
        let n = perCode[d.code, default: 0]
        perCode[d.code] = n + 1
        if n < maxPerCode {
            items.append(d)
        } else {
            suppressedCounts[d.code, default: 0] += 1
        }
        switch d.severity {
        case .error: errorTotal += 1
        case .warning: warningTotal += 1
        case .info, .note: infoTotal += 1
        }
    }

    /// Convenience for catalogued rules.
    public func report(
        _ rule: RuleDescription, _ message: String, at location: SourceLocation?, entity: String? = nil,
        notes: [Diagnostic.Note] = []
    ) {
        report(Diagnostic(rule, message, at: location, entity: entity, notes: notes))
    }

    /// Completes locations after the fact: each location of a kept or baselined diagnostic, or of one of its
    /// notes, that `select` picks becomes what `resolve` maps it to (unchanged when it maps it to nothing).
    /// `resolve` is called once, outside the bag's lock, with the distinct locations picked, and only when
    /// there are some. Totals, caps and the baseline are untouched: only where findings point changes.
    public func relocate(
        where select: (SourceLocation) -> Bool, _ resolve: (Set<SourceLocation>) -> [SourceLocation: SourceLocation]
    ) {
        var picked = Set<SourceLocation>()
        lock.withLock {
            for d in [items, baselinedItems].joined() {
                if let l = d.location, select(l) { picked.insert(l) }
                for note in d.notes { if let l = note.location, select(l) { picked.insert(l) } }
            }
        }
        guard !picked.isEmpty else { return }
        let moved = resolve(picked)
        guard !moved.isEmpty else { return }
        lock.withLock { if recording != nil { recording?.append(.relocate(moved)) } }
        func move(_ d: inout Diagnostic) {
            if let l = d.location, let m = moved[l] { d.location = m }
            for i in d.notes.indices { if let l = d.notes[i].location, let m = moved[l] { d.notes[i].location = m } }
        }
        lock.withLock {
            for i in items.indices { move(&items[i]) }
            for i in baselinedItems.indices { move(&baselinedItems[i]) }
        }
    }

    // MARK: recording (the build cache)

    /// What a stage did to the bag, in order: a finding as it was reported (before severity settings, caps and
    /// baselines), or a relocation's moves. Replaying the events into a bag that holds what it held before the
    /// stage ran leaves it as the stage left it.
    public enum Event: Sendable, Equatable {
        case report(Diagnostic)
        case relocate([SourceLocation: SourceLocation])
    }

    private var recording: [Event]?

    /// Starts recording every ``report(_:)`` and ``relocate(where:_:)`` (one recording at a time).
    public func startRecording() { lock.withLock { recording = [] } }

    /// Stops recording and returns the events since ``startRecording()``, in order.
    public func stopRecording() -> [Event] {
        lock.withLock {
            defer { recording = nil }
            return recording ?? []
        }
    }

    /// Applies recorded events again, in order, through the bag's own settings.
    public func replay(_ events: [Event]) {
        for event in events {
            switch event {
            case .report(let d): report(d)
            case .relocate(let moved): relocate(where: { moved[$0] != nil }) { picked in moved.filter { picked.contains($0.key) } }
            }
        }
    }

    private var errorTotal = 0
    private var warningTotal = 0
    private var infoTotal = 0

    /// Number of errors reported, including those beyond the per-code cap.
    public var errorCount: Int { lock.withLock { errorTotal } }
    /// Number of warnings reported, including those beyond the per-code cap.
    public var warningCount: Int { lock.withLock { warningTotal } }
    /// Number of infos and notes reported, including those beyond the per-code cap.
    public var infoCount: Int { lock.withLock { infoTotal } }
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
        var s: Severity
        if let pin = pinned[rule.code] {
            guard let pinnedSeverity = pin else { return nil }
            s = pinnedSeverity
        } else {
            if disabled.contains(rule.code) { return nil }
            s = overrides[rule.code] ?? rule.severity
        }
        if warningsAsErrors && s == .warning { s = .error }
        return s
    }
}
