import ArgumentParser
import CityPackCompiler
import CityPackDiagnostics

/// `citypack rules [CODE]`: the rule catalogue, rendered from the rule data (``RuleCatalog/all``).
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List every validation rule: code, title, severity, meaning, rationale.",
        discussion: """
            human: every rule with its meaning and rationale; with CODE also its triggering and passing example. \
            json: the catalogue as data (schema in docs/RULES.md). markdown: the rule table README.md embeds. \
            docs: the full reference with examples (docs/RULES.md, generated with
            --example-city Tests/Fixtures/rule-examples/base).
            Exit codes: 0 listed, 64 unknown CODE or usage.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case human, json, markdown, docs }

    @Argument(help: "Show one rule (e.g. osm.invalid_coordinates).")
    var code: String?

    @Option(name: .long, help: "human, json, markdown or docs.")
    var format: Format = .human

    @Option(
        name: .customLong("example-city"),
        help: "The folder of the example city the examples are overlaid on, as the output should name it.")
    var exampleCity: String?

    func run() throws {
        var rules = RuleCatalog.all
        if let code {
            guard let rule = RuleCatalog.rule(code) else {
                let near = RuleCatalog.all.map(\.code).filter { $0.hasPrefix(code) || code.hasPrefix($0) || $0.contains(code) }
                let hint = near.isEmpty ? "; `citypack rules` lists them all" : "; did you mean \(near.prefix(5).joined(separator: ", "))?"
                throw CLIError.usage("unknown rule '\(code)'\(hint)")
            }
            rules = [rule]
        }
        switch format {
        case .json: Terminal.out(RuleCatalogText.json(rules, exampleCity: exampleCity))
        case .markdown: Terminal.out(RuleCatalogText.markdownTable(rules))
        case .docs: Terminal.out(RuleCatalogText.reference(rules, exampleCity: exampleCity))
        case .human: Terminal.out(RuleCatalogText.human(rules, withExamples: code != nil, exampleCity: exampleCity))
        }
    }

    /// The rule table as Markdown (README.md embeds it; a test keeps the two in step).
    package static func markdownTable(_ rules: [RuleDescription] = RuleCatalog.all) -> String {
        RuleCatalogText.markdownTable(rules)
    }
}
