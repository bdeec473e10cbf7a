import CityPackTestSupport
import CityPackFormat
import Testing

/// An independent geohash encoder (textbook bisection over characters) to check the bit arithmetic against.
private func referenceGeohash(lat: Double, lon: Double, precision: Int) -> String {
    let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz")
    var latRange = (-90.0, 90.0)
    var lonRange = (-180.0, 180.0)
    var out = ""
    var evenBit = true
    var bit = 0
    var ch = 0
    while out.count < precision {
        if evenBit {
            let mid = (lonRange.0 + lonRange.1) / 2
            if lon >= mid { ch = ch << 1 | 1; lonRange.0 = mid } else { ch <<= 1; lonRange.1 = mid }
        } else {
            let mid = (latRange.0 + latRange.1) / 2
            if lat >= mid { ch = ch << 1 | 1; latRange.0 = mid } else { ch <<= 1; latRange.1 = mid }
        }
        evenBit.toggle()
        bit += 1
        if bit == 5 {
            out.append(alphabet[ch])
            bit = 0
            ch = 0
        }
    }
    return out
}

@Suite struct GeohashTests {
    @Test(arguments: [
        (57.64911, 10.40744, "u4pruydqqvj"),
        (42.6, -5.6, "ezs42"),
        (0.0, 0.0, "s0000000"),
        (-90.0, -180.0, "00000000"),
        (90.0, 180.0, "zzzzzzzz"),
        (-0.000001, -0.000001, "7zzzzzzz"),
    ])
    func encodesKnownGeohashes(lat: Double, lon: Double, expected: String) {
        #expect(Geohash.encode(lat: lat, lon: lon, precision: expected.count) == expected)
    }

    @Test func decodesKnownGeohash() throws {
        let g = try #require(Geohash("ezs42"))
        let b = g.bounds
        #expect(abs(b.minLat - 42.583_007_812_5) < 1e-12)
        #expect(abs(b.maxLat - 42.626_953_125) < 1e-12)
        #expect(abs(b.minLon - -5.625) < 1e-12)
        #expect(abs(b.maxLon - -5.581_054_687_5) < 1e-12)
        #expect(abs(g.center.lat - 42.605) < 0.001 && abs(g.center.lon - -5.603) < 0.001)
        #expect(Geohash("EZS42") == g)
        #expect(Geohash("ezs4a") == nil)  // `a` is not in the alphabet
        #expect(Geohash("") == nil)
        #expect(Geohash("0123456789bcd") == nil)  // 13 characters
    }

    @Test func matchesReferenceEncoderAtEveryPrecision() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<3000 {
            let lat = Double.random(in: -90...90, using: &rng)
            let lon = Double.random(in: -180...180, using: &rng)
            for p in 1...12 {
                #expect(Geohash.encode(lat: lat, lon: lon, precision: p) == referenceGeohash(lat: lat, lon: lon, precision: p))
            }
        }
    }

    @Test func gridLinesBelongToTheCellAboveThem() {
        // Points exactly on precision-8 grid lines fall in the cell that starts there, as bisection decides.
        var rng = SplitMix64(seed: 2)
        let size = Geohash.cellSize(precision: 8)
        for _ in 0..<2000 {
            let row = Double(Int.random(in: 1..<(1 << 20), using: &rng))
            let col = Double(Int.random(in: 1..<(1 << 20), using: &rng))
            let lat = -90 + row * size.lat
            let lon = -180 + col * size.lon
            let g = Geohash(lat: lat, lon: lon, precision: 8)
            #expect(g.bounds.minLat == lat && g.bounds.minLon == lon)
            #expect(g.string == referenceGeohash(lat: lat, lon: lon, precision: 8))
            #expect(Geohash(lat: lat.nextDown, lon: lon.nextDown, precision: 8).bounds.maxLat == lat)
        }
    }

    @Test func integerAndStringFormsAgree() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            let lat = Double.random(in: -90...90, using: &rng)
            let lon = Double.random(in: -180...180, using: &rng)
            let fine = Geohash(lat: lat, lon: lon, precision: 12)
            for p in 1...12 {
                let g = Geohash(lat: lat, lon: lon, precision: p)
                let parsed = try #require(Geohash(g.string))
                #expect(parsed == g)
                #expect(Geohash.cell(lat: lat, lon: lon, precision: p) == g.cell)
                // A coarser prefix is a contiguous range of finer cells, and the string prefix agrees.
                #expect(fine.parent(precision: p) == g)
                #expect(g.range(atPrecision: 12).contains(fine.cell))
                #expect(fine.string.hasPrefix(g.string))
                let b = g.bounds
                #expect(b.minLat <= lat && (lat < b.maxLat || lat == 90))
                #expect(b.minLon <= lon && (lon < b.maxLon || lon == 180))
                #expect(Geohash(lat: g.center.lat, lon: g.center.lon, precision: p) == g)
                #expect(Geohash(latIndex: g.indices.lat, lonIndex: g.indices.lon, precision: p) == g)
            }
        }
        #expect(Geohash(cell: 1 << 40, precision: 8) == nil)
        #expect(Geohash(cell: (1 << 40) - 1, precision: 8)?.string == "zzzzzzzz")
    }

    @Test func neighboursAreTheAdjacentCells() throws {
        let g = try #require(Geohash("u4pruydq"))
        let size = Geohash.cellSize(precision: 8)
        let c = g.center
        let expected = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)].map { dLat, dLon in
            Geohash(lat: c.lat + Double(dLat) * size.lat, lon: c.lon + Double(dLon) * size.lon, precision: 8)
        }
        #expect(g.neighbors == expected)
        #expect(g.neighbor(latSteps: 1, lonSteps: 0)?.string == "u4pruydr")
        #expect(g.neighbor(latSteps: 0, lonSteps: 1)?.string == "u4pruydw")
        #expect(Set(g.neighbors.map(\.string)).count == 8)
        for n in g.neighbors { #expect(n.neighbors.contains(g)) }
    }

    @Test func neighboursWrapTheAntimeridianButNotThePoles() {
        let east = Geohash(lat: 10, lon: 179.9999, precision: 6)
        let west = Geohash(lat: 10, lon: -179.9999, precision: 6)
        #expect(east.neighbor(latSteps: 0, lonSteps: 1) == west)
        #expect(west.neighbor(latSteps: 0, lonSteps: -1) == east)
        let top = Geohash(lat: 89.9999, lon: 0, precision: 6)
        #expect(top.neighbor(latSteps: 1, lonSteps: 0) == nil)
        #expect(top.neighbors.count == 5)
        let bottom = Geohash(lat: -90, lon: 0, precision: 6)
        #expect(bottom.neighbor(latSteps: -1, lonSteps: 0) == nil)
    }

    @Test func greatCircleDistances() {
        // One degree of latitude on the sphere: R × π / 180.
        let degree = GreatCircle.earthRadius * Double.pi / 180
        #expect(abs(GreatCircle.distance(0, 0, 1, 0) - degree) < 1e-6)
        #expect(abs(GreatCircle.distance(0, 179.5, 0, -179.5) - degree) < 1e-6)
        #expect(GreatCircle.distance(48.8566, 2.3522, 48.8566, 2.3522) == 0)
        #expect(abs(GreatCircle.distance(90, 0, -90, 0) - Double.pi * GreatCircle.earthRadius) < 1e-6)
        // Paris–London ≈ 343.5 km on this sphere.
        let d = GreatCircle.distance(48.8566, 2.3522, 51.5074, -0.1278)
        #expect(abs(d - 343_500) < 1_000)
        #expect(GreatCircle.distance(1, 2, 3, 4) == GreatCircle.distance(3, 4, 1, 2))
    }
}
