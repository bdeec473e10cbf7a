import CityPackEmit
import CityPackGeometry
import CityPackSQLite
import CityPackStorage
import CityPackTestSupport
import CityPackTiles
import Foundation
import Testing

/// The MBTiles 1.3 tileset writer: the spec's tables, TMS rows, gzip'd tiles, the metadata MapLibre needs, the same
/// bytes for the same tiles whatever their order, and a failed write that leaves the previous file whole.
@Suite struct MBTilesWriterTests {
    static let monaco = BoundingBox(minLon: 7.409, minLat: 43.723, maxLon: 7.44, maxLat: 43.752)

    /// A few real tiles: one point layer at every zoom tile over Monaco's centre, z12–z14.
    static func tiles() -> [(tile: TileID, data: [UInt8])] {
        (12...14).map { z in
            let tile = TileID(containing: Coordinate(lat: 43.7384, lon: 7.4246), zoom: z)
            var builder = TileGeometryBuilder(projection: TileProjection(tile: tile))
            var parts = TileParts()
            TileProjection(tile: tile).appendPart([Coordinate(lat: 43.7384, lon: 7.4246)], to: &parts)
            var layer = TileLayer(name: "poi")
            if let point = builder.points(parts) { _ = layer.addFeature(id: 1, geometry: point, tags: [("class", "toilets")]) }
            var encoder = VectorTileEncoder()
            _ = encoder.addLayer(layer)
            return (tile, encoder.encode())
        }
    }

    static func metadata() -> MBTilesWriter.Metadata {
        var m = MBTilesWriter.Metadata(
            name: "Monaco", bounds: monaco, minZoom: 12, maxZoom: 14,
            layers: [.init(id: "poi", fields: ["class": "String"], minzoom: 12, maxzoom: 14)])
        m.attribution = "© OpenStreetMap contributors"
        m.version = "3"
        return m
    }

    @Test func writesTheSpecsTablesWithTMSRowsAndGzippedTiles() throws {
        let folder = try TestPaths.temporaryDirectory("mbtiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("monaco.mbtiles").path
        let tiles = Self.tiles()
        let summary = try MBTilesWriter.write(tiles, metadata: Self.metadata(), to: path)
        #expect(summary.tiles == 3 && summary.fileBytes > 0 && summary.tileBytes > 0)

        let db = try SQLiteDatabase<EmitError>(path: path, mode: .readOnly)
        defer { db.close() }
        let columns = try db.prepare("SELECT name FROM pragma_table_info('tiles') ORDER BY cid")
        var names: [String] = []
        while try columns.step() { names.append(columns.text(0) ?? "") }
        #expect(names == ["zoom_level", "tile_column", "tile_row", "tile_data"])
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'tile_index'") == 1)

        for (tile, data) in tiles {
            let row = try db.prepare("SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
            row.bind(1, tile.z)
            row.bind(2, tile.x)
            row.bind(3, (1 << tile.z) - 1 - tile.y)
            #expect(try row.step(), "\(tile) not stored at its TMS row")
            let stored = row.blob(0)
            #expect(Array(stored.prefix(2)) == [0x1f, 0x8b], "tile_data is gzip")
            #expect(try Gunzip.inflate(stored, limit: 1 << 20) == data)
        }

        var metadata: [String: String] = [:]
        let rows = try db.prepare("SELECT name, value FROM metadata")
        while try rows.step() { metadata[rows.text(0) ?? ""] = rows.text(1) }
        #expect(metadata["name"] == "Monaco" && metadata["format"] == "pbf")
        #expect(metadata["bounds"] == "7.409,43.723,7.44,43.752")
        #expect(metadata["center"] == "7.4245,43.7375,12")
        #expect(metadata["minzoom"] == "12" && metadata["maxzoom"] == "14")
        #expect(metadata["attribution"] == "© OpenStreetMap contributors" && metadata["version"] == "3")
        let json = try #require(metadata["json"].flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let layers = try #require(json["vector_layers"] as? [[String: Any]])
        #expect(layers.first?["id"] as? String == "poi" && (layers.first?["fields"] as? [String: String]) == ["class": "String"])
    }

    @Test func theSameTilesGiveTheSameBytesInAnyOrder() throws {
        let folder = try TestPaths.temporaryDirectory("mbtiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.mbtiles").path, b = folder.appendingPathComponent("b.mbtiles").path
        _ = try MBTilesWriter.write(Self.tiles(), metadata: Self.metadata(), to: a)
        _ = try MBTilesWriter.write(Self.tiles().reversed(), metadata: Self.metadata(), to: b)
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        var other = Self.metadata()
        other.version = "4"
        _ = try MBTilesWriter.write(Self.tiles(), metadata: other, to: b)
        #expect(FileManager.default.contents(atPath: a) != FileManager.default.contents(atPath: b))
    }

    @Test func aFailedWriteKeepsThePreviousTileset() throws {
        let folder = try TestPaths.temporaryDirectory("mbtiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("monaco.mbtiles").path
        _ = try MBTilesWriter.write(Self.tiles(), metadata: Self.metadata(), to: path)
        let before = FileManager.default.contents(atPath: path)
        // The same tile twice breaks the unique index: nothing replaces the file, no temporary file stays.
        let tiles = Self.tiles()
        #expect(throws: EmitError.self) { _ = try MBTilesWriter.write(tiles + [tiles[0]], metadata: Self.metadata(), to: path) }
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["monaco.mbtiles"])
    }
}
