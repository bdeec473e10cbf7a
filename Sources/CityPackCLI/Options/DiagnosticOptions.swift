import ArgumentParser
import CityPackCompiler
import CityPackDiagnostics

/// How diagnostics are rendered.
package enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case human, json, sarif, github
}

/// Flags shared by commands that report diagnostics.
struct DiagnosticOptions: ParsableArguments {
    @Option(name: .long, help: "Diagnostic format: human, json, sarif or github.")
    var format: DiagnosticFormat = .human

    @Flag(name: [.customLong("werror"), .customLong("warnings-as-errors")], help: "Treat warnings as errors.")
    var warningsAsErrors = false

    @Flag(name: [.short, .long], help: "No progress and no summary line; diagnostics still go to stderr.")
    var quiet = false

    @Option(name: .long, help: "Stop listing after this many diagnostics (the summary still counts all).")
    var maxDiagnostics: Int = 200

    @Option(name: .long, help: "Stop listing after this many errors, with a note of how many were left out (0 = no limit). The exit code is still 1.")
    var maxErrors: Int = 0

    @Option(name: .long, help: ArgumentHelp(
        "Human format: list the first N warnings and infos of each rule, then one note counting the rest (errors "
            + "are all listed; 0 = no limit). report.html, report.json and the machine formats list everything.",
        valueName: "N"))
    var maxPerRule: Int = 3

    @Option(
        name: .customLong("rule"),
        help: ArgumentHelp(
            "Set a rule's severity: CODE=error|warning|info|off (repeatable; beats the city file's rules: map).",
            valueName: "CODE=LEVEL"))
    var rules: [String] = []

    @Option(name: .long, help: "Silence the known problems listed in this baseline file; report which entries are fixed.")
    var baseline: String?

    @Option(name: .long, help: "Write every diagnostic of this run to a baseline file (for --baseline).")
    var writeBaseline: String?

    /// The `--rule` settings: code → severity, nil for off.
    func ruleSettings() throws -> [String: Severity?] {
        var out: [String: Severity?] = [:]
        for setting in rules {
            let parts = setting.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { throw ValidationError("--rule expects CODE=LEVEL, got '\(setting)'") }
            guard RuleCatalog.rule(parts[0]) != nil else {
                throw ValidationError("--rule: unknown rule code '\(parts[0])' (see `citypack rules`)")
            }
            switch parts[1].lowercased() {
            case "off": out[parts[0]] = .some(nil)
            case "error": out[parts[0]] = .error
            case "warning": out[parts[0]] = .warning
            case "info": out[parts[0]] = .info
            default: throw ValidationError("--rule \(parts[0]): level must be error, warning, info or off, got '\(parts[1])'")
            }
        }
        return out
    }

    mutating func validate() throws {
        _ = try ruleSettings()
        guard maxErrors >= 0 else { throw ValidationError("--max-errors must be 0 (no limit) or more") }
        guard maxDiagnostics > 0 else { throw ValidationError("--max-diagnostics must be at least 1") }
        guard maxPerRule >= 0 else { throw ValidationError("--max-per-rule must be 0 (no limit) or more") }
    }
}

/// Flags naming the city and the templates.
struct InputOptions: ParsableArguments {
    @Argument(help: "City directory (holding city.yaml) or the city file itself.")
    var city: String

    @Option(name: .long, help: "Templates folder (categories.json, synonyms.json). Default: $CITYPACK_TEMPLATES, else discovered.")
    var templates: String?

    /// `--templates`, else `CITYPACK_TEMPLATES`.
    var templatesDirectory: String? { templates ?? ToolEnvironment.templates }
}

/// Exit codes, documented in README.md.
enum ExitCodes {
    static let success: Int32 = 0
    static let dataErrors: Int32 = 1
    static let usage: Int32 = 64
    static let missingInput: Int32 = 66
    static let software: Int32 = 70
    static let ioFailure: Int32 = 74
}
