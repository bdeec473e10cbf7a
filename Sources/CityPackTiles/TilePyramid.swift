/// One feature of a tileset before tiling: its layer, id, attributes, zooms and geometry in world coordinates
/// (``WorldPoint``: 0…1 across the Web Mercator square, y down), projected once however many tiles it lands in.
public struct TileFeature: Sendable {
    /// The layer it belongs to (`poi`, `transportation`).
    public var layer: String
    /// The feature id written to the tile, if any.
    public var id: UInt64?
    /// Its attributes, in the order they are written.
    public var tags: [(String, TileValue)]
    /// What the parts are.
    public var type: TileGeometryType
    /// The parts: one point per part for points, lines for line strings, closed rings for polygons (each exterior
    /// followed by its holes, flagged by ``exteriors``).
    public var parts: [[WorldPoint]]
    /// For polygons, whether each part is an exterior ring; ignored otherwise.
    public var exteriors: [Bool]
    /// The lowest and highest zoom the feature appears at.
    public var minZoom: Int
    public var maxZoom: Int

    /// A feature of `layer`.
    public init(
        layer: String, id: UInt64? = nil, tags: [(String, TileValue)] = [], type: TileGeometryType, parts: [[WorldPoint]],
        exteriors: [Bool] = [], minZoom: Int = 0, maxZoom: Int = 14
    ) {
        self.layer = layer
        self.id = id
        self.tags = tags
        self.type = type
        self.parts = parts
        self.exteriors = exteriors
        self.minZoom = minZoom
        self.maxZoom = maxZoom
    }
}

/// Cuts features into the tiles of a zoom range: each feature goes to every tile its bounds (with the buffer)
/// touch at each of its zooms, clipped, simplified by `tolerance` tile units and encoded by ``TileGeometryBuilder``;
/// a tile holds its layers in first-seen order and its features in input order, so the bytes depend only on the
/// input. Holds the features given and, per zoom, that zoom's tiles while they are made: for a city's features,
/// not a country's (a country needs the features sorted by tile first).
public struct TilePyramid: Sendable {
    /// The zooms made.
    public var zooms: ClosedRange<Int>
    /// Tile extent and buffer, in tile units.
    public var extent: Int
    public var buffer: Double
    /// Simplification tolerance in tile units (Douglas–Peucker), at every zoom but the highest, where geometry is
    /// kept as it is for overzooming.
    public var tolerance: Double

    /// A pyramid of `zooms` (default z0–z14), 4096-unit tiles with a 64-unit buffer, tolerance 1.
    public init(zooms: ClosedRange<Int> = 0...14, extent: Int = 4096, buffer: Double = 64, tolerance: Double = 1) {
        self.zooms = zooms
        self.extent = extent
        self.buffer = buffer
        self.tolerance = tolerance
    }

    /// The encoded tiles of `features` at every zoom, in (z, x, y) order; tiles left with no feature are not made.
    public func tiles(_ features: [TileFeature]) -> [(tile: TileID, data: [UInt8])] {
        let boxes = features.map(Self.bounds)
        var out: [(tile: TileID, data: [UInt8])] = []
        for z in zooms {
            let scale = Double(1 << z)
            let margin = buffer / Double(extent)
            var layers: [TileID: [String: TileLayer]] = [:]
            var layerOrder: [TileID: [String]] = [:]
            for (feature, box) in zip(features, boxes) where feature.minZoom <= z && z <= feature.maxZoom {
                // A polygon whose rings are not all flagged exterior or hole is not drawn (the builder needs one
                // role per ring).
                guard let box, feature.type != .polygon || feature.exteriors.count == feature.parts.count else { continue }
                let maxIndex = (1 << z) - 1
                /// A world coordinate as a tile index at this zoom, clamped first so no value can overflow `Int`.
                func index(_ v: Double) -> Int { Int(min(Double(maxIndex + 1), max(-1, v * scale)).rounded(.down)) }
                let minX = max(0, index(box.minX - margin / scale))
                let maxX = min(maxIndex, index(box.maxX + margin / scale))
                let minY = max(0, index(box.minY - margin / scale))
                let maxY = min(maxIndex, index(box.maxY + margin / scale))
                guard minX <= maxX, minY <= maxY else { continue }
                for x in minX...maxX {
                    for y in minY...maxY {
                        let tile = TileID(z: z, x: x, y: y)
                        let projection = TileProjection(tile: tile, extent: extent, buffer: buffer)
                        var builder = TileGeometryBuilder(projection: projection, tolerance: z == zooms.upperBound ? 0 : tolerance)
                        var parts = TileParts()
                        for part in feature.parts { projection.appendPart(part, to: &parts) }
                        let geometry: TileGeometry? = switch feature.type {
                        case .point: builder.points(parts)
                        case .lineString: builder.lines(parts)
                        case .polygon: builder.polygons(parts, exteriors: feature.exteriors)
                        }
                        guard let geometry else { continue }
                        if layers[tile]?[feature.layer] == nil {
                            layers[tile, default: [:]][feature.layer] = TileLayer(name: feature.layer, extent: UInt32(extent))
                            layerOrder[tile, default: []].append(feature.layer)
                        }
                        _ = layers[tile]![feature.layer]!.addFeature(id: feature.id, geometry: geometry, tags: feature.tags)
                    }
                }
            }
            for tile in layers.keys.sorted() {
                var encoder = VectorTileEncoder()
                for name in layerOrder[tile] ?? [] {
                    if let layer = layers[tile]?[name] { _ = encoder.addLayer(layer) }
                }
                if !encoder.isEmpty { out.append((tile, encoder.encode())) }
            }
        }
        return out
    }

    /// A feature's bounds in world coordinates (non-finite points left out); nil when it has no finite point.
    static func bounds(_ feature: TileFeature) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for part in feature.parts {
            for p in part where p.x.isFinite && p.y.isFinite {
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
        }
        return minX <= maxX ? (minX, minY, maxX, maxY) : nil
    }
}
