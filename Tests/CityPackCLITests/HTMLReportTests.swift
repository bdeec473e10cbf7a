import CityPackTestSupport
import Foundation
import Testing

/// `report.html` loaded in a real headless browser (Debian's chromium): its script must run and filter the
/// diagnostics table, and the page must not reach for the network.
@Suite(.serialized) struct HTMLReportTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs headless chromium with `arguments` and returns stdout (killed after 90 s).
    static func runChromium(_ arguments: [String]) throws -> String {
        guard let chromium else { return "" }
        let profile = try TestPaths.temporaryDirectory("chromium-profile")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium)
        p.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)",
        ] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = DispatchTime.now() + .seconds(90)
        DispatchQueue.global().asyncAfter(deadline: deadline) { if p.isRunning { p.terminate() } }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func filtersRunInABrowser() throws {
        guard Self.chromium != nil else {
            print("skipped: chromium is not installed (apt-get install chromium; CI installs it through .ci/run)")
            return
        }
        let out = try TestPaths.temporaryDirectory("html-report")
        let r = try CLIRunner.run(["check", "Tests/Fixtures/diagnostics/city", "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        #expect(r.status == 1)
        let page = out.appendingPathComponent("diagcity/report.html")
        // The static page says 8 of 8; only the script can produce "2 of 8" for the severity filter.
        let dom = try Self.runChromium(["--dump-dom", page.absoluteString + "?severity=error"])
        #expect(dom.contains("<output id=\"shown-count\">2 of 8 shown</output>"), "\(dom.prefix(3000))")
        #expect(dom.contains("data-filtered=\"2\""))
        let byText = try Self.runChromium(["--dump-dom", page.absoluteString + "?q=stop_times"])
        #expect(byText.contains(">1 of 8 shown<"), "text filter")
        // The map drew the POIs, the stops and the line, and ringed the problems it could place.
        #expect(dom.contains("class=\"poi\"") && dom.contains("class=\"stop\"") && dom.contains("class=\"line\""))
        #expect(dom.contains("class=\"problem error\""))
    }

    @Test func selfContained() throws {
        let out = try TestPaths.temporaryDirectory("html-static")
        _ = try CLIRunner.run(["check", "Tests/Fixtures/diagnostics/city", "--output", out.path], environment: ["SOURCE_DATE_EPOCH": "1704067200"])
        let html = try String(contentsOf: out.appendingPathComponent("diagcity/report.html"), encoding: .utf8)
        // No external resources: no src/href attributes, no @import or url(), and the only URL is the SVG namespace.
        for needle in [" src=", " href=", "@import", "url("] { #expect(!html.contains(needle), "\(needle) in report.html") }
        let urls = html.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
        #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg") }, "\(urls)")
        #expect(html.contains("<svg id=\"city-map\""))
        #expect(html.contains("2 errors, 4 warnings, 2 infos in 3 files"))
        // Counts per rule family: osm 1 error, gtfs 1 error, csv 2 warnings.
        #expect(html.contains("<tr><td>csv</td><td>0</td><td>2</td><td>1</td></tr>"), "\(html)")
    }
}
