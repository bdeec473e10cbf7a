import CityPackCompiler
import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

// @testable: RulesCommand, whose markdownTable README's table is checked against, is the CLI's internal command type.
@testable import CityPackCLI

/// The rule catalogue: unique codes, one-line summaries, and README's table in step with `citypack rules`.
@Suite struct RuleCatalogTests {
    /// Where the repository keeps the example city; docs/RULES.md names it.
    static let exampleCity = "Tests/Fixtures/rule-examples/base"

    /// Registered from the declarations, checked both ways: every `static let x = RuleDescription(` in Sources is in
    /// ``RuleCatalog/all`` (by its name in RuleCatalog.swift), once, and the catalogue names nothing else.
    @Test func everyDeclaredRuleIsCataloguedOnce() throws {
        let sources = TestPaths.root.appendingPathComponent("Sources")
        var declared: [String] = []
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let declaration = /static let ([A-Za-z0-9_]+) = RuleDescription\(/
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            declared += text.matches(of: declaration).map { String($0.output.1) }
        }
        let catalogue = try String(
            contentsOf: sources.appendingPathComponent("CityPackCompiler/RuleCatalog.swift"), encoding: .utf8)
        let listed = catalogue.matches(of: /Rules\.([A-Za-z0-9_]+)/).map { String($0.output.1) }
        #expect(declared.count >= 100 && Set(declared).count == declared.count, "\(declared.count) declarations")
        #expect(Set(listed).count == listed.count, "listed twice: \(Dictionary(grouping: listed, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())")
        #expect(Set(declared).subtracting(listed).isEmpty, "declared but not in RuleCatalog: \(Set(declared).subtracting(listed).sorted())")
        #expect(Set(listed).subtracting(declared).isEmpty, "in RuleCatalog but not declared: \(Set(listed).subtracting(declared).sorted())")
        #expect(RuleCatalog.all.count == declared.count)
    }

    @Test func codesAreUniqueAndWellFormed() {
        let codes = RuleCatalog.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        for rule in RuleCatalog.all {
            #expect(rule.code.range(of: #"^[a-z]+\.[a-z0-9_]+$"#, options: .regularExpression) != nil, "\(rule.code)")
            #expect(rule.code.hasPrefix(rule.kind.rawValue + "."), "\(rule.code) kind \(rule.kind)")
            #expect(!rule.summary.isEmpty && !rule.summary.contains("\n") && !rule.rationale.isEmpty, "\(rule.code)")
        }
    }

    @Test func readmeTableMatchesCatalogue() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- rules:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- rules:end -->"))
        let table = String(readme[begin.upperBound..<end.lowerBound])
        #expect(table == RulesCommand.markdownTable(), "README.md rule table is stale: run `citypack rules --format markdown`")
    }

    @Test func rulesReferenceIsCurrent() throws {
        let url = TestPaths.root.appendingPathComponent("docs/RULES.md")
        let doc = try String(contentsOf: url, encoding: .utf8)
        #expect(
            doc == RuleCatalogText.reference(RuleCatalog.all, exampleCity: Self.exampleCity),
            "docs/RULES.md is stale: run `citypack rules --format docs --example-city \(Self.exampleCity) > docs/RULES.md`")
        #expect(FileManager.default.fileExists(atPath: TestPaths.root.appendingPathComponent(Self.exampleCity).path))
    }

    @Test func jsonIsTheCatalogueAsData() throws {
        let text = RuleCatalogText.json(RuleCatalog.all)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == RuleCatalogText.jsonVersion)
        #expect(object["example_check_date"] as? String == RuleExample.checkDate)
        #expect(object["example_city"] is NSNull, "the binary does not know where the example city is")
        let named = try #require(
            try JSONSerialization.jsonObject(with: Data(RuleCatalogText.json([], exampleCity: "base").utf8)) as? [String: Any])
        #expect(named["example_city"] as? String == "base")
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.map { $0["code"] as? String } == RuleCatalog.all.map(\.code))
        for (entry, rule) in zip(rules, RuleCatalog.all) {
            #expect(Set(entry.keys) == ["code", "title", "kind", "severity", "summary", "rationale", "example", "example_waiver"])
            #expect(entry["title"] as? String == rule.title)
            #expect(entry["severity"] as? String == rule.severity.rawValue)
            if rule.example != nil {
                #expect(entry["example"] is [String: Any])
                #expect(entry["example_waiver"] is NSNull)
            } else {
                #expect(entry["example"] is NSNull)
                #expect(entry["example_waiver"] as? String == rule.exampleWaiver)
            }
        }
    }

    /// Example texts survive a JSON round trip byte for byte (BOM, NUL, CR and separators included).
    @Test func jsonExamplesRoundTrip() throws {
        struct Example: Decodable, Equatable { var file: String; var triggering: String?; var passing: String? }
        struct Rule: Decodable { var code: String; var example: Example? }
        struct Document: Decodable { var rules: [Rule] }
        let document = try JSONDecoder().decode(Document.self, from: Data(RuleCatalogText.json(RuleCatalog.all).utf8))
        for (decoded, rule) in zip(document.rules, RuleCatalog.all) {
            #expect(decoded.code == rule.code)
            #expect(decoded.example.map { Array(($0.triggering ?? "").utf8) } == rule.example.map { Array(($0.triggering ?? "").utf8) }, "\(rule.code)")
            #expect(decoded.example == rule.example.map { Example(file: $0.file, triggering: $0.triggering, passing: $0.passing) }, "\(rule.code)")
        }
    }

    @Test func humanListingShowsExamplesForOneRule() throws {
        let rule = try #require(RuleCatalog.rule("gtfs.fast_travel"))
        let one = RuleCatalogText.human([rule], withExamples: true)
        #expect(one.contains("gtfs.fast_travel  Fast travel  [warning]"))
        #expect(one.contains("why: "))
        #expect(one.contains("example, applied to the example city and checked as of \(RuleExample.checkDate):\n"))
        #expect(RuleCatalogText.human([rule], withExamples: true, exampleCity: "base").contains("applied to base/ and"))
        #expect(one.contains("triggers: gtfs/stop_times.txt\n    | trip_id,arrival_time"))
        #expect(one.contains("T1,08:00:20,08:00:20,S3,2,2.8"))
        let all = RuleCatalogText.human(RuleCatalog.all, withExamples: false)
        #expect(!all.contains("triggers:"))
        #expect(RuleCatalog.all.allSatisfy { all.contains("\($0.code)  \($0.title)  [\($0.severity.rawValue)]") })
        #expect(RuleCatalogText.visible("a\u{0}b\r\nc\rd\n\u{FEFF}") == "a␀b␍␊\nc␍\nd\n⟨U+FEFF⟩")
    }
}

/// `citypack rules` end to end with the built binary: output streams and exit codes.
@Suite struct RulesCommandTests {
    @Test func oneRuleWithExamples() throws {
        let r = try CLIRunner.run(["rules", "gtfs.missing_calendar"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("gtfs.missing_calendar  Missing calendar  [error]\n"))
        #expect(r.stdout.contains("triggers: gtfs/calendar.txt\n    | (file absent)\n"))
        #expect(r.stdout.contains("passes: gtfs/calendar.txt\n    | service_id,monday"))
        let waived = try CLIRunner.run(["rules", "pack.io_failure"])
        #expect(waived.stdout.contains("no example: "))
    }

    @Test func formatsAndUnknownCode() throws {
        let json = try CLIRunner.run(["rules", "--format", "json"])
        #expect(json.status == 0)
        #expect((try CLIRunner.json(json.stdout)["rules"] as? [Any])?.count == RuleCatalog.all.count)
        let table = try CLIRunner.run(["rules", "--format", "markdown"])
        #expect(table.stdout == RulesCommand.markdownTable())
        let docs = try CLIRunner.run(["rules", "--format", "docs", "--example-city", RuleCatalogTests.exampleCity])
        #expect(docs.stdout == RuleCatalogText.reference(RuleCatalog.all, exampleCity: RuleCatalogTests.exampleCity))
        let unknown = try CLIRunner.run(["rules", "gtfs.fast"])
        #expect(unknown.status == 64)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("unknown rule 'gtfs.fast'; did you mean gtfs.fast_travel?"))
    }
}
