import CityPackBuild
import CityPackCompiler
import CityPackTestSupport
import Foundation
import Testing

/// report.html kept in the build cache (`report-html.entry`): an unchanged rebuild takes the stored page, another
/// report or emit key misses, a damaged entry is ignored and written again, and `--no-cache` or errors use none.
@Suite struct HTMLReportMemoTests {
    @Test func anUnchangedBuildTakesThePageAndADamagedEntryIsMadeAgain() throws {
        let root = try TestPaths.temporaryDirectory("citypack-html-memo")
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("outputs").path
        var request = BuildRequest(
            city: TestPaths.root.appendingPathComponent("inputs/monaco").path,
            templates: TestPaths.root.appendingPathComponent("templates").path, output: output, emit: true)
        request.sourceDateEpoch = 1_700_000_000
        let first = try BuildSession.build(request)
        #expect(first.exit == .success)
        let page = (first.reportFolder as NSString).appendingPathComponent("report.html")
        let real = try String(contentsOfFile: page, encoding: .utf8)
        let json = try String(contentsOfFile: (first.reportFolder as NSString).appendingPathComponent("report.json"), encoding: .utf8)
        let memo = try #require(HTMLReportMemo(build: first.build, json: json, output: output, useCache: true, hasErrors: false))
        #expect(memo.load() == Data(real.utf8))

        // Another report, no cache, or errors: not used.
        #expect(HTMLReportMemo(build: first.build, json: json + " ", output: output, useCache: true, hasErrors: false)?.load() == nil)
        #expect(HTMLReportMemo(build: first.build, json: json, output: output, useCache: false, hasErrors: false) == nil)
        #expect(HTMLReportMemo(build: first.build, json: json, output: output, useCache: true, hasErrors: true) == nil)

        // A page planted under the key shows that the next unchanged build takes the stored page.
        memo.store(Data("planted\n".utf8))
        #expect(try BuildSession.build(request).exit == .success)
        #expect(try String(contentsOfFile: page, encoding: .utf8) == "planted\n")

        // A damaged entry is not used: the page is drawn again and stored again.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: memo.path))
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: memo.path))
        #expect(memo.load() == nil)
        #expect(try BuildSession.build(request).exit == .success)
        #expect(try String(contentsOfFile: page, encoding: .utf8) == real)
        #expect(memo.load() == Data(real.utf8))
    }
}
