import CityPackDiagnostics
import CityPackIngest
import Foundation

/// Runs the cases of osmcode/osm-testdata (`xml/data/NNN-name/` and `grid/data/C/NNN/`) through ``OSMReader``
/// and compares CityPack's verdict with the case's `result` file. Used by `citypack bench --osm-testdata` and
/// by the conformance test.
///
/// Verdicts: a case is *invalid* for CityPack when reading it reports an error (the build would stop), and
/// *invalid under --werror* when it reports an error or a warning (a strict CI run would stop).
package enum OSMTestdata {
    package enum Verdict: String, Sendable, Codable { case valid, invalid }

    /// One case and what CityPack made of it.
    package struct Outcome: Sendable {
        /// `xml/100-correct_but_no_data`, `grid/7/710`.
        package var name: String
        /// One-line description from the case (`description.txt` or `test.json`).
        package var description: String
        /// From the case's `result` file; nil when it has none (xml/103).
        package var expected: Verdict?
        /// Error and warning diagnostics, in order.
        package var diagnostics: [Diagnostic]

        package var verdict: Verdict { diagnostics.contains { $0.severity == .error } ? .invalid : .valid }
        package var strictVerdict: Verdict {
            diagnostics.contains { $0.severity == .error || $0.severity == .warning } ? .invalid : .valid
        }
        /// The case's multipolygon relations (grid/7 and grid/9) against the areas its `test.json` expects.
        package var areaChecks: [AreaCheck] = []
        /// Distinct codes, in first-seen order.
        package var codes: [String] {
            var seen = Set<String>()
            return diagnostics.map(\.code).filter { seen.insert($0).inserted }
        }
    }

    /// One multipolygon relation of a grid case: the expected area (its WKT, or `INVALID`) against CityPack's.
    ///
    /// A valid area agrees when CityPack closed rings with no problem and put the point inside the expected
    /// multipolygon. An `INVALID` one agrees when CityPack reported a problem or closed no ring (a POI relation
    /// would then get an `osm.multipolygon_invalid` warning and a fallback position).
    package struct AreaCheck: Sendable {
        package var relation: Int64
        package var expectedValid: Bool
        /// False for a relation that is not `type=multipolygon` (grid/9/950 is a boundary, never a POI).
        package var judged = true
        package var agrees: Bool
        /// CityPack's problems, or where its point fell.
        package var detail: String
    }

    /// The cases under `root` (the osm-testdata folder), xml first, each in name order.
    package static func cases(in root: String) -> [(name: String, directory: String)] {
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
    package static func run(name: String, directory: String, profile: any POIProfile) -> Outcome {
        let fm = FileManager.default
        func text(_ file: String) -> String? {
            (try? String(contentsOfFile: (directory as NSString).appendingPathComponent(file), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var description = text("description.txt") ?? ""
        var expectedAreas: [(id: Int64, wkt: String)] = []
        if let json = fm.contents(atPath: (directory as NSString).appendingPathComponent("test.json")),
            let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
        {
            if description.isEmpty { description = object["description"] as? String ?? "" }
            let areas = (object["areas"] as? [String: Any])?["default"] as? [[String: Any]] ?? []
            for area in areas where area["from_type"] as? String == "relation" {
                if let id = (area["from_id"] as? NSNumber)?.int64Value, let wkt = area["wkt"] as? String {
                    expectedAreas.append((id, wkt))
                }
            }
        }
        let expected = text("result").flatMap { Verdict(rawValue: $0) }
        let bag = DiagnosticBag()
        var options = OSMReadOptions()
        options.assembleEveryMultipolygon = true
        let reader = OSMReader(profile: profile, bag: bag, options: options)
        if let file = dataFile(in: directory) {
            do {
                try reader.read(file: file, displayPath: "\(name)/\((file as NSString).lastPathComponent)")
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: file))
            }
        }
        let result = reader.finish()
        let diagnostics = bag.diagnostics.filter { $0.severity == .error || $0.severity == .warning }
        var outcome = Outcome(name: name, description: description, expected: expected, diagnostics: diagnostics)
        for area in expectedAreas {
            guard let mine = result.multipolygons.first(where: { $0.id == area.id }) else {
                outcome.areaChecks.append(
                    AreaCheck(
                        relation: area.id, expectedValid: area.wkt != "INVALID", judged: false, agrees: false,
                        detail: "not a type=multipolygon relation, so never a POI"))
                continue
            }
            let problems = mine.problems
            let closed = mine.pointFromRings
            if area.wkt == "INVALID" {
                let flagged = !problems.isEmpty || !closed
                outcome.areaChecks.append(
                    AreaCheck(
                        relation: area.id, expectedValid: false, agrees: flagged,
                        detail: flagged ? problems.joined(separator: "; ") : "assembled without a problem"))
            } else {
                let rings = WKT.multipolygonRings(area.wkt)
                let inside = mine.point.map { p in
                    Multipolygon.areaContains(rings.map { $0.map { (lat: $0.lat, lon: $0.lon) } }, lat: p.lat, lon: p.lon)
                } ?? false
                let ok = closed && problems.isEmpty && inside
                let at = mine.point.map { "point \($0.lat), \($0.lon) \(inside ? "inside" : "OUTSIDE") the expected area" }
                outcome.areaChecks.append(
                    AreaCheck(
                        relation: area.id, expectedValid: true, agrees: ok,
                        detail: ([at ?? "no point"] + problems).joined(separator: "; ")))
            }
        }
        return outcome
    }
}

/// The few WKT shapes osm-testdata uses for expected areas.
enum WKT {
    /// Every ring of a `MULTIPOLYGON(((x y, …)), …)` (or `POLYGON`), as (lat, lon) from WKT's (x = lon, y = lat).
    static func multipolygonRings(_ text: String) -> [[(lat: Double, lon: Double)]] {
        var rings: [[(lat: Double, lon: Double)]] = []
        var depth = 0
        var ring: [(lat: Double, lon: Double)] = []
        var number = ""
        var pair: [Double] = []
        func flushNumber() {
            if let v = Double(number) { pair.append(v) }
            number = ""
        }
        func flushPair() {
            flushNumber()
            if pair.count == 2 { ring.append((lat: pair[1], lon: pair[0])) }
            pair = []
        }
        for ch in text {
            switch ch {
            case "(":
                depth += 1
            case ")":
                flushPair()
                if !ring.isEmpty { rings.append(ring) }
                ring = []
                depth -= 1
            case ",":
                flushPair()
            case " ":
                flushNumber()
            default:
                if depth > 0, ch.isNumber || ch == "." || ch == "-" || ch == "e" || ch == "E" || ch == "+" { number.append(ch) }
            }
        }
        return rings
    }
}
