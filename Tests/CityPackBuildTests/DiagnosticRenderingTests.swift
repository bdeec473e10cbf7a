import CityPackBuild
import CityPackDiagnostics
import Foundation
import Testing

/// Units of the diagnostic renderers: source snippets, carets, limits, the summary line, HTML escaping.
@Suite struct DiagnosticRenderingTests {    @Test func caretUnderTheColumn() {
        let (text, marker) = SourceSnippet.render(line: Array("  <node id=\"1\"/>".utf8), column: 3, underlineCSVField: false)
        #expect(text == "  <node id=\"1\"/>")
        #expect(marker == "  ^")
    }

    @Test func tabsExpandAndTheCaretFollows() {
        // Column 2 is the byte after the tab; the tab is shown as 4 spaces.
        let (text, marker) = SourceSnippet.render(line: Array("\tx = 1".utf8), column: 2, underlineCSVField: false)
        #expect(text == "    x = 1")
        #expect(marker == "    ^")
    }

    @Test func multibyteCharactersBeforeTheColumn() {
        // "Café," is 6 bytes; column 7 is the first byte of "x".
        let (text, marker) = SourceSnippet.render(line: Array("Café,x".utf8), column: 7, underlineCSVField: false)
        #expect(text == "Café,x")
        #expect(marker == "     ^")
    }

    @Test func csvFieldIsUnderlinedToItsEnd() {
        let (_, plain) = SourceSnippet.render(line: Array("S1,Port , 43.7,7.4".utf8), column: 4, underlineCSVField: true)
        #expect(plain == "   ^~~~~")
        let (_, quoted) = SourceSnippet.render(line: Array("S1,\"a,\"\"b\"\",c\",9".utf8), column: 4, underlineCSVField: true)
        #expect(quoted == "   ^~~~~~~~~~~")
    }

    @Test func longLinesAreCutAroundTheColumn() {
        let line = String(repeating: "a", count: 300) + "X" + String(repeating: "b", count: 300)
        let (text, marker) = SourceSnippet.render(line: Array(line.utf8), column: 301, underlineCSVField: false)
        #expect(text.hasPrefix("...") && text.hasSuffix("..."))
        #expect(text.count == SourceSnippet.width + 6)
        let caret = marker.firstIndex(of: "^").map { marker.distance(from: marker.startIndex, to: $0) } ?? -1
        let x = text.firstIndex(of: "X").map { text.distance(from: text.startIndex, to: $0) } ?? -2
        #expect(caret == x)
    }

    @Test func unknownColumnGivesNoCaret() {
        let (text, marker) = SourceSnippet.render(line: Array("abc".utf8), column: 0, underlineCSVField: false)
        #expect(text == "abc" && marker.isEmpty)
    }

    @Test func sourceLinesFromPlainAndGzipFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("srctext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let plain = dir.appendingPathComponent("a.txt")
        try Data("one\r\ntwo\nthree".utf8).write(to: plain)
        let lines = SourceText.read(file: plain.path, lines: [2, 3, 9])
        #expect(lines[2].map { String(decoding: $0, as: UTF8.self) } == "two")
        #expect(lines[3].map { String(decoding: $0, as: UTF8.self) } == "three")
        #expect(lines[9] == nil)
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gz.arguments = ["-k", plain.path]
        try gz.run()
        gz.waitUntilExit()
        let fromGzip = SourceText.read(file: plain.path + ".gz", lines: [1])
        #expect(fromGzip[1].map { String(decoding: $0, as: UTF8.self) } == "one")
        #expect(SourceText.read(file: dir.appendingPathComponent("feed.zip/stops.txt").path, lines: [1]).isEmpty)
    }

    @Test func limitsCountWhatIsLeftOut() {
        let d = { (s: Severity, i: Int) in Diagnostic(s, code: "x.y", message: "\(i)", at: SourceLocation(file: "f", line: i)) }
        let all = [d(.error, 1), d(.warning, 2), d(.error, 3), d(.error, 4), d(.warning, 5)]
        let (shown, note) = DiagnosticRenderer.limited(all, .init(maxErrors: 2))
        #expect(shown.map(\.message) == ["1", "2", "3"])
        #expect(note == "1 more error, 1 more warning not shown (--max-errors 2); the report file lists them all")
        let (everything, none) = DiagnosticRenderer.limited(all, .init())
        #expect(everything.count == 5 && none == nil)
    }

    @Test func perRuleLimitKeepsTheFirstWarningsOfEachRuleAndEveryError() {
        let d = { (s: Severity, code: String, i: Int) in
            Diagnostic(s, code: code, message: "\(i)", at: SourceLocation(file: "f", line: i))
        }
        let all = (1...5).map { d(.warning, "a.b", $0) } + [d(.info, "c.d", 6), d(.info, "c.d", 7)]
            + (8...12).map { d(.error, "e.f", $0) }
        let (kept, dropped) = DiagnosticRenderer.perRule(all, limit: 1)
        #expect(kept.map(\.message) == ["1", "6", "8", "9", "10", "11", "12"])
        #expect(dropped.map(\.code) == ["a.b", "c.d"] && dropped.map(\.count) == [4, 1])
        #expect(DiagnosticRenderer.perRuleNote(dropped, limit: 1) == "not shown: 4 more a.b warnings, 1 more c.d info "
            + "(the first 1 of each rule are; --max-per-rule 0 shows all); report.html and report.json list every one")
        // Within the limit, or with no limit, nothing is dropped and there is no note.
        for limit in [0, 5] {
            let (same, none) = DiagnosticRenderer.perRule(all, limit: limit)
            #expect(same.count == all.count && none.isEmpty && DiagnosticRenderer.perRuleNote(none, limit: limit) == nil)
        }
        // The rendered text: the first warning, the note, no snippet reader needed.
        var report = DiagnosticReport(command: "check", city: nil, root: ".", bag: DiagnosticBag())
        report.diagnostics = Array(all.prefix(5))
        let text = DiagnosticRenderer.human(report, limits: .init(maxPerRule: 2), colour: false, sources: nil)
        #expect(text.components(separatedBy: ": warning: ").count - 1 == 2)
        #expect(text.contains("citypack: note: not shown: 3 more a.b warnings"))
    }

    @Test func summaryLine() {
        var report = DiagnosticReport(command: "check", city: "x", root: ".", bag: DiagnosticBag())
        report.errors = 2
        report.warnings = 5
        report.diagnostics = ["a", "b", "c", "a"].map { Diagnostic(.warning, code: "x.y", message: "m", at: SourceLocation(file: $0)) }
        #expect(report.summary == "2 errors, 5 warnings in 3 files")
        report.errors = 1
        report.warnings = 1
        report.diagnostics = [report.diagnostics[0]]
        #expect(report.summary == "1 error, 1 warning in 1 file")
    }

    @Test func htmlEscaping() {
        #expect(HTMLReport.escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        #expect(HTMLReport.escape("é\"\u{301}<日 x") == "é&quot;\u{301}&lt;日 x")
        #expect(HTMLReport.escape("Caffè Nero") == "Caffè Nero")
    }
}
