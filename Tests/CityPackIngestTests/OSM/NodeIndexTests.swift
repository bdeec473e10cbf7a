import CityPackTestSupport
import Testing

// @testable: tests NodeIndex, the OSM assembler's internal node table.
@testable import CityPackIngest

/// The node index's bucket table finds exactly the ids a plain binary search finds, for dense, sparse, negative
/// and extreme ids, with and without a position hint.
@Suite struct NodeIndexTests {
    func check(_ sortedIDs: [Int64], probes: [Int64]) {
        let index = NodeIndex(
            order: sortedIDs.indices.map { Int32($0) }, ids: sortedIDs,
            lats: sortedIDs.map { _ in 1 }, lons: sortedIDs.map { _ in 2 })
        func expected(_ id: Int64) -> Int? {
            var lo = 0, hi = sortedIDs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sortedIDs[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < sortedIDs.count && sortedIDs[lo] == id ? lo : nil
        }
        var rng = SplitMix64(seed: 9)
        index.withLookup { lookup in
            var hint = -1
            for id in probes {
                #expect(index.index(of: id) == expected(id), "id \(id)")
                let found = lookup.index(of: id, near: hint)
                #expect(found == expected(id), "id \(id) near \(hint)")
                hint = found ?? hint
                // Any hint, near or far, gives the same answer.
                if !sortedIDs.isEmpty {
                    let other = Int.random(in: 0..<sortedIDs.count, using: &rng)
                    #expect(lookup.index(of: id, near: other) == expected(id), "id \(id) near \(other)")
                    let close = max(0, min(sortedIDs.count - 1, (expected(id) ?? other) + Int.random(in: -70...70, using: &rng)))
                    #expect(lookup.index(of: id, near: close) == expected(id), "id \(id) near \(close)")
                }
            }
        }
    }

    @Test func findsWhatBinarySearchFinds() {
        var rng = SplitMix64(seed: 3)
        let dense = (1...5000).map { Int64($0) }
        check(dense, probes: [0, 1, 2, 4999, 5000, 5001, -1] + dense.shuffled(using: &rng).prefix(500))
        var sparse = Set<Int64>()
        while sparse.count < 3000 { sparse.insert(Int64.random(in: -5_000_000_000...12_000_000_000, using: &rng)) }
        let sortedSparse = sparse.sorted()
        var probes = sortedSparse.shuffled(using: &rng).prefix(1000).map { $0 }
        probes += (0..<1000).map { _ in Int64.random(in: -6_000_000_000...13_000_000_000, using: &rng) }
        probes += sortedSparse.map { $0 + 1 }.prefix(200)
        check(sortedSparse, probes: probes)
        check([Int64.min, -1, 0, Int64.max], probes: [Int64.min, Int64.min + 1, -1, 0, 1, Int64.max, Int64.max - 1])
        check([42], probes: [41, 42, 43])
        check([], probes: [0, 1])
    }
}
