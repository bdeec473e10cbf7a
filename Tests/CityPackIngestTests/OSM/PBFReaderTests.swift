import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// `OSMReader` reads `.osm.pbf` (detected by content) into the same POIs as the XML of the same extract.
@Suite struct PBFReaderTests {
    /// POIs without their source locations, which differ by format (lines and columns in XML, blob and element
    /// index in PBF). Values are compared exactly: `&amp;` in XML reads as `&`, as PBF stores it.
    private static func comparable(_ pois: [POI]) -> [POI] {
        pois.map { p in
            var p = p
            p.location = SourceLocation(file: "")
            return p
        }
    }

    private static func compare(pbf: String, xml: String, multipolygonPOIs: Int) throws {
        guard let pbfPath = OSMTest.shared(pbf), let xmlPath = OSMTest.shared(xml) else {
            Issue.record("shared data \(pbf) / \(xml) missing")
            return
        }
        let (fromPBF, pbfBag) = try OSMTest.read(files: [pbfPath])
        let (fromXML, xmlBag) = try OSMTest.read(files: [xmlPath])
        #expect(!pbfBag.diagnostics.contains { $0.code == Rules.osmPBFMalformed.code })
        #expect(pbfBag.diagnostics.filter { $0.severity == .error }.count
            == xmlBag.diagnostics.filter { $0.severity == .error }.count)
        #expect(fromPBF.nodes == fromXML.nodes)
        #expect(fromPBF.ways == fromXML.ways)
        #expect(fromPBF.relations == fromXML.relations)
        #expect(!fromPBF.pois.isEmpty)
        #expect(fromPBF.pois.count == fromXML.pois.count)
        #expect(fromPBF.multipolygonPOIs == multipolygonPOIs)
        // The newest element timestamp (the pack's createdAt without SOURCE_DATE_EPOCH) is the same in both.
        #expect(fromPBF.newestTimestamp != nil)
        #expect(fromPBF.newestTimestamp == fromXML.newestTimestamp)
        #expect(fromXML.multipolygonPOIs == multipolygonPOIs)
        #expect(fromPBF.pois.filter { $0.ref.kind == .relation }.count == multipolygonPOIs)
        let a = comparable(fromPBF.pois), b = comparable(fromXML.pois)
        #expect(a.map(\.ref) == b.map(\.ref))
        for (p, x) in zip(a, b) where p != x {
            Issue.record("POI \(p.ref) differs: PBF \(p) vs XML \(x)")
            break
        }
        #expect(a == b)
    }

    @Test(.needsSharedData) func monacoPBFMatchesXML() throws {
        try Self.compare(pbf: "osm/monaco-2021.osm.pbf", xml: "osm/monaco-2021.osm", multipolygonPOIs: 3)
    }

    @Test(.needsSharedData) func liechtensteinPBFMatchesGzippedXML() throws {
        try Self.compare(pbf: "osm/liechtenstein-2024.osm.pbf", xml: "osm/liechtenstein-2024.osm.gz", multipolygonPOIs: 3)
    }

    /// Blocks decoded on one worker or on several give the same POIs and diagnostics, in the same order.
    @Test(.needsSharedData) func workerCountDoesNotChangeTheResult() throws {
        let path = try #require(OSMTest.shared("osm/liechtenstein-2024.osm.pbf"))
        var one = OSMReadOptions()
        one.pbfWorkers = 1
        var many = OSMReadOptions()
        many.pbfWorkers = 4
        let (a, aBag) = try OSMTest.read(files: [path], options: one)
        let (b, bBag) = try OSMTest.read(files: [path], options: many)
        #expect(a.pois == b.pois)
        #expect(aBag.diagnostics.map(\.message) == bBag.diagnostics.map(\.message))
        #expect(a.nodes == b.nodes && a.ways == b.ways && a.relations == b.relations)
    }

    @Test(.needsSharedData) func truncatedPBFIsDiagnostic() throws {
        guard let path = OSMTest.shared("osm/monaco-2021.osm.pbf") else {
            Issue.record("shared data missing")
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let dir = try TestPaths.temporaryDirectory("pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cut.osm.pbf")
        try data.prefix(data.count / 2).write(to: url)
        let (_, bag) = try OSMTest.read(files: [url.path])
        let errors = bag.diagnostics.filter { $0.code == "osm.pbf_malformed" }
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("file offset") == true)
        #expect(errors.first?.location?.file == "cut.osm.pbf")
    }
}
