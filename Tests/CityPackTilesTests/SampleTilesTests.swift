import CityPackGeometry
import CityPackTiles
import Foundation
import Testing

/// The whole chain on synthetic features around Monaco, z0–z14: project once to world points, then per tile
/// project, clip, simplify, quantise, wind and encode. Every tile is read back with ``MVTDecoder``.
///
/// `CITYPACK_TILES_OUT=/some/folder swift test --filter SampleTilesTests` also writes the
/// tiles as `<folder>/<z>/<x>/<y>.mvt` (raw protobuf, XYZ rows) for `scripts/check-tiles.py`.
/// Speed is measured by `citypack bench --tiles`, not here.
@Suite struct SampleTilesTests {
    static let box = BoundingBox(minLon: 7.409, minLat: 43.723, maxLon: 7.44, maxLat: 43.752)
    static let center = Coordinate(lat: 43.7384, lon: 7.4246)

    /// A feature of the sample, in world points (projected once).
    struct Feature {
        var layer: String
        var type: TileGeometryType
        var parts: [[WorldPoint]]
        var exteriors: [Bool] = []
        var tags: [(String, TileValue)]
    }

    /// A ring of `n` points around the centre, radius in degrees, closed, clockwise or not.
    static func circle(radius: Double, n: Int, wobble: Double = 0, reversed: Bool = false) -> [WorldPoint] {
        var ring = (0..<n).map { i -> WorldPoint in
            let a = Double(i) / Double(n) * 2 * .pi
            let r = radius * (1 + wobble * sin(a * 7))
            return WorldPoint(Coordinate(lat: center.lat + r * 0.72 * sin(a), lon: center.lon + r * cos(a)))
        }
        if reversed { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    static func features() -> [Feature] {
        var out: [Feature] = []
        // A park with a pond: exterior counter-clockwise on screen on purpose (the builder rewinds it).
        out.append(Feature(layer: "park", type: .polygon,
                           parts: [circle(radius: 0.012, n: 5000, wobble: 0.15), circle(radius: 0.003, n: 800, reversed: true)],
                           exteriors: [true, false], tags: [("class", "park"), ("name", "Jardin")]))
        // A road winding west to east across the box, and a second one north to south: one feature.
        let road = (0...4000).map { i -> WorldPoint in
            let t = Double(i) / 4000
            return WorldPoint(Coordinate(lat: center.lat + 0.01 * sin(t * 20), lon: 7.40 + t * 0.05))
        }
        let avenue = (0...500).map { i in WorldPoint(Coordinate(lat: 43.76 - Double(i) * 0.0001, lon: 7.43)) }
        out.append(Feature(layer: "transportation", type: .lineString, parts: [road, avenue],
                           tags: [("class", "primary"), ("oneway", false), ("layer", -1)]))
        // A grid of points of interest.
        for i in 0..<20 {
            for j in 0..<20 {
                let c = Coordinate(lat: box.minLat + Double(i) * 0.0015, lon: box.minLon + Double(j) * 0.0015)
                out.append(Feature(layer: "poi", type: .point, parts: [[WorldPoint(c)]],
                                   tags: [("rank", .int(Int64(i % 5))), ("class", i % 2 == 0 ? "shop" : "cafe")]))
            }
        }
        return out
    }

    /// Encodes every tile of the box at every zoom 0–14; returns the non-empty ones.
    static func buildTiles(_ features: [Feature], zooms: ClosedRange<Int> = 0...14) -> [(TileID, [UInt8])] {
        var tiles: [(TileID, [UInt8])] = []
        var parts = TileParts()
        for zoom in zooms {
            for range in TileRange.ranges(covering: box, zoom: zoom) {
                for tile in range {
                    let projection = TileProjection(tile: tile)
                    var builder = TileGeometryBuilder(projection: projection, tolerance: zoom == zooms.upperBound ? 0 : 1)
                    var layers: [String: TileLayer] = [:]
                    var order: [String] = []
                    for (id, f) in features.enumerated() {
                        parts.removeAll()
                        for part in f.parts { projection.appendPart(part, to: &parts) }
                        let geometry: TileGeometry? = switch f.type {
                        case .point: builder.points(parts)
                        case .lineString: builder.lines(parts)
                        case .polygon: builder.polygons(parts, exteriors: f.exteriors)
                        }
                        guard let geometry else { continue }
                        if layers[f.layer] == nil { order.append(f.layer) }
                        layers[f.layer, default: TileLayer(name: f.layer)].addFeature(id: UInt64(id), geometry: geometry, tags: f.tags)
                    }
                    var encoder = VectorTileEncoder()
                    for name in order { encoder.addLayer(layers[name]!) }
                    if !encoder.isEmpty { tiles.append((tile, encoder.encode())) }
                }
            }
        }
        return tiles
    }

    @Test func everyTileDecodesWithValidParts() throws {
        let tiles = Self.buildTiles(Self.features())
        #expect(tiles.count >= 15 + 8)
        #expect(tiles.map(\.0) == tiles.map(\.0).sorted())
        for (tile, bytes) in tiles {
            for layer in try MVTDecoder.decode(bytes) {
                for feature in layer.features {
                    let (parts, closed) = try MVTDecoder.parts(feature.geometry, type: feature.type)
                    for part in parts {
                        #expect(part.allSatisfy { (-64...4160).contains($0.0) && (-64...4160).contains($0.1) }, "\(tile)")
                    }
                    if feature.type == 3 {
                        #expect(closed == parts.count)
                        #expect(MVTDecoder.doubledArea(parts[0]) > 0, "\(tile) exterior")
                        #expect(parts.allSatisfy { $0.count >= 3 && MVTDecoder.doubledArea($0) != 0 })
                    }
                }
            }
        }
        // The tile holding the centre has the park from zoom 8 (34 units across at 4096), with the pond as its hole
        // at least at zoom 14; at zoom 0 both are under a unit wide and dropped.
        #expect(try !MVTDecoder.decode(tiles[0].1).contains { $0.name == "park" })
        for zoom in 8...14 {
            let tile = TileID(containing: Self.center, zoom: zoom)
            let bytes = try #require(tiles.first { $0.0 == tile }?.1)
            let park = try #require(try MVTDecoder.decode(bytes).first { $0.name == "park" })
            let (rings, _) = try MVTDecoder.parts(park.features[0].geometry, type: 3)
            #expect(rings.count == 2 || (zoom < 14 && rings.count == 1), "\(tile)")
        }

        if let folder = ProcessInfo.processInfo.environment["CITYPACK_TILES_OUT"] {
            for (tile, bytes) in tiles {
                let dir = URL(fileURLWithPath: folder).appendingPathComponent("\(tile.z)/\(tile.x)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try Data(bytes).write(to: dir.appendingPathComponent("\(tile.y).mvt"))
            }
        }
    }

    @Test func sameInputSameBytes() {
        let features = Self.features()
        let a = Self.buildTiles(features, zooms: 12...14)
        let b = Self.buildTiles(features, zooms: 12...14)
        #expect(a.map(\.0) == b.map(\.0))
        #expect(a.map(\.1) == b.map(\.1))
    }
}
