import Foundation
import Testing
@testable import CityPackDiagnostics

@Suite struct BaselineTests {
    /// FIPS 180-4 test vectors, and a cross-check against sha256sum for a longer, multi-block input.
    @Test func sha256Vectors() throws {
        #expect(SHA256Digest.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256Digest.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let long = String(repeating: "citypack-ünïcode-", count: 97)
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        tool.standardInput = input
        tool.standardOutput = output
        try tool.run()
        input.fileHandleForWriting.write(Data(long.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tool.waitUntilExit()
        #expect(text.hasPrefix(SHA256Digest.hex(long)))
    }

    @Test func fingerprintIgnoresLinesAndWorkingDirectory() {
        let a = Diagnostic(Rules.osmPOIMissingName, "no name", at: SourceLocation(file: "inputs/x/map.osm", line: 3, column: 2), entity: "n1")
        let moved = Diagnostic(Rules.osmPOIMissingName, "no name at all", at: SourceLocation(file: "/abs/inputs/x/map.osm", line: 90, column: 7), entity: "n1")
        #expect(a.fingerprint(root: "inputs/x") == moved.fingerprint(root: "/abs/inputs/x/"))
        #expect(a.fingerprint(root: "inputs/x").count == 32)
        let otherEntity = Diagnostic(Rules.osmPOIMissingName, "no name", at: SourceLocation(file: "inputs/x/map.osm", line: 3, column: 2), entity: "n2")
        #expect(a.fingerprint(root: "inputs/x") != otherEntity.fingerprint(root: "inputs/x"))
        let otherFile = Diagnostic(Rules.osmPOIMissingName, "no name", at: SourceLocation(file: "inputs/x/other.osm", line: 3), entity: "n1")
        #expect(a.fingerprint(root: "inputs/x") != otherFile.fingerprint(root: "inputs/x"))
        #expect(Diagnostic.relativeFile("./map.osm", root: ".") == "map.osm")
    }

    @Test func baselineSilencesEachOccurrenceOnceAndListsFixedEntries() {
        let root = "city"
        func d(_ entity: String, line: Int) -> Diagnostic {
            Diagnostic(Rules.gtfsDuplicateKey, "duplicate", at: SourceLocation(file: "city/gtfs/stops.txt", line: line), entity: entity)
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

    @Test func baselineRoundTripsThroughJSON() throws {
        let baseline = Baseline(silencing: [Diagnostic(Rules.osmDuplicatePOI, "dup", at: nil, entity: "n9")], root: ".")
        let data = try JSONEncoder().encode(baseline)
        #expect(try JSONDecoder().decode(Baseline.self, from: data) == baseline)
        #expect(baseline.version == Baseline.currentVersion)
    }

    /// Command-line settings beat the city file, whichever is applied first, and can re-enable a rule the city
    /// file switched off.
    @Test func commandLineRuleSettingsBeatTheCityFile() {
        let bag = DiagnosticBag()
        let off: Severity? = nil
        bag.pin([Rules.osmDuplicatePOI.code: .warning, Rules.osmPOIMissingName.code: .error, Rules.osmWayOneNode.code: off])
        bag.configure(
            overrides: [Rules.osmDuplicatePOI.code: .error], disabled: [Rules.osmPOIMissingName.code])
        bag.report(Rules.osmDuplicatePOI, "dup", at: nil)
        bag.report(Rules.osmPOIMissingName, "no name", at: nil)
        bag.report(Rules.osmWayOneNode, "one node", at: nil)
        #expect(bag.diagnostics.map(\.severity) == [.warning, .error])
        #expect(bag.severity(of: Rules.osmWayOneNode) == nil)
        #expect(bag.severity(of: Rules.osmDuplicatePOI) == .warning)
        #expect(bag.infoCount == 0)
    }
}
