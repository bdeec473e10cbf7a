import CityPackDiagnostics
import Foundation
import Testing

@Suite struct BaselineTests {
    @Test func fingerprintIgnoresLinesAndWorkingDirectory() {
        let a = Diagnostic(TestRules.poiMissingName, "no name", at: SourceLocation(file: "inputs/x/map.osm", line: 3, column: 2), entity: "n1")
        let moved = Diagnostic(TestRules.poiMissingName, "no name at all", at: SourceLocation(file: "/abs/inputs/x/map.osm", line: 90, column: 7), entity: "n1")
        #expect(a.fingerprint(root: "inputs/x") == moved.fingerprint(root: "/abs/inputs/x/"))
        #expect(a.fingerprint(root: "inputs/x").count == 32)
        let otherEntity = Diagnostic(TestRules.poiMissingName, "no name", at: SourceLocation(file: "inputs/x/map.osm", line: 3, column: 2), entity: "n2")
        #expect(a.fingerprint(root: "inputs/x") != otherEntity.fingerprint(root: "inputs/x"))
        let otherFile = Diagnostic(TestRules.poiMissingName, "no name", at: SourceLocation(file: "inputs/x/other.osm", line: 3), entity: "n1")
        #expect(a.fingerprint(root: "inputs/x") != otherFile.fingerprint(root: "inputs/x"))
        #expect(Diagnostic.relativeFile("./map.osm", root: ".") == "map.osm")
    }

    @Test func baselineSilencesEachOccurrenceOnceAndListsFixedEntries() {
        let root = "city"
        func d(_ entity: String, line: Int) -> Diagnostic {
            Diagnostic(TestRules.duplicateKey, "duplicate", at: SourceLocation(file: "city/gtfs/stops.txt", line: line), entity: entity)
        }
        let baseline = Baseline(silencing: [d("stop_id=A", line: 2), d("stop_id=A", line: 3), d("stop_id=B", line: 4)], root: root)
        let bag = DiagnosticBag()
        bag.use(baseline: baseline, root: root)
        // A moved by a few lines, still twice, plus a new third occurrence and a new C; B was fixed.
        bag.report(d("stop_id=A", line: 12))
        bag.report(d("stop_id=A", line: 13))
        bag.report(d("stop_id=A", line: 14))
        bag.report(d("stop_id=C", line: 15))
        #expect(bag.baselined.count == 2)
        #expect(bag.diagnostics.map(\.entity) == ["stop_id=A", "stop_id=C"])
        #expect(bag.errorCount == 2)
        #expect(bag.fixedBaselineEntries.map(\.entity) == ["stop_id=B"])
    }

    /// A baseline entry of a rule switched off in this run matched nothing because the rule did not run: it is
    /// unchecked, never "fixed" (issue 40: `--rule CODE=off --baseline` printed 20 "fixed" notes). Off on the
    /// command line or in the city file alike; a rule that ran and found nothing is still "fixed".
    @Test func entriesOfASwitchedOffRuleAreUncheckedNotFixed() {
        let baseline = Baseline(silencing: [
            Diagnostic(TestRules.poiMissingName, "no name", at: nil, entity: "n1"),
            Diagnostic(TestRules.duplicatePOI, "dup", at: nil, entity: "n2"),
            Diagnostic(TestRules.wayOneNode, "one node", at: nil, entity: "w3"),
        ], root: ".")
        let off: Severity? = nil
        let bag = DiagnosticBag()
        bag.use(baseline: baseline, root: ".")
        bag.pin([TestRules.poiMissingName.code: off])
        bag.configure(overrides: [:], disabled: [TestRules.wayOneNode.code])
        bag.report(TestRules.poiMissingName, "no name", at: nil, entity: "n1")
        #expect(bag.fixedBaselineEntries.map(\.entity) == ["n2"])
        #expect(bag.uncheckedBaselineEntries.compactMap(\.entity).sorted() == ["n1", "w3"])
    }

    @Test func baselineRoundTripsThroughJSON() throws {
        let baseline = Baseline(silencing: [Diagnostic(TestRules.duplicatePOI, "dup", at: nil, entity: "n9")], root: ".")
        let data = try JSONEncoder().encode(baseline)
        #expect(try JSONDecoder().decode(Baseline.self, from: data) == baseline)
        #expect(baseline.version == Baseline.currentVersion)
    }

    /// Command-line settings beat the city file, whichever is applied first, and can re-enable a rule the city
    /// file switched off.
    @Test func commandLineRuleSettingsBeatTheCityFile() {
        let bag = DiagnosticBag()
        let off: Severity? = nil
        bag.pin([TestRules.duplicatePOI.code: .warning, TestRules.poiMissingName.code: .error, TestRules.wayOneNode.code: off])
        bag.configure(
            overrides: [TestRules.duplicatePOI.code: .error], disabled: [TestRules.poiMissingName.code])
        bag.report(TestRules.duplicatePOI, "dup", at: nil)
        bag.report(TestRules.poiMissingName, "no name", at: nil)
        bag.report(TestRules.wayOneNode, "one node", at: nil)
        #expect(bag.diagnostics.map(\.severity) == [.warning, .error])
        #expect(bag.severity(of: TestRules.wayOneNode) == nil)
        #expect(bag.severity(of: TestRules.duplicatePOI) == .warning)
        #expect(bag.infoCount == 0)
    }
}
