import ArgumentParser
import CityPackDiagnostics

/// `citypack rules [CODE]`: the rule catalogue.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List every validation rule: code, severity, meaning.")

    enum Format: String, ExpressibleByArgument { case human, json, markdown }

    @Argument(help: "Show one rule (e.g. osm.invalid_coordinates).")
    var code: String?

    @Option(name: .long, help: "human, json or markdown.")
    var format: Format = .human

    /// The rule table as Markdown (README.md embeds it; a test keeps the two in step).
    package static func markdownTable(_ rules: [RuleDescription] = RuleCatalog.all) -> String {
        var text = "| code | severity | meaning |\n|---|---|---|\n"
        for r in rules {
            text += "| `\(r.code)` | \(r.severity.rawValue) | \(r.summary.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        return text
    }

    func run() throws {
        var rules = RuleCatalog.all
        if let code {
            guard let rule = RuleCatalog.rule(code) else {
                Terminal.err("citypack: error: unknown rule '\(code)'\n")
                throw ExitCode(ExitCodes.usage)
            }
            rules = [rule]
        }
        switch format {
        case .json:
            Terminal.out(DiagnosticRenderer.encode(rules))
        case .markdown:
            Terminal.out(Self.markdownTable(rules))
        case .human:
            for r in rules {
                var line = "\(r.code)  [\(r.severity.rawValue)]  \(r.summary)\n"
                if code != nil { line += "  why: \(r.rationale)\n" }
                Terminal.out(line)
            }
        }
    }
}
