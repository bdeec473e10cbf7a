import CityPackTestSupport
import Testing

@testable import CityPackIngest  // @testable: RegionIDMap and RegionGrid are the region reader's internals.

@Suite struct RegionIDMapTests {
    /// Masks as a dictionary would keep them, for ids in one chunk, mixed chunks, far chunks and beyond the
    /// dense range; misses are 0.
    @Test func masksMatchADictionary() {
        var map = RegionIDMap()
        var expected: [Int64: UInt64] = [:]
        var rng = SplitMix64(seed: 7)
        let ids: [Int64] = (0..<20_000).map { _ in Int64(rng.next() % 200_000) } + [-5, 1 << 41, 8191, 8192, 0]
        for (n, id) in ids.enumerated() {
            // Mostly one region per run of 3 000 ids (runs straddle chunks), some ids re-inserted with more regions.
            let mask: UInt64 = n % 97 == 0 ? 0b110 : 1 << UInt64(((id / 3000) % 5 + 5) % 5)
            map.insert(id, mask)
            expected[id, default: 0] |= mask
        }
        #expect(map.count == expected.count)
        for (id, mask) in expected { #expect(map.mask(of: id) == mask, "\(id)") }
        for id: Int64 in [1, 199_999, 300_000, 1 << 42, -6, 123_457] where expected[id] == nil {
            #expect(map.mask(of: id) == 0, "\(id)")
        }
        // Ranges: a range holding a stored id may contain; one past every stored id does not.
        let top = expected.keys.filter { $0 >= 0 && $0 < 1 << 40 }.max()!
        #expect(map.mayContain(from: top, through: top + 10))
        #expect(!map.mayContain(from: top + 1, through: top + 100_000))
    }

    @Test func gridHoldsPointsOfItsBoxesOnly() {
        // Two boxes, one across the antimeridian; edges are inside.
        let grid = RegionGrid(boxes: [
            (minLat: 100, minLon: 100, maxLat: 200, maxLon: 200),
            (minLat: -100, minLon: 1_790_000_000, maxLat: 100, maxLon: -1_790_000_000),
        ])
        #expect(grid.mask(latE7: 150, lonE7: 150) == 0b01)
        #expect(grid.mask(latE7: 100, lonE7: 200) == 0b01)
        #expect(grid.mask(latE7: 99, lonE7: 150) == 0)
        #expect(grid.mask(latE7: 0, lonE7: 1_795_000_000) == 0b10)
        #expect(grid.mask(latE7: 0, lonE7: -1_795_000_000) == 0b10)
        #expect(grid.mask(latE7: 0, lonE7: 0) == 0)
        #expect(grid.mask(latE7: 100, lonE7: 150) == 0b01)
    }
}
