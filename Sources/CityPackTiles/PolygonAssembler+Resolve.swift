extension PolygonAssembler {
    /// A shell of the assembled output and its holes, as indices of assembled rings.
    struct Polygon: Sendable {
        var shell: Int
        var holes: [Int]
    }

    /// Builds the polygons from the classed rings and checks them: each hole goes to the smallest shell holding
    /// it (a hole in no shell is dropped); a shell inside another one, and segments that cross or touch, are
    /// conflicts.
    /// - Parameter dropInvalid: drop the ring to blame and look again, instead of returning false.
    /// - Returns: false on a conflict when `dropInvalid` is false.
    mutating func resolve(dropInvalid: Bool) -> Bool {
        let count = ringRanges.count
        var bounds: [(Int32, Int32, Int32, Int32)] = []
        bounds.reserveCapacity(count)
        for r in ringRanges {
            var b = (Int32.max, Int32.max, Int32.min, Int32.min)
            for p in rings[r] {
                b.0 = Swift.min(b.0, p.x); b.1 = Swift.min(b.1, p.y)
                b.2 = Swift.max(b.2, p.x); b.3 = Swift.max(b.3, p.y)
            }
            bounds.append(b)
        }
        func within(_ i: Int, _ o: Int) -> Bool {
            let a = bounds[i], b = bounds[o]
            return a.0 >= b.0 && a.1 >= b.1 && a.2 <= b.2 && a.3 <= b.3
                && RingValidity.isInside(rings[ringRanges[i]], rings[ringRanges[o]])
        }
        let shells = (0..<count).filter { areas[$0] > 0 }
        var polygons: [Polygon] = []
        var slot = [Int](repeating: -1, count: count)
        for s in shells {
            // A shell inside another is not something a valid input clipped to a box can give.
            if shells.contains(where: { $0 != s && areas[$0] >= areas[s] && within(s, $0) }) {
                if !dropInvalid { return false }
                continue
            }
            slot[s] = polygons.count
            polygons.append(Polygon(shell: s, holes: []))
        }
        for h in 0..<count where areas[h] < 0 {
            var best = -1
            for s in shells where slot[s] >= 0 && -areas[h] < areas[s] && within(h, s) {
                if best < 0 || areas[s] < areas[best] { best = s }
            }
            if best >= 0 { polygons[slot[best]].holes.append(h) }
        }
        while true {
            var order: [Range<Int>] = []
            var isHole: [Bool] = []
            var who: [(Int, Int?)] = []  // (polygon, hole index within it)
            for (k, poly) in polygons.enumerated() {
                order.append(ringRanges[poly.shell]); isHole.append(false); who.append((k, nil))
                for (j, h) in poly.holes.enumerated() {
                    order.append(ringRanges[h]); isHole.append(true); who.append((k, j))
                }
            }
            guard let bad = RingValidity.firstConflict(in: rings, rings: order, isHole: isHole) else { break }
            if !dropInvalid { return false }
            let (k, j) = who[bad]
            if let j { polygons[k].holes.remove(at: j) } else { polygons.remove(at: k) }
        }
        output = polygons
        return true
    }

    /// Appends the assembled polygons to `geometry`: each shell (positive area) followed by its holes (negative).
    /// - Parameter geometry: a polygon geometry.
    package func append(to geometry: inout TileGeometry) {
        for poly in output {
            for r in [poly.shell] + poly.holes {
                geometry.points.append(contentsOf: rings[ringRanges[r]])
                geometry.ends.append(geometry.points.count)
            }
        }
    }
}
