import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import Testing

/// One inline fixture: marked XML and the diagnostics expected at each marker (`marker code`).
struct DiagnosticCase: CustomTestStringConvertible, Sendable {
    var name: String
    var xml: String
    var expected: [(marker: String, code: String)]
    var testDescription: String { name }
}

let header = "<?xml version='1.0' encoding='UTF-8'?>\n"

let diagnosticCases: [DiagnosticCase] = [
    .init(name: "malformed: mismatched end tag", xml: header + """
        <osm version="0.6">
          <node id="1" lat="1" lon="2">
          </way>1️⃣
        </osm>
        """, expected: [("1️⃣", "osm.xml_malformed")]),
    .init(name: "malformed: truncated document", xml: header + """
        <osm version="0.6">
          <node id="1" lat="1" lon="2"/>1️⃣
        """, expected: [("1️⃣", "osm.xml_malformed")]),
    .init(name: "well-formed", xml: header + """
        <osm version="0.6">
          <node id="1" lat="1" lon="2"/>
        </osm>
        """, expected: []),
    .init(name: "entity declaration", xml: header + """
        1️⃣<!DOCTYPE osm [
          <!ENTITY lol "lol">
        ]>
        <osm version="0.6"><node id="1" lat="1" lon="2"/></osm>
        """, expected: [("1️⃣", "osm.entity_declaration")]),
    .init(name: "predefined entities are fine", xml: header + """
        <osm version="0.6"><node id="1" lat="1" lon="2"><tag k="name" v="A &amp; B &lt;&gt;"/></node></osm>
        """, expected: []),
    .init(name: "not osm", xml: header + """
        1️⃣<gpx version="1.1">
          <wpt lat="1" lon="2"/>
        </gpx>
        """, expected: [("1️⃣", "osm.not_osm")]),
    .init(name: "osmChange root", xml: header + """
        <osmChange version="0.6">
          <create><node id="1" lat="1" lon="2"/></create>
          <delete><node id="2"/></delete>
        </osmChange>
        """, expected: []),
    .init(name: "invalid coordinates", xml: header + """
        <osm version="0.6">
          1️⃣<node id="1" lat="abc" lon="2"/>
          2️⃣<node id="2" lat="91" lon="2"/>
          3️⃣<node id="3" lat="1" lon="-180.0000001"/>
          4️⃣<node id="4" lat="NaN" lon="2"/>
          5️⃣<node id="5" lat="1"/>
          6️⃣<node id="6" lat="inf" lon="1e5"/>
          <node id="7" lat="-90" lon="180.0000000"/>
        </osm>
        """, expected: [
            ("1️⃣", "osm.invalid_coordinates"), ("2️⃣", "osm.invalid_coordinates"),
            ("3️⃣", "osm.invalid_coordinates"), ("4️⃣", "osm.invalid_coordinates"),
            ("5️⃣", "osm.invalid_coordinates"), ("6️⃣", "osm.invalid_coordinates"),
            ("6️⃣", "osm.invalid_coordinates"),
        ]),
    .init(name: "excess precision", xml: header + """
        <osm version="0.6">
          1️⃣<node id="1" lat="43.123456789" lon="7.1"/>
          <node id="2" lat="43.1234567000" lon="7.1234567"/>
        </osm>
        """, expected: [("1️⃣", "osm.excess_precision")]),
    .init(name: "invalid ids", xml: header + """
        <osm version="0.6">
          1️⃣<node lat="1" lon="2"/>
          2️⃣<way id="x1"><nd ref="1"/><nd ref="1"/></way>
          <way id="-5">
            <nd ref="-1"/>
            3️⃣<nd ref="one"/>
            <nd ref="-2"/>
          </way>
          <node id="-1" lat="1" lon="2"/>
          <node id="-2" lat="1" lon="2"/>
        </osm>
        """, expected: [("1️⃣", "osm.invalid_id"), ("2️⃣", "osm.invalid_id"), ("3️⃣", "osm.invalid_id")]),
    .init(name: "duplicate ids", xml: header + """
        <osm version="0.6">
          <node id="1" lat="1" lon="2"/>
          <node id="2" lat="1" lon="2"/>
          1️⃣<node id="1" lat="1" lon="2"/>
          <way id="1"><nd ref="1"/><nd ref="2"/></way>
          <relation id="1"/>
          <relation id="2"/>
          2️⃣<relation id="1"/>
        </osm>
        """, expected: [("1️⃣", "osm.duplicate_element_id"), ("2️⃣", "osm.duplicate_element_id")]),
    .init(name: "missing referenced node and one-node way", xml: header + """
        <osm version="0.6">
          <node id="1" lat="1" lon="2"/>
          1️⃣<way id="10"><nd ref="1"/><nd ref="99"/><nd ref="98"/></way>
          2️⃣<way id="11"><nd ref="1"/></way>
          <way id="12"><nd ref="1"/><nd ref="2"/></way>
          3️⃣<way id="13"><nd ref="1"/><nd ref="97"/><tag k="amenity" v="toilets"/></way>
          <way id="14"><nd ref="1"/><nd ref="2"/><tag k="amenity" v="toilets"/></way>
          <node id="2" lat="1" lon="2.1"/>
        </osm>
        """, expected: [("1️⃣", "osm.incomplete_way"), ("2️⃣", "osm.way_one_node"), ("3️⃣", "osm.missing_referenced_node")]),
    .init(name: "unsupported version", xml: header + """
        1️⃣<osm version="0.5"><node id="1" lat="1" lon="2"/></osm>
        """, expected: [("1️⃣", "osm.unsupported_version")]),
    .init(name: "unexpected elements", xml: header + """
        <osm version="0.6">
          <note>Overpass note</note>
          <meta osm_base="2024-01-01T00:00:00Z"/>
          1️⃣<someelement foo="bar"/>
          <node id="1" lat="1" lon="2">
            2️⃣<nd ref="3"/>
          </node>
        </osm>
        """, expected: [("1️⃣", "osm.unexpected_element"), ("2️⃣", "osm.unexpected_element")]),
    .init(name: "relation members", xml: header + """
        <osm version="0.6">
          <relation id="1">
            <member type="node" ref="1" role=""/>
            1️⃣<member type="foo" ref="1" role=""/>
            2️⃣<member ref="1" role=""/>
            3️⃣<member type="way" role=""/>
          </relation>
        </osm>
        """, expected: [
            ("1️⃣", "osm.invalid_relation_member"), ("2️⃣", "osm.invalid_relation_member"),
            ("3️⃣", "osm.invalid_relation_member"),
        ]),
]

@Test(arguments: diagnosticCases)
func diagnosticAtMarker(_ c: DiagnosticCase) throws {
    let marked = MarkedXML(c.xml)
    let (_, bag) = try OSMTest.read(marked.text)
    let expected = c.expected.map { m, code in "\(marked[m].line):\(marked[m].column) \(code)" }.sorted()
    #expect(OSMTest.summary(bag).sorted() == expected, "\(bag.diagnostics)")
}

@Test func duplicateNotePointsAtFirstOccurrence() throws {
    let marked = MarkedXML(header + """
        <osm version="0.6">
          1️⃣<node id="1" lat="1" lon="2"/>
          2️⃣<node id="1" lat="1" lon="2"/>
        </osm>
        """)
    let (_, bag) = try OSMTest.read(marked.text)
    let d = try #require(bag.diagnostics.first)
    #expect(d.location?.line == marked["2️⃣"].line)
    #expect(d.notes.first?.location?.line == marked["1️⃣"].line)
    #expect(d.notes.first?.location?.column == marked["1️⃣"].column)
}

@Test func missingNodeMessageNamesFirstAndCount() throws {
    let (_, bag) = try OSMTest.read(header + """
        <osm version="0.6"><node id="1" lat="1" lon="2"/><way id="10"><nd ref="1"/><nd ref="99"/><nd ref="98"/></way></osm>
        """)
    #expect(bag.diagnostics.map(\.message) == [
        "way 10 references node 99 and 1 more not in the input (a clipped extract?); the way is not a POI, so the pack is not affected"
    ])
    let (result, poiBag) = try OSMTest.read(header + """
        <osm version="0.6"><node id="1" lat="1" lon="2"/><way id="10"><nd ref="1"/><nd ref="99"/><tag k="amenity" v="atm"/></way></osm>
        """)
    #expect(poiBag.diagnostics.map(\.code) == ["osm.missing_referenced_node"])
    #expect(poiBag.errorCount == 0, "an extract cut at its edge builds by default")
    #expect(poiBag.warningCount == 1)
    #expect(poiBag.diagnostics.first?.message ==
        "way 10 references node 99 not in the input (a clipped extract?); the POI is placed on the 1 of its 2 nodes that are present, at 1.0, 2.0")
    #expect(result.pois.map(\.ref) == [OSMRef(.way, 10)], "placed on the node that is present")
    #expect(result.pois.first?.coordinate == Coordinate(lat: 1, lon: 2))

    let (none, noneBag) = try OSMTest.read(header + """
        <osm version="0.6"><node id="1" lat="1" lon="2"/><way id="10"><nd ref="98"/><nd ref="99"/><tag k="amenity" v="atm"/></way></osm>
        """)
    #expect(none.pois.isEmpty, "a POI way with no node present is left out")
    #expect(noneBag.warningCount == 1)
    #expect(noneBag.diagnostics.first?.message ==
        "way 10 references node 98 and 1 more not in the input (a clipped extract?); none of its 2 nodes are present, so the POI is left out of the pack")
}

@Test func clippedAreaIsPlacedInsideWhatRemains() throws {
    // A square building cut by the extract's edge: nodes 3 and 4 of the closed ring 1-2-3-4-5-1 are missing.
    let (result, bag) = try OSMTest.read(header + """
        <osm version="0.6">
          <node id="1" lat="0" lon="0"/><node id="2" lat="0" lon="0.001"/><node id="5" lat="0.001" lon="0"/>
          <node id="6" lat="0.0005" lon="0.0002"/>
          <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="6"/><nd ref="5"/><nd ref="1"/>
            <tag k="amenity" v="toilets"/><tag k="name" v="Cut"/></way>
        </osm>
        """)
    #expect(bag.diagnostics.map(\.code) == ["osm.missing_referenced_node"])
    let poi = try #require(result.pois.first)
    #expect(poi.coordinate.lat > 0 && poi.coordinate.lat < 0.001)
    #expect(poi.coordinate.lon > 0 && poi.coordinate.lon < 0.001)
}

@Test func missingNodeCanBeMadeStrictAgain() throws {
    let bag = DiagnosticBag(overrides: ["osm.missing_referenced_node": .error])
    _ = try OSMTest.read(header + """
        <osm version="0.6"><node id="1" lat="1" lon="2"/><way id="10"><nd ref="1"/><nd ref="99"/><tag k="amenity" v="atm"/></way></osm>
        """, bag: bag)
    #expect(bag.errorCount == 1)
}

@Test func limitsAreDiagnostics() throws {
    let marked = MarkedXML(header + """
        <osm version="0.6">
          1️⃣<node id="1" lat="1" lon="2"><tag k="a" v="1"/><tag k="b" v="2"/><tag k="c" v="3"/></node>
          <node id="2" lat="1" lon="2">2️⃣<tag k="name" v="\(String(repeating: "x", count: 100))"/></node>
        </osm>
        """)
    let xml = marked.text
    let (_, bag) = try OSMTest.read(xml, options: OSMReadOptions(maxTagsPerElement: 2, maxValueBytes: 50))
    let expected = ["1️⃣", "2️⃣"].map { "\(marked[$0].line):\(marked[$0].column) osm.limit_exceeded" }
    #expect(OSMTest.summary(bag) == expected)

    let (_, small) = try OSMTest.read(xml, options: OSMReadOptions(maxInputBytes: 100))
    #expect(small.diagnostics.map(\.code) == ["osm.limit_exceeded"])
}

@Test func missingFileThrows() {
    let reader = OSMReader(profile: OSMTest.profile, bag: DiagnosticBag())
    #expect(throws: OSMReadError.self) { try reader.read(file: "/nonexistent/x.osm", displayPath: "x.osm") }
}
