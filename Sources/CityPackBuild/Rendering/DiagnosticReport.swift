import CityPackCompiler
import CityPackDiagnostics
import Foundation

/// Everything a renderer needs about one run: the diagnostics left after the baseline, the true totals
/// (including findings over the per-rule cap), and the baseline's outcome. Built once from the bag, so the
/// terminal, `--format` output and `report.json` always agree.
package struct DiagnosticReport: Sendable {
    /// `build` or `check`.
    package var command: String
    /// City id when the city file loaded.
    package var city: String?
    /// The city folder; fingerprints use file names relative to it.
    package var root: String
    /// Kept diagnostics in deterministic order (file, line, column, code, message).
    package var diagnostics: [Diagnostic]
    package var errors: Int
    package var warnings: Int
    package var infos: Int
    /// Per code, how many findings went over the per-rule cap and are counted but not listed.
    package var omitted: [String: Int]
    /// The bag's per-rule cap: how many findings of one rule are kept and listed at most.
    package var perRuleCap: Int
    /// How many findings the baseline silenced.
    package var baselined: Int
    /// The baseline file used, if any.
    package var baselineFile: String?
    /// Baseline entries that matched nothing: fixed since the baseline was written.
    package var fixed: [Baseline.Entry]
    /// Untranslated copy strings: locale → key → the locale whose text is used instead (absent when none).
    package var copyFallbacks: [String: [String: String]]?

    package init(command: String, city: String?, root: String, bag: DiagnosticBag, baselineFile: String? = nil) {
        self.command = command
        self.city = city
        self.root = root
        self.diagnostics = bag.diagnostics
        self.errors = bag.errorCount
        self.warnings = bag.warningCount
        self.infos = bag.infoCount
        self.omitted = bag.suppressed
        self.perRuleCap = bag.maxPerCode
        self.baselined = bag.baselined.count
        self.baselineFile = baselineFile
        self.fixed = bag.fixedBaselineEntries
    }

    /// Files that have at least one listed diagnostic.
    package var files: Int { Set(diagnostics.compactMap { $0.location?.file }).count }

    /// `2 errors, 5 warnings in 3 files` (plus infos, findings over the per-rule cap and baseline figures).
    package var summary: String {
        func plural(_ n: Int, _ word: String, _ many: String? = nil) -> String { "\(n) \(n == 1 ? word : many ?? word + "s")" }
        var text = "\(plural(errors, "error")), \(plural(warnings, "warning"))"
        if infos > 0 { text += ", \(plural(infos, "info", "infos"))" }
        text += " in \(plural(files, "file"))"
        let dropped = omitted.values.reduce(0, +)
        if dropped > 0 { text += " (\(dropped) over the first \(perRuleCap) of a rule: counted, not listed)" }
        if baselineFile != nil {
            text += "; \(baselined) silenced by the baseline, \(plural(fixed.count, "baseline entry", "baseline entries")) fixed"
        }
        return text
    }
}
