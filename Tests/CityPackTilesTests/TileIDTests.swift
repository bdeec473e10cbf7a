import CityPackGeometry
import CityPackTiles
import Foundation
import Testing

/// ``TileID``, ``TileRange`` and ``WebMercator`` against the OSM wiki's slippy-map formulas, computed here on their
/// own (asinh(tan φ) written as ln(tan φ + sec φ)).
@Suite struct TileIDTests {
    /// The wiki's formula, independent of the library's.
    static func reference(lon: Double, lat: Double, zoom: Int) -> (x: Int, y: Int) {
        let n = pow(2.0, Double(zoom))
        let phi = lat * .pi / 180
        let x = (lon + 180) / 360 * n
        let y = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n
        return (Int(x.rounded(.down)), Int(y.rounded(.down)))
    }

    @Test func monacoAtZoom14() {
        // (7.4246 + 180) / 360 · 2^14 = 8529.90…; the Mercator row is 5974.06….
        let tile = TileID(containing: Coordinate(lat: 43.7384, lon: 7.4246), zoom: 14)
        #expect(tile == TileID(z: 14, x: 8529, y: 5974))
        let ref = Self.reference(lon: 7.4246, lat: 43.7384, zoom: 14)
        #expect(tile.x == ref.x && tile.y == ref.y)
        #expect(tile.tmsY == 16383 - 5974)
        #expect(tile.bounds.contains(Coordinate(lat: 43.7384, lon: 7.4246)))
    }

    @Test(arguments: [(-73.9857, 40.7484), (151.2153, -33.8568), (-0.1276, 51.5072), (139.7454, 35.6586), (0, 0)])
    func agreesWithTheWikiFormula(_ lon: Double, _ lat: Double) {
        for zoom in [1, 5, 10, 14] {
            let tile = TileID(containing: Coordinate(lat: lat, lon: lon), zoom: zoom)
            let ref = Self.reference(lon: lon, lat: lat, zoom: zoom)
            #expect(tile.x == ref.x && tile.y == ref.y, "z\(zoom) \(lon),\(lat)")
        }
    }

    @Test func zoomZeroIsTheWholeWorld() {
        let world = TileID(z: 0, x: 0, y: 0)
        for c in [Coordinate(lat: 89, lon: -180), Coordinate(lat: -89, lon: 180), Coordinate(lat: 0, lon: 0)] {
            #expect(TileID(containing: c, zoom: 0) == world)
        }
        let b = world.bounds
        #expect(b.minLon == -180 && b.maxLon == 180)
        #expect(abs(b.maxLat - WebMercator.maxLatitude) < 1e-9 && abs(b.minLat + WebMercator.maxLatitude) < 1e-9)
        #expect(world.parent == nil)
        #expect(world.tmsY == 0)
        #expect(TileRange(covering: BoundingBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90), zoom: 0).count == 1)
    }

    @Test func latitudeIsClamped() {
        #expect(WebMercator.worldY(latitude: 90) == WebMercator.worldY(latitude: WebMercator.maxLatitude))
        #expect(abs(WebMercator.worldY(latitude: WebMercator.maxLatitude)) < 1e-9)
        #expect(abs(WebMercator.worldY(latitude: -89.9) - 1) < 1e-9)
        #expect(TileID(containing: Coordinate(lat: 90, lon: 180), zoom: 3) == TileID(z: 3, x: 7, y: 0))
        #expect(TileID(containing: Coordinate(lat: -90, lon: -180), zoom: 3) == TileID(z: 3, x: 0, y: 7))
    }

    @Test func tmsFlip() {
        #expect(TileID.flipY(0, zoom: 1) == 1)
        #expect(TileID.flipY(5974, zoom: 14) == 10409)
        let t = TileID(z: 14, x: 8529, y: 5974)
        #expect(TileID(z: 14, x: 8529, tmsY: t.tmsY) == t)
        #expect(TileID(z: 3, x: 2, tmsY: 0).y == 7)
    }

    @Test func parentAndChildren() {
        let t = TileID(z: 14, x: 8529, y: 5974)
        #expect(t.parent == TileID(z: 13, x: 4264, y: 2987))
        #expect(t.children == [
            TileID(z: 15, x: 17058, y: 11948), TileID(z: 15, x: 17059, y: 11948),
            TileID(z: 15, x: 17058, y: 11949), TileID(z: 15, x: 17059, y: 11949),
        ])
        for c in t.children { #expect(c.parent == t) }
    }

    @Test func boundsRoundTrip() {
        let t = TileID(z: 10, x: 532, y: 373)
        let b = t.bounds
        // A point just inside each corner lies in the tile; the corners are the inverse of the forward formula.
        #expect(TileID(containing: Coordinate(lat: b.maxLat - 1e-9, lon: b.minLon + 1e-9), zoom: 10) == t)
        #expect(TileID(containing: Coordinate(lat: b.minLat + 1e-9, lon: b.maxLon - 1e-9), zoom: 10) == t)
        #expect(abs(WebMercator.worldY(latitude: b.maxLat) * 1024 - 373) < 1e-9)
    }

    @Test func rangeCoveringMonaco() {
        let box = BoundingBox(minLon: 7.409, minLat: 43.723, maxLon: 7.44, maxLat: 43.752)
        let r = TileRange(covering: box, zoom: 14)
        let nw = Self.reference(lon: 7.409, lat: 43.752, zoom: 14)
        let se = Self.reference(lon: 7.44, lat: 43.723, zoom: 14)
        #expect(r.minX == nw.x && r.minY == nw.y && r.maxX == se.x && r.maxY == se.y)
        #expect(Array(r).count == r.count)
        #expect(Array(r).first == TileID(z: 14, x: nw.x, y: nw.y))
        #expect(Array(r) == Array(r).sorted())
        #expect(TileRange(covering: box, zoom: 0) == TileRange(zoom: 0, minX: 0, maxX: 0, minY: 0, maxY: 0))
        #expect(r.children.count == 4 * r.count)
    }

    @Test func rangeLeavesOutTilesOnlyTouched() {
        // The box's east edge is exactly the meridian between columns 1 and 2 at zoom 2 (lon 0).
        let r = TileRange(covering: BoundingBox(minLon: -90, minLat: -10, maxLon: 0, maxLat: 10), zoom: 2)
        #expect(r.minX == 1 && r.maxX == 1)
        #expect(r.minY == 1 && r.maxY == 2)
    }

    @Test func rangesAcrossTheAntimeridian() {
        let box = BoundingBox(minLon: 179.95, minLat: -16.9, maxLon: -179.95, maxLat: -16.7)
        let ranges = TileRange.ranges(covering: box, zoom: 10)
        #expect(ranges.count == 2)
        #expect(ranges[0].minX == 0 && ranges[1].maxX == 1023)
    }
}
