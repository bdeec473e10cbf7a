import CityPackDiagnostics
import CityPackEmit
import CityPackGeometry
import CityPackIngest
import CityPackSQLite
import CityPackStorage
import CityPackTestSupport
import CityPackTiles
import Foundation
import Testing

/// The tile chain on real data: the POIs the build keeps from Monaco, Liechtenstein and Milan (../shared/data),
/// cut into z10–z14 tiles by ``TilePyramid``, stored by ``MBTilesWriter``, then read back from the MBTiles file,
/// un-gzipped and decoded by the test's own ``MVTDecoder``. At every zoom each POI lies inside exactly one tile
/// (buffer copies aside), every coordinate within tile + buffer, every tag as written.
/// `CITYPACK_TILES_OUT=DIR` keeps the tilesets as `DIR/<city>.mbtiles` for `scripts/check-tiles.py`.
@Suite struct RealDataTilesTests {
    static let cities = ["monaco-2021.osm.pbf", "liechtenstein-2024.osm.pbf", "milan-2015.osm.pbf"]

    @Test(.needsSharedData, arguments: cities)
    func poisOfARealExtractDecodeFromTheTileset(_ file: String) throws {
        let data = try #require(TestPaths.sharedData)
        let bag = DiagnosticBag()
        let reader = OSMReader(profile: try TemplatePOIProfile.load(templates: .builtIn), bag: bag)
        try reader.read(file: data.appendingPathComponent("osm/\(file)").path, displayPath: file)
        let pois = reader.finish().pois
        #expect(pois.count > 100, "\(file): \(pois.count) POIs")
        let features = pois.enumerated().map { i, poi in
            TileFeature(
                layer: "poi", id: UInt64(i + 1), tags: [("class", .string(poi.category)), ("name", .string(poi.name ?? ""))],
                type: .point, parts: [[WorldPoint(poi.coordinate)]], minZoom: 10, maxZoom: 14)
        }
        let tiles = TilePyramid(zooms: 10...14).tiles(features)

        let folder = try TestPaths.temporaryDirectory("real-tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let city = String(file.prefix { $0 != "-" })
        let path = ProcessInfo.processInfo.environment["CITYPACK_TILES_OUT"].map { "\($0)/\(city).mbtiles" }
            ?? folder.appendingPathComponent("\(city).mbtiles").path
        var metadata = MBTilesWriter.Metadata(
            name: city, bounds: BoundingBox.enclosing(pois.map(\.coordinate))!, minZoom: 10, maxZoom: 14,
            layers: [.init(id: "poi", fields: ["class": "String", "name": "String"], minzoom: 10, maxzoom: 14)])
        metadata.attribution = "© OpenStreetMap contributors"
        let summary = try MBTilesWriter.write(tiles, metadata: metadata, to: path)
        #expect(summary.tiles == tiles.count)

        let db = try SQLiteDatabase<EmitError>(path: path, mode: .readOnly)
        defer { db.close() }
        let rows = try db.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        var inside: [Int: Int] = [:], total: [Int: Int] = [:], names: Set<String> = []
        while try rows.step() {
            let z = Int(rows.int64(0))
            let layers = try MVTDecoder.decode(try Gunzip.inflate(rows.blob(3), limit: 16 << 20))
            #expect(layers.map(\.name) == ["poi"], "\(z)/\(rows.int64(1))/\(rows.int64(2))")
            for layer in layers {
                #expect(layer.version == 2 && layer.extent == 4096)
                for feature in layer.features {
                    let (parts, _) = try MVTDecoder.parts(feature.geometry, type: feature.type)
                    let p = try #require(parts.first?.first)
                    #expect(-64...4160 ~= p.0 && -64...4160 ~= p.1)
                    total[z, default: 0] += 1
                    if 0..<4096 ~= p.0 && 0..<4096 ~= p.1 { inside[z, default: 0] += 1 }
                    for case ("name", .string(let name)) in feature.attributes(in: layer) { names.insert(name) }
                }
            }
        }
        for z in 10...14 {
            #expect(inside[z] == pois.count, "z\(z): \(inside[z] ?? 0) inside of \(pois.count) POIs")
        }
        #expect(names.count > 10)
        print("tiles \(city): \(pois.count) POIs, \(tiles.count) tiles, \(summary.tileBytes) bytes of tiles, MBTiles \(summary.fileBytes) bytes; "
            + (10...14).map { "z\($0) \(total[$0] ?? 0) features" }.joined(separator: ", "))
    }
}
