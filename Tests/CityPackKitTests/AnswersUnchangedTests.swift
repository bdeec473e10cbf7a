import CityPackCompiler
import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// Smaller packs, same answers (issue 15): `Tests/Fixtures/answers/<city>.txt` holds what the format-1 packs
/// answered — 60 searches (ids in rank order, limit 40) and 60 nearby queries (300 m, limit 40: ids and distances to
/// the centimetre) — recorded with the build before the format changed. Every later format must give the same
/// lines (`RECORD_ANSWERS=1` rewrites them when what is read from OSM changes, as when multipolygon relations
/// became POIs; the diff must then only be that). Each line is its own query: `search TEXT: id id …` or `near LAT,LON RADIUS: id@metres …`.
///
/// The packs are built with the compiler library, as `citypack build` builds them: what is tested is the reader's
/// answers, not the command line.
@Suite struct AnswersUnchangedTests {
    static func answers(_ reader: PackReader, queries: URL) throws -> (got: [String], want: [String]) {
        let want = try String(contentsOf: queries, encoding: .utf8).split(separator: "\n").map(String.init)
        var got: [String] = []
        for line in want {
            let head = String(line[..<(line.range(of: ": ")?.lowerBound ?? line.endIndex)])
            if head.hasPrefix("search ") {
                let ids = try reader.search(String(head.dropFirst(7)), limit: 40).map { String($0.id) }
                got.append(head + ": " + ids.joined(separator: " "))
            } else {
                let parts = head.split(separator: " ")
                let position = parts[1].split(separator: ",").compactMap { Double($0) }
                let radius = try #require(Double(parts[2]))
                let hits = try reader.nearby(lat: position[0], lon: position[1], radius: radius, limit: 40)
                let text = hits.map { "\($0.id)@" + String(format: "%.2f", (($0.distanceMetres ?? 0) * 100).rounded() / 100) }
                got.append(head + ": " + text.joined(separator: " "))
            }
        }
        return (got, want)
    }

    static func check(manifest: URL, fixture: String) throws {
        let reader = try PackReader.open(manifest: manifest)
        defer { reader.close() }
        let path = TestPaths.root.appendingPathComponent("Tests/Fixtures/answers/\(fixture)")
        let (got, want) = try answers(reader, queries: path)
        if RecordMode.isOn(RecordMode.answers) {
            // Only when the data read changes (never for a format change): rewrite the fixture and review the diff.
            try Data((got.joined(separator: "\n") + "\n").utf8).write(to: path)
            RecordMode.recorded(fixture, by: RecordMode.answers)
            return
        }
        #expect(got.count == want.count)
        for (g, w) in zip(got, want) where g != w { Issue.record("got:  \(g)\nwant: \(w)") }
    }

    /// Builds the city at `city` into `output` as `citypack build --templates templates/` does.
    static func build(_ city: URL, output: URL) throws {
        let templates = TestPaths.root.appendingPathComponent("templates").path
        let bag = DiagnosticBag()
        let report = Compiler.build(
            BuildOptions(cityPath: city.path, outputDirectory: output.path, templatesDirectory: templates), bag: bag)
        try #require(!bag.hasErrors && report.failure == nil && report.emitted != nil,
            "\(bag.diagnostics.filter { $0.severity == .error }.map(\.message))")
    }

    @Test func monacoAnswersAsBefore() throws {
        let output = try TestPaths.temporaryDirectory("answers-monaco")
        defer { try? FileManager.default.removeItem(at: output) }
        try Self.build(TestPaths.root.appendingPathComponent("inputs/monaco"), output: output)
        try Self.check(manifest: output.appendingPathComponent("monaco/manifest.json"), fixture: "monaco.txt")
    }

    @Test(.needsSharedData) func liechtensteinAnswersAsBefore() throws {
        let data = try #require(TestPaths.sharedData)
        let root = try TestPaths.temporaryDirectory("answers-li")
        defer { try? FileManager.default.removeItem(at: root) }
        let city = root.appendingPathComponent("li")
        let osm = data.appendingPathComponent("osm/liechtenstein-2024.osm.gz").path
        // The city file `citypack init li --osm … --locales de,en` writes: the box the data spans, German first,
        // as the country speaks it (a pack carries the search words of English and its locales).
        let templates = TestPaths.root.appendingPathComponent("templates").path
        let extent = try #require(
            DataExtent.measure(osm: [osm], gtfs: [], templates: templates, directory: city.path, bag: DiagnosticBag()))
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        let yaml = CityFileWriter.yaml(
            id: "li", name: "Li", locales: ["de", "en"], bbox: extent.box,
            osm: [CityFileWriter.relativePath(of: osm, from: city.path)], gtfs: [],
            attribution: "© OpenStreetMap contributors, ODbL 1.0")
        try Data(yaml.utf8).write(to: city.appendingPathComponent("city.yaml"))
        try Self.build(city, output: root.appendingPathComponent("out"))
        try Self.check(manifest: root.appendingPathComponent("out/li/manifest.json"), fixture: "liechtenstein.txt")
    }
}
