import CityPackTestSupport
import Foundation
import CityPackFormat
import Testing

@Suite struct GeohashCoverTests {
    private func covered(_ cell: Int64, _ ranges: [ClosedRange<Int64>]) -> Bool {
        ranges.contains { $0.contains(cell) }
    }

    @Test func rangesAreSortedDisjointAndMerged() {
        var rng = SplitMix64(seed: 10)
        for _ in 0..<500 {
            let ranges = GeohashCover.cells(
                lat: Double.random(in: -89.99...89.99, using: &rng), lon: Double.random(in: -180...180, using: &rng),
                radius: Double.random(in: 0...20_000, using: &rng))
            #expect(!ranges.isEmpty)
            for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound + 1 < b.lowerBound) }
        }
    }

    @Test func coversEveryCellOfTheBoundingBox() {
        // Random points inside the exact (unpadded) bounding box of the circle must land in a covered cell.
        var rng = SplitMix64(seed: 11)
        let degrees = 180 / Double.pi
        for _ in 0..<1500 {
            let lat = Double.random(in: -89.999...89.999, using: &rng)
            let lon = [Double.random(in: -180...180, using: &rng), 179.9999, -179.9999][Int.random(in: 0..<3, using: &rng)]
            let radius = exp(Double.random(in: 0...log(5000), using: &rng))
            let ranges = GeohashCover.cells(lat: lat, lon: lon, radius: radius)
            let delta = radius / GreatCircle.earthRadius
            let dLat = delta * degrees
            let s = sin(delta) / cos(lat / degrees)
            let dLon = s < 1 ? asin(s) * degrees : 180
            for _ in 0..<20 {
                let pLat = min(90, max(-90, lat + Double.random(in: -dLat...dLat, using: &rng)))
                var pLon = lon + Double.random(in: -dLon...dLon, using: &rng)
                if pLon > 180 { pLon -= 360 } else if pLon < -180 { pLon += 360 }
                #expect(covered(Geohash.cell(lat: pLat, lon: pLon, precision: 8), ranges))
            }
            // Corners of the box, exactly.
            for (cLat, cLon) in [(lat - dLat, lon - dLon), (lat + dLat, lon + dLon), (lat - dLat, lon + dLon), (lat + dLat, lon - dLon)] {
                var w = cLon
                if w > 180 { w -= 360 } else if w < -180 { w += 360 }
                #expect(covered(Geohash.cell(lat: min(90, max(-90, cLat)), lon: w, precision: 8), ranges))
            }
        }
    }

    @Test func smallQueriesStayAtTheBucketPrecision() {
        // A 25 m query needs a handful of precision-8 cells, not coarse prefixes.
        let ranges = GeohashCover.cells(lat: 48.8566, lon: 2.3522, radius: 25)
        let cells = ranges.reduce(0) { $0 + $1.count }
        #expect(cells >= 1 && cells <= 16)
    }

    @Test func largeQueriesUseCoarserPrefixesWithinBudget() {
        let ranges = GeohashCover.cells(lat: 48.8566, lon: 2.3522, radius: 5000)
        #expect(ranges.count <= GeohashCover.defaultMaxCells)
        // Every range is a whole coarser cell: its bounds are aligned to a multiple of 32^k.
        for r in ranges { #expect((r.upperBound - r.lowerBound + 1) % 32 == 0 && r.lowerBound % 32 == 0) }
        let fineBudget = GeohashCover.cells(lat: 48.8566, lon: 2.3522, radius: 5000, maxCells: 1_000_000)
        #expect(fineBudget.reduce(0) { $0 + $1.count } > 64)
    }

    @Test func antimeridianQueriesCoverBothSides() {
        let ranges = GeohashCover.cells(lat: -16.5, lon: 179.9999, radius: 100)
        #expect(covered(Geohash.cell(lat: -16.5, lon: -179.9995, precision: 8), ranges))
        #expect(covered(Geohash.cell(lat: -16.5, lon: 179.9995, precision: 8), ranges))
        #expect(covered(Geohash.cell(lat: -16.5, lon: 180, precision: 8), ranges))
        #expect(covered(Geohash.cell(lat: -16.5, lon: -180, precision: 8), ranges))
        let boxes = GeohashCover.boundingBoxes(lat: -16.5, lon: -179.9999, radius: 100)
        #expect(boxes.count == 2)
    }

    @Test func polarQueriesTakeEveryLongitude() {
        let boxes = GeohashCover.boundingBoxes(lat: 89.9999, lon: 12, radius: 50)
        #expect(boxes.count == 1 && boxes[0].minLon == -180 && boxes[0].maxLon == 180 && boxes[0].maxLat == 90)
        let ranges = GeohashCover.cells(lat: 89.9999, lon: 12, radius: 50)
        #expect(covered(Geohash.cell(lat: 89.9999, lon: -168, precision: 8), ranges))
    }

    @Test func invalidInputsCoverNothing() {
        #expect(GeohashCover.cells(lat: .nan, lon: 0, radius: 10).isEmpty)
        #expect(GeohashCover.cells(lat: 0, lon: .infinity, radius: 10).isEmpty)
        #expect(GeohashCover.cells(lat: 0, lon: 0, radius: -1).isEmpty)
        #expect(GeohashCover.cells(lat: 0, lon: 0, radius: 0).count >= 1)
    }
}
