import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

@Suite struct OSMReaderTests {
    @Test func wayBeforeItsNodesAndUnsortedIDs() throws {
        let marked = MarkedXML(header + """
            <osm version="0.6">
              1️⃣<way id="5">
                <nd ref="30"/><nd ref="10"/><nd ref="20"/>
                <tag k="amenity" v="toilets"/>
              </way>
              <node id="30" lat="48.0" lon="2.0"/>
              <node id="10" lat="48.0" lon="2.2"/>
              2️⃣<node id="20" lat="48.1" lon="2.2">
                <tag k="amenity" v="atm"/>
              </node>
            </osm>
            """)
        let (result, bag) = try OSMTest.read(marked.text)
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics)")
        #expect(result.pois.map(\.ref.description) == ["n20", "w5"])
        #expect(result.pois.map(\.category) == ["atm", "toilet"])
        let way = result.pois[1]
        #expect(way.location.line == marked["1️⃣"].line && way.location.column == marked["1️⃣"].column)
        #expect(result.pois[0].location.line == marked["2️⃣"].line)
        // Open way: halfway along 30 → 10 → 20 lies on the first segment's end (lengths are equal-ish).
        #expect(abs(way.coordinate.lat - 48.0) < 0.01 && way.coordinate.lon > 2.0 && way.coordinate.lon <= 2.2)
        #expect(result.dataBounds == BoundingBox(minLon: 2.0, minLat: 48.0, maxLon: 2.2, maxLat: 48.1))
    }

    /// Incomplete non-POI ways (a clipped extract) make one warning per file at the first of them, with the
    /// next five as notes and a count of the rest; POI ways keep their own warning each.
    @Test func incompleteWaysMakeOneWarningPerFile() throws {
        var ways = ""
        for i in 0..<8 { ways += "<way id=\"\(100 + i)\"><nd ref=\"1\"/><nd ref=\"\(900 + i)\"/><nd ref=\"\(950 + i)\"/></way>\n" }
        let xml = header + """
            <osm version="0.6">
              <node id="1" lat="48.0" lon="2.0"/>
              <node id="2" lat="48.1" lon="2.1"/>
              \(ways)<way id="200"><nd ref="1"/><nd ref="999"/><tag k="amenity" v="toilets"/></way>
              <way id="201"><nd ref="1"/><nd ref="2"/></way>
            </osm>
            """
        let (_, bag) = try OSMTest.read(xml)
        let incomplete = bag.diagnostics.filter { $0.code == "osm.incomplete_way" }
        #expect(incomplete.count == 1)
        let warning = try #require(incomplete.first)
        #expect(warning.message.hasPrefix("8 ways that are not POIs reference nodes not in the input"), "\(warning.message)")
        #expect(warning.message.contains("the first: way 100 references node 900 and 1 more"))
        #expect(warning.notes.count == 6 && warning.notes.last?.message == "and 2 more ways like these")
        #expect(warning.notes.first?.message == "way 101 references node 901 and 1 more")
        #expect(warning.entity == "w100")
        #expect(bag.diagnostics.filter { $0.code == "osm.missing_referenced_node" }.count == 1)
        // One incomplete way keeps the single-way message.
        let (_, single) = try OSMTest.read(header + """
            <osm version="0.6"><node id="1" lat="48.0" lon="2.0"/><way id="7"><nd ref="1"/><nd ref="3"/></way></osm>
            """)
        #expect(single.diagnostics.map(\.message) == [
            "way 7 references node 3 not in the input (a clipped extract?); the way is not a POI, so the pack is not affected"
        ])
    }

    @Test func gzipFileMatchesPlainFile() throws {
        let xml = header + """
            <osm version="0.6"><node id="1" lat="1.5" lon="2.5" timestamp="2020-01-01T00:00:00Z"><tag k="amenity" v="cafe"/></node></osm>
            """
        let dir = try TestPaths.temporaryDirectory("osmgz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("a.osm")
        try Data(xml.utf8).write(to: plain)
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gz.arguments = ["-k", plain.path]
        try gz.run()
        gz.waitUntilExit()
        let (a, bagA) = try OSMTest.read(files: [plain.path])
        let (b, bagB) = try OSMTest.read(files: [plain.path + ".gz"])
        #expect(bagA.diagnostics.isEmpty && bagB.diagnostics.isEmpty)
        #expect(a.pois.map(\.coordinate) == b.pois.map(\.coordinate))
        #expect(b.pois.first?.category == "cafe")
        #expect(b.bytesRead == Int64(xml.utf8.count))
        #expect(b.newestTimestamp == "2020-01-01T00:00:00Z")
    }

    @Test func concaveClosedWayGetsPointInside() throws {
        // A U shape: the centroid falls in the notch, so the point on the surface is used.
        let (result, bag) = try OSMTest.read(header + """
            <osm version="0.6">
              <node id="1" lat="0.0" lon="0.0"/>
              <node id="2" lat="0.0" lon="3.0"/>
              <node id="3" lat="3.0" lon="3.0"/>
              <node id="4" lat="3.0" lon="2.0"/>
              <node id="5" lat="1.0" lon="2.0"/>
              <node id="6" lat="1.0" lon="1.0"/>
              <node id="7" lat="3.0" lon="1.0"/>
              <node id="8" lat="3.0" lon="0.0"/>
              <way id="1">
                <nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="5"/>
                <nd ref="6"/><nd ref="7"/><nd ref="8"/><nd ref="1"/>
                <tag k="tourism" v="museum"/>
              </way>
            </osm>
            """)
        #expect(bag.diagnostics.isEmpty)
        let p = try #require(result.pois.first).coordinate
        let inLeftArm = p.lon > 0 && p.lon < 1 && p.lat > 0 && p.lat < 3
        let inRightArm = p.lon > 2 && p.lon < 3 && p.lat > 0 && p.lat < 3
        let inBase = p.lat > 0 && p.lat < 1 && p.lon > 0 && p.lon < 3
        #expect(inLeftArm || inRightArm || inBase, "\(p)")
    }

    @Test func namesLocalesAndExposedTags() throws {
        let (result, _) = try OSMTest.read(header + """
            <osm version="0.6"><node id="1" lat="1" lon="2">
              <tag k="amenity" v="toilets"/>
              <tag k="name" v="WC"/>
              <tag k="name:fr" v="Toilettes"/>
              <tag k="name:zh-Hant" v="廁所"/>
              <tag k="name:sr-Latn" v="Toalet"/>
              <tag k="name:prefix" v="Public"/>
              <tag k="name:etymology" v="x"/>
              <tag k="opening_hours" v="24/7"/>
              <tag k="wheelchair" v="yes"/>
              <tag k="addr:street" v="Rue A"/>
              <tag k="source" v="survey"/>
              <tag k="fixme" v="check"/>
            </node></osm>
            """)
        let poi = try #require(result.pois.first)
        #expect(poi.name == "WC")
        #expect(poi.localizedNames == ["fr": "Toilettes", "zh-Hant": "廁所", "sr-Latn": "Toalet"])
        #expect(poi.tags == ["opening_hours": "24/7", "wheelchair": "yes", "addr:street": "Rue A"])
    }

    @Test func countsTimestampsBoundsAndSeveralFiles() throws {
        let dir = try TestPaths.temporaryDirectory("osmmulti")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.osm")
        let b = dir.appendingPathComponent("b.osm")
        try Data((header + """
            <osm version="0.6">
              <bounds minlat="1" minlon="2" maxlat="3" maxlon="4"/>
              <node id="1" lat="1" lon="2" timestamp="2019-05-01T00:00:00Z"/>
              <way id="1" timestamp="2021-01-01T00:00:00Z"><nd ref="1"/><nd ref="2"/></way>
            </osm>
            """).utf8).write(to: a)
        try Data((header + """
            <osm version="0.6">
              <node id="2" lat="3" lon="4" timestamp="2020-01-01T00:00:00Z"/>
              <relation id="1" timestamp="2018-01-01T00:00:00Z"><member type="way" ref="1" role=""/></relation>
            </osm>
            """).utf8).write(to: b)
        let (r, bag) = try OSMTest.read(files: [a.path, b.path])
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics)")
        #expect((r.nodes, r.ways, r.relations) == (2, 1, 1))
        #expect(r.newestTimestamp == "2021-01-01T00:00:00Z")
        #expect(r.declaredBounds == BoundingBox(minLon: 2, minLat: 1, maxLon: 4, maxLat: 3))
        #expect(r.dataBounds == BoundingBox(minLon: 2, minLat: 1, maxLon: 4, maxLat: 3))
    }

    /// Timestamps are compared as times (the first 14 digits, read as UTC), not as text, so the XML and PBF
    /// adapters hand the sink the same integers; text without a valid time is ignored.
    @Test func newestTimestampIsComparedAsTime() throws {
        let (r, _) = try OSMTest.read(header + """
            <osm version="0.6">
              <node id="1" lat="1" lon="2" timestamp="2021-06-01 10:00:00"/>
              <node id="2" lat="1" lon="2" timestamp="2021-01-01T00:00:00Z"/>
              <node id="3" lat="1" lon="2" timestamp="yesterday"/>
              <node id="4" lat="1" lon="2" timestamp="2021-13-01T00:00:00Z"/>
              <node id="5" lat="1" lon="2" timestamp="2021-12-31T24:00:00Z"/>
              <node id="6" lat="1" lon="2" timestamp="2021-02-29T00:00:00Z"/>
              <node id="7" lat="1" lon="2" timestamp="2021-03-01T00:00:00Z"/>
            </osm>
            """)
        #expect(r.newestTimestamp == "2021-06-01T10:00:00Z")
        let (none, _) = try OSMTest.read(header + """
            <osm version="0.6"><node id="1" lat="1" lon="2" timestamp="x"/></osm>
            """)
        #expect(none.newestTimestamp == nil)
    }

    @Test func duplicateNodeKeepsFirstPOI() throws {
        let (r, bag) = try OSMTest.read(header + """
            <osm version="0.6">
              <node id="1" lat="1" lon="2"><tag k="amenity" v="atm"/></node>
              <node id="1" lat="5" lon="6"><tag k="amenity" v="bank"/></node>
            </osm>
            """)
        #expect(bag.errorCount == 1)
        #expect(r.pois.map(\.category) == ["atm"])
    }

    @Test func progressIsReported() throws {
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var values: [(Int64, Int64)] = []
        }
        let calls = Calls()
        let xml = header + "<osm version=\"0.6\">" + String(repeating: "<node id=\"1\" lat=\"1\" lon=\"1\"/>\n", count: 1)
            + "</osm>"
        _ = try OSMTest.read(xml, options: OSMReadOptions(progress: { done, total in
            calls.lock.withLock { calls.values.append((done, total)) }
        }))
        let last = try #require(calls.values.last)
        #expect(last.0 == last.1 && last.1 == Int64(xml.utf8.count))
    }
}
