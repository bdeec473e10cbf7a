import ArgumentParser

/// How diagnostics are rendered.
public enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
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
}

/// Flags naming the city and the templates.
struct InputOptions: ParsableArguments {
    @Argument(help: "City directory (holding city.yaml) or the city file itself.")
    var city: String

    @Option(name: .long, help: "Templates folder (categories.json, synonyms.json). Default: discovered.")
    var templates: String?
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
