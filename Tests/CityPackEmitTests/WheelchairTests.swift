import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackKit
import CityPackModel
import CityPackStorage
import CityPackTestSupport
import Foundation
import Testing

/// `poi.wheelchair` from OSM's `wheelchair` tag to both readers: the pack (CityPackKit) and the web flavour's rows
/// (what clients/web/citypack.js reads; `agreement.test.mjs` compares its answers with `citypack query`).
@Suite struct WheelchairTests {
    /// yes and limited arrive as such; an absent tag and a value outside yes|limited|no stay null.
    static let cases: [(id: Int64, tag: String?, expected: PackSchema.Wheelchair?)] = [
        (1, "yes", .yes), (2, "limited", .limited), (3, "no", .no), (4, nil, nil), (5, "designated", nil), (6, "Yes", nil),
    ]

    @Test func theTagReachesThePackAndTheWebFlavour() throws {
        let pois = Self.cases.map { c in
            POI(
                ref: OSMRef(.node, c.id), coordinate: Coordinate(lat: 43.7384 + Double(c.id) * 0.0001, lon: 7.4246),
                category: "toilet", name: "WC \(c.id)", localizedNames: [:], tags: c.tag.map { ["wheelchair": $0] } ?? [:],
                location: SourceLocation(file: "w.osm", line: Int(c.id), column: 1))
        }
        let city = City(id: "wc", name: "Wheelchair", locales: ["en"], bbox: BoundingBox(minLon: 7, minLat: 43, maxLon: 8, maxLat: 44))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wheelchair-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let categories = [PackCategory(id: "toilet", priority: 1, labels: ["en": "Toilet"], synonyms: [:])]
        let result = try PackEmitter.emit(
            PackInput(city: city, pois: pois, categories: categories, createdAt: 0, generator: "test", sources: []),
            outputDirectory: dir)

        let reader = try PackReader.open(manifest: URL(fileURLWithPath: result.manifestPath))
        for c in Self.cases {
            let place = try #require(try reader.place(id: OSMRef(.node, c.id).stableID))
            #expect(place.wheelchair == c.expected, "wheelchair=\(c.tag ?? "(absent)")")
        }
        let near = try reader.nearby(lat: 43.7384, lon: 7.4246, radius: 200, limit: 10)
        #expect(near.first { $0.id == OSMRef(.node, 1).stableID }?.wheelchair == .yes)

        #expect(try Self.webWheelchair(folder: (result.manifestPath as NSString).deletingLastPathComponent) == Dictionary(
            uniqueKeysWithValues: Self.cases.map { (OSMRef(.node, $0.id).stableID, $0.expected?.rawValue) }))
    }

    /// `wheelchair` by row id from the web flavour's `places` head and row chunks.
    static func webWheelchair(folder: String) throws -> [Int64: String?] {
        let web = (folder as NSString).appendingPathComponent(WebFlavour.folder)
        func json(_ file: String) throws -> Any {
            let data = try Data(contentsOf: URL(fileURLWithPath: (web as NSString).appendingPathComponent(file)))
            return try JSONSerialization.jsonObject(with: Data(try Gunzip.inflate([UInt8](data), limit: 1 << 26)))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: web)
        let head = try #require(try files.first { $0.hasPrefix("places-") }.map(json) as? [String: Any])
        let columns = try #require(head["columns"] as? [String])
        let idColumn = try #require(columns.firstIndex(of: "id"))
        let column = try #require(columns.firstIndex(of: "wheelchair"))
        var out: [Int64: String?] = [:]
        for file in files where file.hasPrefix(WebFlavour.rowsPrefix + "-") {
            let chunk = try #require(try json(file) as? [Any])
            let ids = try #require(chunk[idColumn] as? [NSNumber])
            let values = chunk[column] as? [Any]
            for (i, id) in ids.enumerated() { out[id.int64Value] = values?[i] as? String }
        }
        return out
    }
}
