import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// End-to-end checks on the shared real extracts and the osm-testdata XML suite; reported as skipped without
/// the shared data.
@Suite(.needsSharedData) struct OSMRealDataTests {
    /// Node ids having `amenity=<value>`, found by a plain line scan (independent of the reader).
    static func nodesWithAmenity(in data: Data) -> [String: Set<Int64>] {
        var result: [String: Set<Int64>] = [:]
        var current: Int64?
        for rawLine in data.split(separator: UInt8(ascii: "\n")) {
            let line = String(decoding: rawLine, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("<node ") {
                current = nil
                if !line.hasSuffix("/>"), let r = line.range(of: "id=\"") {
                    current = Int64(line[r.upperBound...].prefix { $0 != "\"" })
                }
            } else if line.hasPrefix("</node>") {
                current = nil
            } else if let id = current, line.hasPrefix("<tag k=\"amenity\" v=\"") {
                let value = line.dropFirst("<tag k=\"amenity\" v=\"".count).prefix { $0 != "\"" }
                result[String(value), default: []].insert(id)
            }
        }
        return result
    }

    static func contents(_ path: String) throws -> Data {
        guard path.hasSuffix(".gz") else { return try Data(contentsOf: URL(fileURLWithPath: path)) }
        let p = Process()
        let pipe = Pipe()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-dc", path]
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }

    @Test(arguments: [
        ("osm/monaco-2021.osm", 25_423, 4_106, 243),
        ("osm/liechtenstein-2024.osm.gz", 318_592, 34_073, 921),
        ("osm/peterhof-api-export-2011.osm", 2_812, 269, 7),
        ("osm/portland-central-2015.osm.gz", 42_293, 7_188, 443),
    ])
    func realExtract(_ file: String, _ nodes: Int, _ ways: Int, _ relations: Int) throws {
        let path = try #require(OSMTest.shared(file))
        let (result, bag) = try OSMTest.read(files: [path])
        #expect(bag.errorCount == 0, "\(bag.diagnostics.prefix(5))")
        #expect((result.nodes, result.ways, result.relations) == (nodes, ways, relations))
        let expected = Self.nodesWithAmenity(in: try Self.contents(path))
        let byRef = Dictionary(result.pois.map { ($0.ref, $0) }, uniquingKeysWith: { a, _ in a })
        for (amenity, category) in [("toilets", "toilet"), ("atm", "atm")] {
            for id in expected[amenity] ?? [] {
                #expect(byRef[OSMRef(.node, id)]?.category == category, "n\(id) amenity=\(amenity)")
            }
        }
        let toiletNodes = result.pois.filter { $0.ref.kind == .node && $0.category == "toilet" }.count
        #expect(toiletNodes == (expected["toilets"]?.count ?? 0))
        #expect(result.pois.allSatisfy { $0.coordinate.isValid && $0.location.line > 0 })
        if let box = result.dataBounds {
            #expect(result.pois.filter { $0.ref.kind == .node }.allSatisfy { box.contains($0.coordinate) })
        }
        #expect(result.newestTimestamp != nil)
    }

    /// Cases of osm-testdata/xml that the reader must classify exactly as upstream does.
    static let strictCases = [
        "100-correct_but_no_data", "104-empty_file", "105-incomplete_xml_file", "106-invalid_xml_file",
        "107-wrongly_nested_xml_file", "110-entity_declaration", "120-correct_gzip_file_without_data",
        "121-truncated_gzip_file", "122-no_osm_element", "140-unicode", "141-entities", "142-whitespace",
        "200-nodes", "300-change-file",
    ]

    @Test(arguments: strictCases)
    func osmTestdataXML(_ name: String) throws {
        let dir = try #require(OSMTest.shared("osm-testdata/xml/data/\(name)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("data.os") }
        let data = try #require(files.first.map { "\(dir)/\($0)" })
        let outcome = try String(contentsOfFile: "\(dir)/result", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (_, bag) = try OSMTest.read(files: [data])
        if outcome == "valid" {
            #expect(bag.errorCount == 0, "\(bag.diagnostics)")
        } else {
            #expect(bag.errorCount >= 1)
        }
    }

    /// The remaining invalid cases: what the reader reports (documented in the rules).
    @Test(arguments: [
        ("101-missing_version", "osm.unsupported_version"), ("102-wrong_version", "osm.unsupported_version"),
        ("103-old_version", "osm.unsupported_version"), ("108-unknown_top_level", "osm.not_osm"),
        ("109-unknown_data_level", "osm.unexpected_element"), ("123-unknown_element_in_node", "osm.unexpected_element"),
        ("124-unknown_element_in_way", "osm.unexpected_element"),
        ("125-unknown_element_in_relation", "osm.unexpected_element"),
        ("126-wrong_member_type", "osm.invalid_relation_member"),
        ("127-missing_member_type", "osm.invalid_relation_member"),
        ("128-missing_member_ref", "osm.invalid_relation_member"),
    ])
    func osmTestdataOtherInvalid(_ name: String, _ code: String) throws {
        let dir = try #require(OSMTest.shared("osm-testdata/xml/data/\(name)"))
        let (_, bag) = try OSMTest.read(files: ["\(dir)/data.osm"])
        #expect(bag.diagnostics.map(\.code).contains(code), "\(bag.diagnostics)")
    }
}
