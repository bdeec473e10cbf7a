import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// POIs from `type=multipolygon` relations: rings joined from open ways, holes, the point inside, and the
/// `osm.multipolygon_invalid` fallbacks (rings that close, a member node, or nothing).
@Suite struct MultipolygonTests {
    /// A 10 × 10 grid of nodes 1…(ids from `row * 10 + column + 1`) spaced 0.001° near Monaco.
    static func grid() -> String {
        var out = ""
        for row in 0..<10 {
            for col in 0..<10 {
                out += "  <node id=\"\(row * 10 + col + 1)\" lat=\"\(String(format: "%.3f", 43.7 + Double(row) * 0.001))\" "
                    + "lon=\"\(String(format: "%.3f", 7.4 + Double(col) * 0.001))\"/>\n"
            }
        }
        return out
    }

    /// Node id at (row, column) of ``grid()``.
    static func n(_ row: Int, _ col: Int) -> Int { row * 10 + col + 1 }

    static func way(_ id: Int, _ nodes: [Int]) -> String {
        "  <way id=\"\(id)\">" + nodes.map { "<nd ref=\"\($0)\"/>" }.joined() + "</way>\n"
    }

    static func relation(_ id: Int, type: String = "multipolygon", members: [(String, Int, String)], tags: String = "") -> String {
        "  <relation id=\"\(id)\">" + members.map { "<member type=\"\($0.0)\" ref=\"\($0.1)\" role=\"\($0.2)\"/>" }.joined()
            + "<tag k=\"type\" v=\"\(type)\"/><tag k=\"amenity\" v=\"hospital\"/><tag k=\"name\" v=\"Hôpital &amp; Clinique\"/>"
            + tags + "</relation>\n"
    }

    static func read(_ body: String) throws -> (OSMIngestResult, DiagnosticBag) {
        try OSMTest.read("<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n" + grid() + body + "</osm>\n")
    }

    /// The outer square (0,0)–(8,8) is two open ways joined end to end; a hole (2,2)–(6,6) sits in its middle, so
    /// the pole of inaccessibility must lie in the band around the hole, not at the centre.
    @Test func ringsJoinedFromOpenWaysWithAHole() throws {
        let (result, bag) = try Self.read(
            Self.way(100, [Self.n(0, 0), Self.n(0, 8), Self.n(8, 8)])
                + Self.way(101, [Self.n(0, 0), Self.n(8, 0), Self.n(8, 8)])
                + Self.way(102, [Self.n(2, 2), Self.n(2, 6), Self.n(6, 6), Self.n(6, 2), Self.n(2, 2)])
                + Self.relation(200, members: [("way", 100, "outer"), ("way", 101, "outer"), ("way", 102, "inner")]))
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics.map(\.message))")
        let poi = try #require(result.pois.first { $0.ref == OSMRef(.relation, 200) })
        #expect(result.multipolygonPOIs == 1)
        #expect(poi.category == "hospital")
        #expect(poi.name == "Hôpital & Clinique")
        let (lat, lon) = (poi.coordinate.lat, poi.coordinate.lon)
        #expect(lat > 43.700 && lat < 43.708 && lon > 7.400 && lon < 7.408, "inside the outer ring: \(lat), \(lon)")
        let inHole = lat > 43.702 && lat < 43.706 && lon > 7.402 && lon < 7.406
        #expect(!inHole, "not in the hole: \(lat), \(lon)")
    }

    /// Concave outer ring (an L): the point is inside, where the box centre would not be.
    @Test func concaveRingGetsAPointInside() throws {
        let l = [Self.n(0, 0), Self.n(0, 9), Self.n(2, 9), Self.n(2, 2), Self.n(9, 2), Self.n(9, 0), Self.n(0, 0)]
        let (result, bag) = try Self.read(Self.way(100, l) + Self.relation(200, members: [("way", 100, "outer")]))
        #expect(bag.diagnostics.isEmpty)
        let poi = try #require(result.pois.first { $0.ref == OSMRef(.relation, 200) })
        let ring = l.map { id -> (lat: Double, lon: Double) in
            (43.7 + Double((id - 1) / 10) * 0.001, 7.4 + Double((id - 1) % 10) * 0.001)
        }
        #expect(Multipolygon.areaContains([ring], lat: poi.coordinate.lat, lon: poi.coordinate.lon))
    }

    /// `type=boundary` (and any other type) is never a POI, whatever its tags.
    @Test func boundaryIsNotAPOI() throws {
        let (result, bag) = try Self.read(
            Self.way(100, [Self.n(0, 0), Self.n(0, 8), Self.n(8, 8), Self.n(0, 0)])
                + Self.relation(200, type: "boundary", members: [("way", 100, "outer")]))
        #expect(result.pois.allSatisfy { $0.ref.kind != .relation })
        #expect(bag.diagnostics.isEmpty)
    }

    /// A ring that does not close: warning, and the POI falls back to its member node.
    @Test func brokenRingFallsBackToAMemberNode() throws {
        let (result, bag) = try Self.read(
            Self.way(100, [Self.n(0, 0), Self.n(0, 8), Self.n(8, 8)])
                + Self.relation(200, members: [("way", 100, "outer"), ("node", Self.n(5, 5), "label")]))
        let d = try #require(bag.diagnostics.first)
        #expect(bag.diagnostics.count == 1)
        #expect(d.code == Rules.osmMultipolygonInvalid.code && d.severity == .warning)
        #expect(d.entity == "r200")
        #expect(d.location?.line == 104, "the relation's line")
        #expect(d.message == "multipolygon relation 200: a ring does not close: it runs from node 1 to node 89; no ring closes, so the POI is placed on its member node 56")
        let poi = try #require(result.pois.first { $0.ref == OSMRef(.relation, 200) })
        #expect(poi.coordinate == Coordinate(lat: 43.705, lon: 7.405))
    }

    /// A member way missing from the extract and no node: warning, and the POI is left out.
    @Test func missingMembersWithoutANodeDropThePOI() throws {
        let (result, bag) = try Self.read(Self.relation(200, members: [("way", 999, "outer")]))
        #expect(result.pois.allSatisfy { $0.ref.kind != .relation })
        #expect(bag.diagnostics.map(\.message) == [
            "multipolygon relation 200: member way 999 is not in the input (a clipped extract?); no ring closes and no member node is present, so the POI is left out of the pack"
        ])
    }

    /// Rings that cross still give a point (inside by the even–odd rule), with a warning.
    @Test func crossingRingsWarnButPlace() throws {
        let bowtie = [Self.n(0, 0), Self.n(0, 8), Self.n(8, 0), Self.n(8, 4), Self.n(0, 0)]
        let (result, bag) = try Self.read(Self.way(100, bowtie) + Self.relation(200, members: [("way", 100, "outer")]))
        #expect(bag.diagnostics.map(\.code) == [Rules.osmMultipolygonInvalid.code])
        #expect(bag.diagnostics.first?.message.contains("a ring crosses itself") == true)
        #expect(result.pois.contains { $0.ref == OSMRef(.relation, 200) })
    }

    /// A relation that the profile does not make a POI is not assembled and never warns.
    @Test func nonPOIMultipolygonIsSilent() throws {
        let xml = Self.way(100, [Self.n(0, 0), Self.n(0, 8), Self.n(8, 8)])
            + "  <relation id=\"200\"><member type=\"way\" ref=\"100\" role=\"outer\"/><tag k=\"type\" v=\"multipolygon\"/>"
            + "<tag k=\"landuse\" v=\"forest\"/></relation>\n"
        let (result, bag) = try Self.read(xml)
        #expect(bag.diagnostics.isEmpty)
        #expect(result.pois.isEmpty)
    }

    /// `&amp;` and `&#38;` in XML attribute values read as `&` (libxml2 hands both to the reader as `&#38;`).
    @Test func ampersandsInValues() throws {
        let (result, _) = try OSMTest.read("""
            <?xml version="1.0"?>
            <osm version="0.6">
              <node id="1" lat="43.7" lon="7.4"><tag k="amenity" v="cafe"/><tag k="name" v="P&amp;P &#38; Co &amp;#38;"/></node>
            </osm>
            """)
        #expect(result.pois.first?.name == "P&P & Co &#38;")
    }
}
