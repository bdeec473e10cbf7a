import CityPackGeometry
import CityPackSQLite
import CityPackSupport
import CityPackTiles
import Foundation

/// Writes an MBTiles 1.3 tileset of vector tiles: the SQLite file MapLibre Native opens as `mbtiles://` and tools
/// such as `tile-join`, `mb-util` or `martin` read.
///
/// - `metadata (name text, value text)`: `name`, `format` (`pbf`), `bounds` and `center` (`lon,lat[,zoom]`, WGS84),
///   `minzoom`, `maxzoom`, `json` (`{"vector_layers":[…]}`, each layer's id, fields and zooms, as the spec requires
///   for `pbf`), then `attribution`, `description`, `type` and `version` when given.
/// - `tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)` with the unique index
///   `tile_index` on the three coordinates. Rows are TMS (`tile_row = 2^z − 1 − y`); `tile_data` is the Mapbox
///   Vector Tile, gzip-compressed as the spec's `pbf` format says.
///
/// The bytes depend only on the input: tiles are written in (z, x, y) order whatever order they come in, metadata
/// by name, gzip carries no time; the same tiles and metadata give the same file. The file is written next to
/// `path` under a temporary name and renamed into place, so a failure leaves the previous tileset whole.
package enum MBTilesWriter {
    /// What the `metadata` table says of the tileset.
    package struct Metadata: Sendable {
        /// A human-readable name (`Monaco`).
        package var name: String
        /// The area the tiles cover, in degrees.
        package var bounds: BoundingBox
        /// The lowest and highest zoom with tiles.
        package var minZoom: Int
        package var maxZoom: Int
        /// The layers the tiles hold (the `vector_layers` of `json`).
        package var layers: [VectorLayer]
        /// The zoom a viewer starts at (`center`'s third number); default `minZoom`.
        package var centerZoom: Int?
        /// Credit for the data (`© OpenStreetMap contributors`).
        package var attribution: String?
        /// A description of the tileset.
        package var description: String?
        /// The tileset's version (a pack's data version).
        package var version: String?

        /// Metadata for tiles of `bounds` at `minZoom`…`maxZoom` holding `layers`.
        package init(name: String, bounds: BoundingBox, minZoom: Int, maxZoom: Int, layers: [VectorLayer]) {
            self.name = name
            self.bounds = bounds
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.layers = layers
        }
    }

    /// One layer of `vector_layers`: its id (the MVT layer name), its fields (attribute → `String`, `Number` or
    /// `Boolean`) and the zooms it appears at.
    package struct VectorLayer: Sendable, Encodable, Equatable {
        package var id: String
        package var fields: [String: String]
        package var minzoom: Int
        package var maxzoom: Int
        package var description: String

        package init(id: String, fields: [String: String], minzoom: Int, maxzoom: Int, description: String = "") {
            self.id = id
            self.fields = fields
            self.minzoom = minzoom
            self.maxzoom = maxzoom
            self.description = description
        }
    }

    /// What was written.
    package struct Summary: Sendable, Equatable {
        /// Tiles written.
        package var tiles: Int
        /// Bytes of their gzip-compressed data.
        package var tileBytes: Int
        /// Bytes of the MBTiles file.
        package var fileBytes: Int
    }

    /// Writes `tiles` (raw MVT bytes by tile) and `metadata` to a new MBTiles file at `path`, replacing it.
    /// - Throws: ``EmitError`` for SQLite, compression or I/O failures (the previous file at `path` stays), and
    ///   for two tiles with the same coordinates.
    package static func write(
        _ tiles: [(tile: TileID, data: [UInt8])], metadata: Metadata, to path: String
    ) throws(EmitError) -> Summary {
        try OutputFiles.createParent(of: path)
        // The emitter's temporary name: a later build recognises what an interrupted one left (``OutputFiles``).
        let temporary = OutputFiles.temporaryName(for: path)
        var tileBytes = 0
        do throws(EmitError) {
            let db = try SQLiteDatabase<EmitError>(path: temporary, mode: .readWriteCreate)
            defer { db.close() }
            try db.exec("""
                PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                BEGIN;
                CREATE TABLE metadata (name text, value text);
                CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
                CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row);
                """)
            let meta = try db.prepare("INSERT INTO metadata (name, value) VALUES (?1, ?2)")
            for (name, value) in try rows(of: metadata) {
                meta.reset()
                meta.bind(1, name)
                meta.bind(2, value)
                try meta.run()
            }
            let insert = try db.prepare("INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)")
            for (tile, data) in tiles.sorted(by: { $0.tile < $1.tile }) {
                let gz = try Gzip.compress(bytes: data, level: Gzip.webLevel)
                tileBytes += gz.count
                insert.reset()
                insert.bind(1, tile.z)
                insert.bind(2, tile.x)
                insert.bind(3, tile.tmsY)
                insert.bind(4, gz)
                try insert.run()
            }
            try db.exec("COMMIT")
        } catch {
            unlink(temporary)
            throw error
        }
        do throws(EmitError) { try OutputFiles.rename(temporary, path) } catch {
            unlink(temporary)
            throw error
        }
        let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        return Summary(tiles: tiles.count, tileBytes: tileBytes, fileBytes: fileBytes)
    }

    /// The `metadata` rows, sorted by name.
    static func rows(of m: Metadata) throws(EmitError) -> [(String, String)] {
        func number(_ v: Double) -> String {
            let text = String(format: "%.6f", v)
            var trimmed = Substring(text)
            while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
            if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        let b = m.bounds
        struct Layers: Encodable { var vector_layers: [VectorLayer] }
        let json: String
        do {
            json = String(decoding: try SortedJSON.encoder(pretty: false).encode(Layers(vector_layers: m.layers)), as: UTF8.self)
        } catch {
            throw .io(path: "(metadata)", message: "cannot encode the vector layers: \(error)")
        }
        var rows: [(String, String)] = [
            ("name", m.name), ("format", "pbf"),
            ("bounds", [b.minLon, b.minLat, b.maxLon, b.maxLat].map(number).joined(separator: ",")),
            ("center", "\(number(b.centerLon)),\(number(b.centerLat)),\(m.centerZoom ?? m.minZoom)"),
            ("minzoom", "\(m.minZoom)"), ("maxzoom", "\(m.maxZoom)"), ("json", json), ("type", "baselayer"),
        ]
        if let a = m.attribution { rows.append(("attribution", a)) }
        if let d = m.description { rows.append(("description", d)) }
        if let v = m.version { rows.append(("version", v)) }
        return rows.sorted { $0.0 < $1.0 }
    }
}
