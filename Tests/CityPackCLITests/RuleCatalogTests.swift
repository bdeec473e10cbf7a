import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

@testable import CityPackCLI

/// The rule catalogue: unique codes, one-line summaries, and README's table in step with `citypack rules`.
@Suite struct RuleCatalogTests {
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
}
