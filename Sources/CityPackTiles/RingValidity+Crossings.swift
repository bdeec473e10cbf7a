extension RingValidity {
    /// Finds a ring to blame for segments that touch or cross where a valid polygon may not, or nil when there is
    /// none. Within one ring, segments that are not neighbours may not share any point, and neighbours may not
    /// overlap. Segments of two different rings may not cross, overlap, or touch except at a point that is a
    /// corner of both (a hole may touch its shell at a vertex; one that crosses through a shared vertex is not
    /// seen: a known limit).
    ///
    /// Segments are put into a grid of about one cell per segment over the rings' bounding box (a long segment
    /// into every cell its box covers); each pair sharing a cell is tested once, in the cell holding the
    /// north-west corner of the overlap of their boxes. Near-linear on rings of real data.
    /// - Parameters:
    ///   - points: the rings' points, integer tile units.
    ///   - rings: each ring's index range in `points` (open rings of at least 3 points).
    ///   - isHole: per ring, whether it is a hole (blamed before a shell when two rings meet).
    /// - Returns: the index in `rings` of the ring to drop, or nil.
    package static func firstConflict(
        in points: ContiguousArray<QuantizedPoint>, rings: [Range<Int>], isHole: [Bool]
    ) -> Int? {
        var segments = 0
        var x0 = Int32.max, y0 = Int32.max, x1 = Int32.min, y1 = Int32.min
        for r in rings {
            segments += r.count
            for p in points[r] {
                x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x)
                y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y)
            }
        }
        guard segments > 0 else { return nil }
        // Per segment: its ring and the index of its first point (the second follows, wrapping in its ring).
        var ringOf = [Int32](repeating: 0, count: segments)
        var startOf = [Int32](repeating: 0, count: segments)
        var endOf = [Int32](repeating: 0, count: segments)
        var s = 0
        for (k, r) in rings.enumerated() {
            for i in r {
                ringOf[s] = Int32(k)
                startOf[s] = Int32(i)
                endOf[s] = Int32(i + 1 == r.upperBound ? r.lowerBound : i + 1)
                s += 1
            }
        }
        let side = Swift.max(1, Swift.min(2048, Int(Double(segments).squareRoot())))
        let cellW = Swift.max(1, (Int64(x1) - Int64(x0)) / Int64(side) + 1)
        let cellH = Swift.max(1, (Int64(y1) - Int64(y0)) / Int64(side) + 1)
        @inline(__always) func cx(_ x: Int32) -> Int { Int((Int64(x) - Int64(x0)) / cellW) }
        @inline(__always) func cy(_ y: Int32) -> Int { Int((Int64(y) - Int64(y0)) / cellH) }
        // Counting sort of (cell, segment) pairs.
        var first = [Int](repeating: 0, count: side * side + 1)
        func cells(_ s: Int, _ body: (Int) -> Void) {
            let a = points[Int(startOf[s])], b = points[Int(endOf[s])]
            for y in cy(Swift.min(a.y, b.y))...cy(Swift.max(a.y, b.y)) {
                for x in cx(Swift.min(a.x, b.x))...cx(Swift.max(a.x, b.x)) { body(y * side + x) }
            }
        }
        for s in 0..<segments { cells(s) { first[$0 + 1] += 1 } }
        for c in 0..<(side * side) { first[c + 1] += first[c] }
        var fill = first
        var members = [Int32](repeating: 0, count: first[side * side])
        for s in 0..<segments {
            cells(s) { c in
                members[fill[c]] = Int32(s)
                fill[c] += 1
            }
        }
        for c in 0..<(side * side) where first[c + 1] - first[c] >= 2 {
            for i in first[c]..<(first[c + 1] - 1) {
                let s1 = Int(members[i])
                let a = points[Int(startOf[s1])], b = points[Int(endOf[s1])]
                for j in (i + 1)..<first[c + 1] {
                    let s2 = Int(members[j])
                    let p = points[Int(startOf[s2])], q = points[Int(endOf[s2])]
                    // Boxes must overlap; test the pair only in the cell of the overlap's north-west corner.
                    let ox = Swift.max(Swift.min(a.x, b.x), Swift.min(p.x, q.x))
                    let oy = Swift.max(Swift.min(a.y, b.y), Swift.min(p.y, q.y))
                    guard ox <= Swift.min(Swift.max(a.x, b.x), Swift.max(p.x, q.x)),
                        oy <= Swift.min(Swift.max(a.y, b.y), Swift.max(p.y, q.y)),
                        cy(oy) * side + cx(ox) == c
                    else { continue }
                    let r1 = Int(ringOf[s1]), r2 = Int(ringOf[s2])
                    if conflict(s1, s2, sameRing: r1 == r2, a, b, p, q, startOf: startOf, endOf: endOf) {
                        if r1 == r2 { return r1 }
                        if isHole[r1] != isHole[r2] { return isHole[r1] ? r1 : r2 }
                        return Swift.max(r1, r2)
                    }
                }
            }
        }
        return nil
    }

    /// Whether two segments a → b (segment s1) and p → q (s2) meet where a valid polygon may not.
    @inline(__always)
    private static func conflict(
        _ s1: Int, _ s2: Int, sameRing: Bool, _ a: QuantizedPoint, _ b: QuantizedPoint,
        _ p: QuantizedPoint, _ q: QuantizedPoint, startOf: [Int32], endOf: [Int32]
    ) -> Bool {
        if sameRing {
            // Neighbours share a point of the ring: only overlapping beyond it is wrong.
            if endOf[s1] == startOf[s2] && endOf[s2] == startOf[s1] { return true }  // a 2-point ring
            if endOf[s1] == startOf[s2] { return overlapAt(b, a, q) }
            if endOf[s2] == startOf[s1] { return overlapAt(a, b, p) }
            return intersects(a, b, p, q)
        }
        guard intersects(a, b, p, q) else { return false }
        // Different rings: touching at a corner of both is allowed, unless the segments overlap.
        if a == p { return overlapAt(a, b, q) }
        if a == q { return overlapAt(a, b, p) }
        if b == p { return overlapAt(b, a, q) }
        if b == q { return overlapAt(b, a, p) }
        return true
    }
}
