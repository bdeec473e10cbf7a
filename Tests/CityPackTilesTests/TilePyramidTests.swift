import CityPackGeometry
import CityPackTiles
import Foundation
import Testing

/// Features cut into the tiles of a zoom range: one tile per zoom for a point, both neighbours for a point in the
/// buffer, every covered tile for a polygon, the feature's zooms respected, and the same bytes for the same input.
@Suite struct TilePyramidTests {
    static let monaco = Coordinate(lat: 43.7384, lon: 7.4246)

    static func point(_ c: Coordinate, minZoom: Int = 0) -> TileFeature {
        TileFeature(layer: "poi", id: 7, tags: [("class", "toilets"), ("name", "WC")], type: .point,
                    parts: [[WorldPoint(c)]], minZoom: minZoom)
    }

    /// A square of `side` degrees around Monaco, counter-clockwise on screen as given (the builder winds it).
    static func square(side: Double) -> TileFeature {
        let c = monaco, h = side / 2
        let ring = [(c.lon - h, c.lat - h), (c.lon + h, c.lat - h), (c.lon + h, c.lat + h), (c.lon - h, c.lat + h), (c.lon - h, c.lat - h)]
            .map { WorldPoint(Coordinate(lat: $0.1, lon: $0.0)) }
        return TileFeature(layer: "park", id: 1, tags: [("class", "park")], type: .polygon, parts: [ring], exteriors: [true])
    }

    static func decoded(_ tiles: [(tile: TileID, data: [UInt8])]) throws -> [TileID: [MVTDecoder.Layer]] {
        var out: [TileID: [MVTDecoder.Layer]] = [:]
        for (tile, data) in tiles { out[tile] = try MVTDecoder.decode(data) }
        return out
    }

    @Test func aPointIsInOneTilePerZoomWithItsTags() throws {
        let tiles = try Self.decoded(TilePyramid().tiles([Self.point(Self.monaco)]))
        #expect(tiles.count == 15)
        for z in 0...14 {
            let expected = TileID(containing: Self.monaco, zoom: z)
            let layers = try #require(tiles[expected], "z\(z): \(expected) missing")
            #expect(layers.map(\.name) == ["poi"])
            let feature = try #require(layers.first?.features.first)
            #expect(feature.id == 7 && feature.type == 1)
            #expect(feature.attributes(in: layers[0]).map(\.0) == ["class", "name"])
        }
    }

    @Test func aPointInTheBufferIsInBothNeighbours() throws {
        // Just west of the east edge of Monaco's z14 tile, within the 64/4096 buffer of the next tile.
        let tile = TileID(containing: Self.monaco, zoom: 14)
        let east = tile.bounds.maxLon - (tile.bounds.maxLon - tile.bounds.minLon) * 0.005
        let tiles = try Self.decoded(TilePyramid(zooms: 14...14).tiles([Self.point(Coordinate(lat: Self.monaco.lat, lon: east))]))
        #expect(Set(tiles.keys) == [tile, TileID(z: 14, x: tile.x + 1, y: tile.y)])
    }

    @Test func aPolygonCoversEveryTileItTouchesAndIsWoundAsMVTSays() throws {
        let pyramid = TilePyramid(zooms: 12...14)
        let tiles = try Self.decoded(pyramid.tiles([Self.square(side: 0.02)]))
        let z14 = tiles.keys.filter { $0.z == 14 }
        #expect(z14.count >= 4, "\(z14)")
        for (tile, layers) in tiles {
            for feature in layers.flatMap(\.features) {
                #expect(feature.type == 3)
                let (parts, _) = try MVTDecoder.parts(feature.geometry, type: feature.type)
                #expect(!parts.isEmpty)
                #expect(MVTDecoder.doubledArea(parts[0]) > 0, "\(tile): exterior not positive")
                for p in parts.joined() {
                    #expect(-64...4160 ~= p.0 && -64...4160 ~= p.1, "\(tile): \(p) outside tile and buffer")
                }
            }
        }
    }

    @Test func aFeaturesZoomsAreRespected() throws {
        let tiles = TilePyramid(zooms: 8...12).tiles([Self.point(Self.monaco, minZoom: 10)])
        #expect(tiles.map(\.tile.z) == [10, 11, 12])
    }

    @Test func theSameFeaturesGiveTheSameTiles() throws {
        let features = [Self.square(side: 0.01), Self.point(Self.monaco)]
        let a = TilePyramid(zooms: 10...14).tiles(features), b = TilePyramid(zooms: 10...14).tiles(features)
        #expect(a.map(\.tile) == b.map(\.tile) && a.map(\.data) == b.map(\.data))
        #expect(a.map(\.tile) == a.map(\.tile).sorted())
    }

    /// Bad input never traps: non-finite and huge coordinates, empty parts, a polygon without ring roles, a feature
    /// whose zooms are reversed.
    @Test func badFeaturesAreLeftOutWithoutTrapping() throws {
        let bad = [
            TileFeature(layer: "poi", type: .point, parts: [[WorldPoint(x: .nan, y: 0.5)]]),
            TileFeature(layer: "poi", type: .point, parts: [[WorldPoint(x: 1e300, y: -1e300)]]),
            TileFeature(layer: "poi", type: .point, parts: [[WorldPoint(x: .infinity, y: 0.5)]]),
            TileFeature(layer: "road", type: .lineString, parts: [[]]),
            TileFeature(layer: "park", type: .polygon, parts: Self.square(side: 0.01).parts, exteriors: []),
            TileFeature(layer: "poi", type: .point, parts: [[WorldPoint(Self.monaco)]], minZoom: 14, maxZoom: 12),
        ]
        let tiles = TilePyramid(zooms: 0...14).tiles(bad + [Self.point(Self.monaco)])
        #expect(tiles.count == 15)
        for (_, data) in tiles {
            #expect(try MVTDecoder.decode(data).map(\.name) == ["poi"])
        }
    }
}
