import CityPackDiagnostics
import Foundation

/// Runs the cases of osmcode/osm-testdata (`xml/data/NNN-name/` and `grid/data/C/NNN/`) through ``OSMReader``
/// and compares CityPack's verdict with the case's `result` file. Used by `citypack bench --osm-testdata` and
/// by the conformance test.
///
/// Verdicts: a case is *invalid* for CityPack when reading it reports an error (the build would stop), and
/// *invalid under --werror* when it reports an error or a warning (a strict CI run would stop).
public enum OSMTestdata {
    public enum Verdict: String, Sendable, Codable { case valid, invalid }

    /// One case and what CityPack made of it.
    public struct Outcome: Sendable {
        /// `xml/100-correct_but_no_data`, `grid/7/710`.
        public var name: String
        /// One-line description from the case (`description.txt` or `test.json`).
        public var description: String
        /// From the case's `result` file; nil when it has none (xml/103).
        public var expected: Verdict?
        /// Error and warning diagnostics, in order.
        public var diagnostics: [Diagnostic]

        public var verdict: Verdict { diagnostics.contains { $0.severity == .error } ? .invalid : .valid }
        public var strictVerdict: Verdict {
            diagnostics.contains { $0.severity == .error || $0.severity == .warning } ? .invalid : .valid
        }
        /// Distinct codes, in first-seen order.
        public var codes: [String] {
            var seen = Set<String>()
            return diagnostics.map(\.code).filter { seen.insert($0).inserted }
        }
    }

    /// The cases under `root` (the osm-testdata folder), xml first, each in name order.
    public static func cases(in root: String) -> [(name: String, directory: String)] {
        let fm = FileManager.default
        var out: [(String, String)] = []
        let xml = (root as NSString).appendingPathComponent("xml/data")
        for name in ((try? fm.contentsOfDirectory(atPath: xml)) ?? []).sorted() {
            let dir = (xml as NSString).appendingPathComponent(name)
            if dataFile(in: dir) != nil { out.append(("xml/\(name)", dir)) }
        }
        let grid = (root as NSString).appendingPathComponent("grid/data")
        for category in ((try? fm.contentsOfDirectory(atPath: grid)) ?? []).sorted() {
            let cdir = (grid as NSString).appendingPathComponent(category)
            for name in ((try? fm.contentsOfDirectory(atPath: cdir)) ?? []).sorted() {
                let dir = (cdir as NSString).appendingPathComponent(name)
                if dataFile(in: dir) != nil { out.append(("grid/\(category)/\(name)", dir)) }
            }
        }
        return out
    }

    /// `data.osm`, `data.osm.gz` or `data.osc` in a case folder.
    static func dataFile(in directory: String) -> String? {
        for name in ["data.osm", "data.osm.gz", "data.osc"] {
            let path = (directory as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Reads one case with a fresh reader and the given profile.
    public static func run(name: String, directory: String, profile: any POIProfile) -> Outcome {
        let fm = FileManager.default
        func text(_ file: String) -> String? {
            (try? String(contentsOfFile: (directory as NSString).appendingPathComponent(file), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var description = text("description.txt") ?? ""
        if description.isEmpty, let json = fm.contents(atPath: (directory as NSString).appendingPathComponent("test.json")),
            let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
        {
            description = object["description"] as? String ?? ""
        }
        let expected = text("result").flatMap { Verdict(rawValue: $0) }
        let bag = DiagnosticBag()
        let reader = OSMReader(profile: profile, bag: bag)
        if let file = dataFile(in: directory) {
            do {
                try reader.read(file: file, displayPath: "\(name)/\((file as NSString).lastPathComponent)")
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: file))
            }
        }
        _ = reader.finish()
        let diagnostics = bag.diagnostics.filter { $0.severity == .error || $0.severity == .warning }
        return Outcome(name: name, description: description, expected: expected, diagnostics: diagnostics)
    }
}
