import CityPackDiagnostics
import Testing

@Suite struct DiagnosticBagTests {
    @Test func overridesAndWerror() {
        let bag = DiagnosticBag(overrides: ["osm.poi_missing_name": .error], warningsAsErrors: false)
        bag.report(TestRules.poiMissingName, "no name", at: SourceLocation(file: "a.osm", line: 3, column: 2))
        bag.report(TestRules.duplicatePOI, "dup", at: nil)
        #expect(bag.errorCount == 1)
        #expect(bag.warningCount == 1)
        let strict = DiagnosticBag(warningsAsErrors: true)
        strict.report(TestRules.duplicatePOI, "dup", at: nil)
        #expect(strict.errorCount == 1)
    }

    @Test func capKeepsCounting() {
        let bag = DiagnosticBag(maxPerCode: 2)
        for i in 0..<5 { bag.report(TestRules.duplicatePOI, "dup \(i)", at: nil) }
        #expect(bag.diagnostics.count == 2)
        #expect(bag.warningCount == 5)
        #expect(bag.suppressed["osm.duplicate_poi"] == 3)
    }

    @Test func deterministicOrder() {
        let bag = DiagnosticBag()
        bag.report(TestRules.duplicatePOI, "b", at: SourceLocation(file: "b.osm", line: 1, column: 1))
        bag.report(TestRules.duplicatePOI, "a2", at: SourceLocation(file: "a.osm", line: 9, column: 1))
        bag.report(TestRules.duplicatePOI, "a1", at: SourceLocation(file: "a.osm", line: 2, column: 5))
        #expect(bag.diagnostics.map(\.message) == ["a1", "a2", "b"])
    }

    @Test func defaultTitleSpellsOutTheCode() {
        #expect(RuleDescription.defaultTitle("csv.invalid_utf8") == "Invalid UTF-8")
        #expect(RuleDescription.defaultTitle("editorial.route_unknown_poi") == "Route unknown POI")
        #expect(TestRules.duplicateKey.title == "Duplicate key")
    }
}
