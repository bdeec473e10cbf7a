import CityPackBuild
import CityPackTestSupport
import Foundation
import Testing

/// report.html's style sheet and script are real files (Sources/CityPackBuild/Assets/), linted, and embedded into
/// the binary by scripts/embed-report-assets.py.
@Suite struct ReportAssetsTests {
    static let folder = TestPaths.root.appendingPathComponent("Sources/CityPackBuild/Assets")

    /// The generated ReportAssets+Files.swift holds exactly the asset files (run scripts/embed-report-assets.py
    /// after editing an asset).
    @Test func embeddedAssetsMatchTheFiles() throws {
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".css") || $0.hasSuffix(".js") || $0.hasSuffix(".html") }.sorted()
        #expect(ReportAssets.files.map(\.name) == onDisk)
        for (name, text) in ReportAssets.files {
            var file = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            if file.hasSuffix("\n") { file.removeLast() }
            #expect(text == file, "\(name) differs from Assets/\(name): run scripts/embed-report-assets.py")
        }
    }

    /// The page inlines both assets between their tags.
    @Test func theReportInlinesTheAssets() {
        #expect(HTMLReport.css == ReportAssets.text("report.css"))
        #expect(HTMLReport.script.contains("diagnostic-table"))
    }

    /// The page template's slots are the ones render fills; a value is never searched for slots.
    @Test func thePageTemplateHasItsSlots() {
        let template = ReportAssets.text("report.html")
        for slot in ["generator", "title", "css", "status", "summary", "contents", "body", "script"] {
            #expect(template.contains("{{\(slot)}}"), "report.html has no {{\(slot)}}")
        }
        #expect(HTMLReport.fill("<a>{{x}}</a>{{y}}", ["x": "{{y}}", "y": "2"]) == "<a>{{y}}</a>2")
    }

    /// `node --check` parses the script.
    @Test(.needs(OutsideTools.node)) func nodeParsesTheScript() throws {
        let r = try OutsideTools.node.run(["--check", Self.folder.appendingPathComponent("report.js").path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// eslint's recommended rules, for a browser, ES2015 (Assets/eslintrc.json), find nothing in the script.
    @Test(.needs(OutsideTools.eslint)) func eslintFindsNothing() throws {
        // Debian's eslint finds its modules through NODE_PATH when the node on the PATH is not Debian's.
        let r = try ProcessRun.run(
            URL(fileURLWithPath: try OutsideTools.eslint.require()),
            ["--no-eslintrc", "-c", "Sources/CityPackBuild/Assets/eslintrc.json", "-f", "json", "Sources/CityPackBuild/Assets/report.js"],
            environment: ["NODE_PATH": "/usr/share/nodejs:/usr/lib/nodejs"], cwd: TestPaths.root)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let results = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        #expect(results?.first?["errorCount"] as? Int == 0, "\(r.stdout)")
        #expect(results?.first?["warningCount"] as? Int == 0, "\(r.stdout)")
    }
}
