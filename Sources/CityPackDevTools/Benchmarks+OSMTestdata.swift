import CityPackIngest
import Foundation

extension Benchmarks {
    /// `citypack bench --osm-testdata DIR`: one row per case (expected, CityPack's verdict, agreement, the
    /// codes reported), then the agreement per suite. A verdict is `invalid` when reading the case reports an
    /// error; the `--werror` column also counts warnings. Exit 0 whatever the agreement (this is a report).
    /// - Parameter templates: the templates folder whose POI profile reads the cases; nil when none was found.
    package func osmTestdata(_ root: String, templates: TemplateSource) throws {
        let fm = FileManager.default
        let cases = OSMTestdata.cases(in: root)
        guard fm.fileExists(atPath: root), !cases.isEmpty else {
            throw BenchFailure(.missingInput, "no osm-testdata cases under \(root) (expected xml/data and grid/data)")
        }
        guard let profile = try? TemplatePOIProfile.load(templates: templates) else {
            throw BenchFailure(.missingInput, "cannot load the category profile of \(templates); set CITYPACK_TEMPLATES")
        }
        let outcomes = cases.map { OSMTestdata.run(name: $0.name, directory: $0.directory, profile: profile) }
        func mark(_ o: OSMTestdata.Outcome, _ v: OSMTestdata.Verdict) -> String {
            guard let e = o.expected else { return "n/a" }
            return e == v ? "yes" : "NO"
        }
        var out = "| case | expected | citypack | agrees | --werror | agrees | codes | description |\n"
        out += "|---|---|---|---|---|---|---|---|\n"
        for o in outcomes {
            out += "| \(o.name) | \(o.expected?.rawValue ?? "—") | \(o.verdict.rawValue) | \(mark(o, o.verdict)) "
                + "| \(o.strictVerdict.rawValue) | \(mark(o, o.strictVerdict)) | \(o.codes.joined(separator: " ")) "
                + "| \(o.description.replacingOccurrences(of: "|", with: "/")) |\n"
        }
        out += "\n| suite | cases with a result | agree | agree under --werror |\n|---|---|---|---|\n"
        for suite in ["xml", "grid"] {
            let judged = outcomes.filter { $0.name.hasPrefix(suite + "/") && $0.expected != nil }
            let agree = judged.filter { $0.verdict == $0.expected }.count
            let strict = judged.filter { $0.strictVerdict == $0.expected }.count
            out += "| \(suite) | \(judged.count) | \(agree) | \(strict) |\n"
        }
        // Multipolygon relations of grid/7 and grid/9 against the areas their test.json expects.
        let areaChecks = outcomes.flatMap { o in o.areaChecks.map { (o.name, $0) } }
        out += "\n| case | relation | expected area | citypack agrees | citypack |\n|---|---|---|---|---|\n"
        for (name, check) in areaChecks {
            out += "| \(name) | \(check.relation) | \(check.expectedValid ? "valid" : "INVALID") | \(!check.judged ? "n/a" : check.agrees ? "yes" : "NO") "
                + "| \(check.detail.replacingOccurrences(of: "|", with: "/")) |\n"
        }
        let valid = areaChecks.filter { $0.1.judged && $0.1.expectedValid }
        let invalid = areaChecks.filter { $0.1.judged && !$0.1.expectedValid }
        out += "\n| multipolygon relations | cases | agree |\n|---|---|---|\n"
        out += "| valid area: point inside it, no problem | \(valid.count) | \(valid.filter { $0.1.agrees }.count) |\n"
        out += "| INVALID: a problem reported | \(invalid.count) | \(invalid.filter { $0.1.agrees }.count) |\n"
        output.out(out)
    }
}
