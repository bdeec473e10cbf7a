import CityPackTestSupport
import Foundation
import Testing

/// Reports say exactly what they hold (issue 33, point 8): over the per-rule cap (1,000), the terminal note counts
/// every finding it does not show (the capped ones too) and says the reports keep the first 1,000 and count the
/// rest; report.json lists 1,000 and counts the rest in `omitted`; `--write-baseline` keeps every one.
@Suite struct ReportCapTests {
    @Test func overTheCapTheNoteAndReportsSayWhatTheyHold() throws {
        let tmp = try TestPaths.temporaryDirectory("report-cap")
        defer { try? FileManager.default.removeItem(at: tmp) }
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        for i in 1...1_005 {
            xml += "  <node id=\"\(i)\" lat=\"43.73\(String(format: "%04d", i))\" lon=\"7.42\"><tag k=\"amenity\" v=\"restaurant\"/></node>\n"
        }
        xml += "</osm>\n"
        try xml.write(to: tmp.appendingPathComponent("x.osm"), atomically: true, encoding: .utf8)
        let made = try CLIRunner.runBinary(["init", "city", "--osm", "x.osm", "--locales", "en", "--bbox", "7.40,43.72,7.45,43.76"], cwd: tmp)
        #expect(made.status == 0, "\(made.stderr)")
        let r = try CLIRunner.runBinary(["build", "city", "--output", "out"], cwd: tmp)
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        #expect(r.stderr.contains("citypack: note: not shown: 1002 more osm.poi_missing_name warnings (the first 3 of each rule are; "
            + "--max-per-rule 0 shows all); report.html and report.json list the first 1000 of each rule and count the rest "
            + "(--write-baseline keeps every one)"), "\(r.stderr.suffix(1500))")
        #expect(r.stderr.contains("1005 warnings in 1 file (5 over the first 1000 of a rule: counted, not listed)"), "\(r.stderr.suffix(800))")
        let report = try CLIRunner.json(String(contentsOf: tmp.appendingPathComponent("out/city/report.json"), encoding: .utf8))
        let listed = (report["diagnostics"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "osm.poi_missing_name" }
        #expect(listed.count == 1000)
        let summary = report["summary"] as? [String: Any] ?? report
        #expect((summary["omitted"] as? [String: Int])?["osm.poi_missing_name"] == 5, "\(summary)")
        // Under the cap the reports hold every one, and the note says so.
        let baseline = try CLIRunner.runBinary(["check", "city", "--write-baseline", "b.json"], cwd: tmp)
        #expect(baseline.stderr.contains("report.html and report.json list every one"), "\(baseline.stderr.suffix(800))")
        let written = try CLIRunner.json(String(contentsOf: tmp.appendingPathComponent("b.json"), encoding: .utf8))
        #expect((written["entries"] as? [Any])?.count == 1005, "\(written.keys)")
    }
}
