import CityPackTiles
import Testing

/// ``VectorTileEncoder`` and ``TileLayer``, read back with the test-only ``MVTDecoder``.
@Suite struct VectorTileEncoderTests {
    static let square = TileGeometry(type: .polygon, parts: [[(0, 0), (10, 0), (10, 10), (0, 10)], [(2, 2), (2, 4), (4, 4), (4, 2)]])
    static let road = TileGeometry(type: .lineString, parts: [[(2, 2), (2, 10), (10, 10)], [(1, 1), (3, 5)]])
    static let shops = TileGeometry(type: .point, parts: [[(25, 17), (30, 40)]])

    /// A tile with two layers and a mix of values.
    static func sampleTile() -> [UInt8] {
        var water = TileLayer(name: "water")
        water.addFeature(id: 7, geometry: square, tags: [("class", "lake"), ("intermittent", false), ("rank", 3)])
        var roads = TileLayer(name: "transportation", extent: 4096)
        roads.addFeature(geometry: road, tags: [("class", "primary"), ("oneway", 1), ("layer", -1), ("width", 7.5)])
        roads.addFeature(id: 1 << 40, geometry: road, tags: ["class": "primary", "ramp": .uint(1), "area": .float(0.25)])
        var pois = TileLayer(name: "poi")
        pois.addFeature(id: 0, geometry: shops, tags: [("name", "Café de Paris"), ("name", "dropped: same key")])
        var encoder = VectorTileEncoder()
        encoder.addLayer(water)
        encoder.addLayer(roads)
        encoder.addLayer(TileLayer(name: "empty"))
        encoder.addLayer(pois)
        return encoder.encode()
    }

    @Test func roundTripsThroughAnIndependentDecoder() throws {
        let layers = try MVTDecoder.decode(Self.sampleTile())
        #expect(layers.map(\.name) == ["water", "transportation", "poi"])
        #expect(layers.allSatisfy { $0.version == 2 && $0.extent == 4096 })

        let water = layers[0]
        #expect(water.features.count == 1)
        #expect(water.features[0].id == 7)
        #expect(water.features[0].type == 3)
        let (rings, closed) = try MVTDecoder.parts(water.features[0].geometry, type: 3)
        #expect(closed == 2)
        #expect(rings.map { $0.map { [$0.0, $0.1] } } == [[[0, 0], [10, 0], [10, 10], [0, 10]], [[2, 2], [2, 4], [4, 4], [4, 2]]])
        #expect(MVTDecoder.doubledArea(rings[0]) > 0 && MVTDecoder.doubledArea(rings[1]) < 0)
        let attrs = water.features[0].attributes(in: water)
        #expect(attrs.map(\.0) == ["class", "intermittent", "rank"])
        #expect(attrs.map(\.1) == [.string("lake"), .bool(false), .uint(3)])

        let roads = layers[1]
        #expect(roads.features.map(\.id) == [nil, 1 << 40])
        let (lines, _) = try MVTDecoder.parts(roads.features[0].geometry, type: 2)
        #expect(lines.map { $0.map { [$0.0, $0.1] } } == [[[2, 2], [2, 10], [10, 10]], [[1, 1], [3, 5]]])
        #expect(roads.features[0].attributes(in: roads).map(\.1) == [.string("primary"), .uint(1), .sint(-1), .double(7.5)])
        // The dictionary overload writes keys sorted; "primary" and the integer 1 are deduplicated.
        #expect(roads.features[1].attributes(in: roads).map(\.0) == ["area", "class", "ramp"])
        #expect(roads.keys == ["class", "oneway", "layer", "width", "area", "ramp"])
        #expect(roads.values == [.string("primary"), .uint(1), .sint(-1), .double(7.5), .float(0.25)])

        let poi = layers[2]
        #expect(poi.features[0].id == 0)
        let (points, _) = try MVTDecoder.parts(poi.features[0].geometry, type: 1)
        #expect(points.count == 1 && points[0].map { [$0.0, $0.1] } == [[25, 17], [30, 40]])
        #expect(poi.features[0].attributes(in: poi).map(\.1) == [.string("Café de Paris")])
    }

    @Test func deterministic() {
        let a = Self.sampleTile(), b = Self.sampleTile()
        #expect(a == b)
        #expect(!a.isEmpty)
    }

    @Test func knownBytesOfASmallTile() {
        // Worked by hand from vector_tile.proto: Tile{layers: [Layer{name "p", features [{type POINT, geometry
        // [9, 50, 34]}], extent 4096, version 2}]}.
        var layer = TileLayer(name: "p")
        layer.addFeature(geometry: TileGeometry(type: .point, parts: [[(25, 17)]]))
        var encoder = VectorTileEncoder()
        encoder.addLayer(layer)
        #expect(encoder.encode() == [
            0x1a, 17,  // field 3 (layers), length 17
            0x0a, 1, 0x70,  // name "p"
            0x12, 7, 0x18, 1, 0x22, 3, 9, 50, 34,  // feature: type 1, geometry packed [9, 50, 34]
            0x28, 0x80, 0x20,  // extent 4096
            0x78, 2,  // version 2
        ])
    }

    @Test func emptyLayersAndEmptyTilesAreNotWritten() {
        var encoder = VectorTileEncoder()
        #expect(encoder.encode().isEmpty)
        encoder.addLayer(TileLayer(name: "nothing"))
        #expect(encoder.isEmpty && encoder.encode().isEmpty)
    }

    @Test func duplicateLayerNamesAreRefused() {
        var encoder = VectorTileEncoder()
        let first = encoder.addLayer(TileLayer(name: "a"))
        let second = encoder.addLayer(TileLayer(name: "a"))
        #expect(first && !second)
        #expect(encoder.layers.count == 1)
    }

    @Test func geometryTooShortForItsTypeIsRefused() {
        var layer = TileLayer(name: "x")
        let line = layer.addFeature(geometry: TileGeometry(type: .lineString, parts: [[(1, 1)]]))
        let ring = layer.addFeature(geometry: TileGeometry(type: .polygon, parts: [[(1, 1), (2, 2)]]))
        let none = layer.addFeature(geometry: TileGeometry(type: .point, parts: []), tags: [("k", "v")])
        #expect(!line && !ring && !none)
        #expect(layer.isEmpty && layer.keyCount == 0)
    }

    @Test func valuesAreDeduplicatedByEncoding() throws {
        var layer = TileLayer(name: "v")
        let g = TileGeometry(type: .point, parts: [[(1, 1)]])
        layer.addFeature(geometry: g, tags: [("a", .int(5)), ("b", .uint(5)), ("c", .double(-0.0)), ("d", .double(0.0)),
                                             ("e", .double(.nan)), ("f", .double(.nan)), ("g", .int(-5)), ("h", .int(.min))])
        #expect(layer.keyCount == 8)
        #expect(layer.valueCount == 6)
        var encoder = VectorTileEncoder()
        encoder.addLayer(layer)
        let decoded = try MVTDecoder.decode(encoder.encode())[0]
        #expect(decoded.values.last == .sint(.min))
        #expect(decoded.features[0].tags == [0, 0, 1, 0, 2, 1, 3, 2, 4, 3, 5, 3, 6, 4, 7, 5])
    }

    @Test func largeCoordinatesAndIdsSurvive() throws {
        var layer = TileLayer(name: "big", extent: 8192)
        let g = TileGeometry(type: .lineString, parts: [[(-64, -64), (8256, 8256), (Int32.max / 2, Int32.min / 2)]])
        layer.addFeature(id: .max, geometry: g)
        var encoder = VectorTileEncoder()
        encoder.addLayer(layer)
        let decoded = try MVTDecoder.decode(encoder.encode())[0]
        #expect(decoded.extent == 8192)
        #expect(decoded.features[0].id == .max)
        let (lines, _) = try MVTDecoder.parts(decoded.features[0].geometry, type: 2)
        #expect(lines[0].map { [$0.0, $0.1] } == [[-64, -64], [8256, 8256], [Int32.max / 2, Int32.min / 2]])
    }
}
