import CityPackTestSupport
import Foundation
import Testing

/// A pack's time comes from the OSM file's own time when its elements carry none (issue 33, point 6): the root
/// `<osm timestamp=…>` and Overpass' `<meta osm_base=…>`, through the binary.
@Suite struct OSMFileTimeTests {
    static func createdAt(osm: String) throws -> (status: Int32, createdAt: String?, stderr: String) {
        let work = try TestPaths.temporaryDirectory("osm-time")
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("x.osm")
        try osm.write(to: file, atomically: true, encoding: .utf8)
        let city = work.appendingPathComponent("city")
        let i = try CLIRunner.runBinary(["init", city.path, "--osm", file.path, "--name", "X", "--locales", "en",
            "--bbox", "7.40,43.72,7.45,43.76"], cwd: work)
        #expect(i.status == 0, "\(i.stderr)")
        let b = try CLIRunner.runBinary(["build", city.path, "--output", work.appendingPathComponent("out").path], cwd: work)
        let manifest = try? Data(contentsOf: work.appendingPathComponent("out/city/manifest.json"))
        let json = manifest.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        return (b.status, json?["createdAt"] as? String, b.stderr)
    }

    static let nodes = """
          <node id="1" lat="43.73" lon="7.42"><tag k="amenity" v="toilets"/></node>
          <node id="2" lat="43.74" lon="7.43"><tag k="amenity" v="pharmacy"/><tag k="name" v="P"/></node>
        """

    @Test func rootTimestamp() throws {
        let r = try Self.createdAt(osm: """
            <?xml version="1.0"?>
            <osm version="0.6" generator="osmium/1.15.0" timestamp="2024-03-05T06:07:08Z">
            \(Self.nodes)
            </osm>
            """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.createdAt == "2024-03-05T06:07:08Z")
    }

    @Test func overpassOSMBase() throws {
        let r = try Self.createdAt(osm: """
            <?xml version="1.0"?>
            <osm version="0.6" generator="Overpass API 0.7.62">
              <note>The data included in this document is from www.openstreetmap.org.</note>
              <meta osm_base="2025-01-02T03:04:05Z"/>
            \(Self.nodes)
            </osm>
            """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.createdAt == "2025-01-02T03:04:05Z")
    }

    /// Element times newer than the file's still win (the newest time counts), and without any time the pack
    /// says 1970 (nothing is invented).
    @Test func newestOfFileAndElements() throws {
        let newer = try Self.createdAt(osm: """
            <?xml version="1.0"?>
            <osm version="0.6" timestamp="2020-01-01T00:00:00Z">
              <node id="1" lat="43.73" lon="7.42" timestamp="2021-06-01T00:00:00Z"><tag k="amenity" v="toilets"/></node>
            </osm>
            """)
        #expect(newer.createdAt == "2021-06-01T00:00:00Z")
        let none = try Self.createdAt(osm: "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n\(Self.nodes)\n</osm>\n")
        #expect(none.createdAt == "1970-01-01T00:00:00Z")
    }
}
