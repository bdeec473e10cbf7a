import CityPackGeometry
import Foundation
import CityPackModel

/// Builds the area of a `type=multipolygon` relation from its member ways and finds a point inside it.
///
/// Rings are assembled from every member way whatever its role (as osmium does: roles are often wrong, the
/// geometry decides): closed ways are rings of their own, open ways are joined end to end by shared node ids.
/// Which rings are outer and which are holes follows from nesting, so the area is the even–odd union of the
/// rings. The representative point is the pole of inaccessibility (the point inside farthest from any edge) of
/// the largest outer ring with its holes, found by quadtree cells in a priority queue.
///
/// Problems that make the area unreliable (a member way or node missing, a ring that does not close, a way
/// used twice, rings that cross or overlap, a spike, two nodes at one location) are returned as text; the caller
/// reports them. Work is bounded: the crossing check runs on relations of up to ``crossingCheckLimit``
/// segments and the point search visits at most ``cellLimit`` cells.
package enum Multipolygon {
    /// A member way as found in the input, with the positions of its nodes (nil where a node is missing).
    package struct MemberWay {
        package var id: Int64
        package var refs: [Int64]
        package var points: [(lat: Double, lon: Double)?]

        package init(id: Int64, refs: [Int64], points: [(lat: Double, lon: Double)?]) {
            self.id = id
            self.refs = refs
            self.points = points
        }
    }

    /// The assembled area and its point.
    package struct Outcome {
        /// Closed rings, as node positions in degrees (first = last).
        package var rings: [[(lat: Double, lon: Double)]] = []
        /// What is wrong with the relation; empty for a valid multipolygon.
        package var problems: [String] = []
        /// A point inside the area, rounded to 1e-7°; nil when no ring closed.
        package var point: Coordinate?
    }

    /// Most segments on which rings are checked for crossings and overlaps (the check is quadratic).
    package static let crossingCheckLimit = 4_000
    /// Most cells the point search examines.
    package static let cellLimit = 20_000

    /// Assembles the rings of a relation.
    /// - Parameters:
    ///   - ways: Member ways that are in the input, in member order.
    ///   - missingWays: Ids of member ways that are not in the input.
    package static func assemble(ways: [MemberWay], missingWays: [Int64]) -> Outcome {
        var outcome = Outcome()
        if let first = missingWays.first {
            let more = missingWays.count > 1 ? " and \(missingWays.count - 1) more" : ""
            outcome.problems.append("member way \(first)\(more) is not in the input (a clipped extract?)")
        }
        var seen = Set<Int64>()
        var usable: [MemberWay] = []
        for way in ways {
            guard seen.insert(way.id).inserted else {
                outcome.problems.append("way \(way.id) is a member more than once")
                continue
            }
            if let i = way.points.firstIndex(where: { $0 == nil }) {
                outcome.problems.append("way \(way.id) references node \(way.refs[i]), which is not in the input")
                continue
            }
            if way.refs.count >= 2 { usable.append(way) }
        }

        // Rings as node-id sequences with their positions, joined end to end.
        var rings: [(ids: [Int64], points: [(lat: Double, lon: Double)])] = []
        var open: [(ids: [Int64], points: [(lat: Double, lon: Double)])] = []
        for way in usable {
            let points = way.points.map { $0! }
            if way.refs.count >= 4 && way.refs.first == way.refs.last {
                rings.append((way.refs, points))
            } else {
                open.append((way.refs, points))
            }
        }
        while !open.isEmpty {
            var chain = open.removeFirst()
            while !(chain.ids.count >= 4 && chain.ids.first == chain.ids.last) {
                guard let end = chain.ids.last,
                    let i = open.firstIndex(where: { $0.ids.first == end || $0.ids.last == end })
                else { break }
                let next = open.remove(at: i)
                if next.ids.first == end {
                    chain.ids += next.ids.dropFirst()
                    chain.points += next.points.dropFirst()
                } else {
                    chain.ids += next.ids.reversed().dropFirst()
                    chain.points += next.points.reversed().dropFirst()
                }
            }
            if chain.ids.count >= 4 && chain.ids.first == chain.ids.last {
                rings.append(chain)
            } else {
                outcome.problems.append(
                    "a ring does not close: it runs from node \(chain.ids.first!) to node \(chain.ids.last!)")
            }
        }
        guard let origin = rings.first?.points.first else { return outcome }

        // Equirectangular projection around the first node, as for ways.
        let k = cos(origin.lat * .pi / 180)
        let xy: [[Point]] = rings.map { ring in
            ring.points.map { Point(x: ($0.lon - origin.lon) * k, y: $0.lat - origin.lat) }
        }
        var areas = xy.map(signedArea)
        var kept: [Int] = []
        for (i, area) in areas.enumerated() {
            if abs(area) < 1e-16 {
                outcome.problems.append("the ring through node \(rings[i].ids[0]) has no area")
            } else {
                kept.append(i)
            }
        }
        guard !kept.isEmpty else { return outcome }
        outcome.problems += sameLocationProblems(rings: kept.map { rings[$0] })
        var ringNodes: [Set<Int64>: Int] = [:]
        for i in kept {
            if let j = ringNodes[Set(rings[i].ids)] {
                outcome.problems.append("two rings run through the same nodes (from node \(rings[j].ids[0]))")
                break
            }
            ringNodes[Set(rings[i].ids)] = i
        }
        let keptXY = kept.map { xy[$0] }
        areas = kept.map { areas[$0] }
        outcome.rings = kept.map { rings[$0].points }

        // Nesting: a ring inside an even number of others is an outer ring, otherwise a hole.
        let outerRing = keptXY.indices.map { i in
            keptXY.indices.filter { j in j != i && contains(keptXY[j], interiorProbe(keptXY[i])) }.count % 2 == 0
        }
        if let problem = crossingProblem(keptXY, outer: outerRing) { outcome.problems.append(problem) }
        // The largest outer ring.
        var best: Int?
        for i in keptXY.indices where outerRing[i] && (best == nil || abs(areas[i]) > abs(areas[best!])) { best = i }
        guard let outer = best else { return outcome }
        let p = poleOfInaccessibility(largest: keptXY[outer], rings: keptXY)
        let lon = k > 1e-12 ? p.x / k + origin.lon : origin.lon
        outcome.point = Coordinate(lat: round7(p.y + origin.lat), lon: round7(lon))
        return outcome
    }

    /// Whether `point` (degrees) is inside the area, even–odd over all rings. For tests and conformance.
    package static func areaContains(_ rings: [[(lat: Double, lon: Double)]], lat: Double, lon: Double) -> Bool {
        var inside = false
        for ring in rings {
            let xy = ring.map { Point(x: $0.lon, y: $0.lat) }
            if contains(xy, Point(x: lon, y: lat)) { inside.toggle() }
        }
        return inside
    }

    // MARK: Geometry

    struct Point: Equatable {
        var x: Double
        var y: Double
    }

    private static func round7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }

    static func signedArea(_ ring: [Point]) -> Double {
        var a = 0.0
        for i in 0..<(ring.count - 1) { a += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y }
        return a / 2
    }

    /// Even–odd point-in-ring test (half-open on y).
    static func contains(_ ring: [Point], _ p: Point) -> Bool {
        var inside = false
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            if (a.y <= p.y) != (b.y <= p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }

    /// A point just inside the ring next to its first edge, used to decide nesting without hitting a vertex
    /// that two touching rings share.
    private static func interiorProbe(_ ring: [Point]) -> Point {
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            let len = hypot(b.x - a.x, b.y - a.y)
            guard len > 0 else { continue }
            let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            let step = len * 1e-4
            let normal = Point(x: -(b.y - a.y) / len * step, y: (b.x - a.x) / len * step)
            let left = Point(x: mid.x + normal.x, y: mid.y + normal.y)
            return contains(ring, left) ? left : Point(x: mid.x - normal.x, y: mid.y - normal.y)
        }
        return ring[0]
    }

    /// Distinct nodes at one location (they look joined but are not, so the area is ambiguous).
    private static func sameLocationProblems(rings: [(ids: [Int64], points: [(lat: Double, lon: Double)])]) -> [String] {
        var byLocation: [Int64: Int64] = [:]
        for ring in rings {
            for (id, p) in zip(ring.ids, ring.points) {
                let key = Int64((p.lat * 1e7).rounded()) &* 4_000_000_000 &+ Int64((p.lon * 1e7).rounded())
                if let other = byLocation[key], other != id {
                    return ["nodes \(min(id, other)) and \(max(id, other)) are at the same location"]
                }
                byLocation[key] = id
            }
        }
        return []
    }

    /// The first crossing, overlap, touch or spike between segments, if any (skipped on large relations).
    ///
    /// Rings may share a node, and may share whole segments when both are outer rings or both are holes (touching
    /// rings, which merge); a ring may run along one of its own segments twice when not in succession (an outer
    /// ring going back on itself). A segment shared by an outer ring and a hole, a partial overlap, a spike (a
    /// segment followed by its reverse), a crossing, or a node lying on another segment is a problem.
    private static func crossingProblem(_ rings: [[Point]], outer: [Bool]) -> String? {
        var segments: [(a: Point, b: Point, ring: Int, index: Int)] = []
        var lastIndex: [Int] = []
        for (r, ring) in rings.enumerated() {
            for i in 0..<(ring.count - 1) where ring[i] != ring[i + 1] {
                segments.append((ring[i], ring[i + 1], r, i))
            }
            lastIndex.append(segments.last(where: { $0.ring == r })?.index ?? 0)
        }
        guard segments.count <= crossingCheckLimit else { return nil }
        for i in 0..<segments.count {
            for j in (i + 1)..<segments.count {
                let s = segments[i], t = segments[j]
                guard max(s.a.x, s.b.x) >= min(t.a.x, t.b.x), max(t.a.x, t.b.x) >= min(s.a.x, s.b.x),
                    max(s.a.y, s.b.y) >= min(t.a.y, t.b.y), max(t.a.y, t.b.y) >= min(s.a.y, s.b.y)
                else { continue }
                let what: String
                switch relation(s.a, s.b, t.a, t.b) {
                case .none: continue
                case .identical:
                    if s.ring == t.ring {
                        let consecutive = t.index == s.index + 1 || (s.index == 0 && t.index == lastIndex[s.ring])
                        guard consecutive else { continue }
                        what = "a ring has a spike (a segment followed by its reverse)"
                    } else {
                        guard outer[s.ring] != outer[t.ring] else { continue }
                        what = "an outer ring and a hole share a segment"
                    }
                case .overlap: what = "segments overlap along a line without sharing their nodes"
                case .crossing: what = s.ring == t.ring ? "a ring crosses itself" : "two rings cross"
                case .touch: what = "a node lies on another segment without being one of its nodes"
                }
                return what
            }
        }
        return nil
    }

    private enum SegmentRelation { case none, identical, overlap, crossing, touch }

    private static func orientation(_ a: Point, _ b: Point, _ c: Point) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Whether `p`, collinear with segment ab, lies strictly between a and b.
    private static func strictlyWithin(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        p != a && p != b && min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }

    /// How segments ab and cd meet. Sharing only an end point is `.none`.
    private static func relation(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> SegmentRelation {
        if (a == c && b == d) || (a == d && b == c) { return .identical }
        let o1 = orientation(a, b, c), o2 = orientation(a, b, d)
        let o3 = orientation(c, d, a), o4 = orientation(c, d, b)
        if o1 == 0 && o2 == 0 {
            let overlapping = strictlyWithin(c, a, b) || strictlyWithin(d, a, b) || strictlyWithin(a, c, d)
                || strictlyWithin(b, c, d)
            return overlapping ? .overlap : .none
        }
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) { return .crossing }
        if (o1 == 0 && strictlyWithin(c, a, b)) || (o2 == 0 && strictlyWithin(d, a, b))
            || (o3 == 0 && strictlyWithin(a, c, d)) || (o4 == 0 && strictlyWithin(b, c, d))
        {
            return .touch
        }
        return .none
    }

    // MARK: Pole of inaccessibility

    private struct Cell {
        var center: Point
        var half: Double
        var distance: Double
        var potential: Double { distance + half * 2.0.squareRoot() }
    }

    /// Signed distance from `p` to the area's boundary: positive inside (even–odd over all rings).
    private static func signedDistance(_ p: Point, _ rings: [[Point]]) -> Double {
        var inside = false
        var best = Double.infinity
        for ring in rings {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.y <= p.y) != (b.y <= p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
                var t = 0.0
                let dx = b.x - a.x, dy = b.y - a.y
                let len2 = dx * dx + dy * dy
                if len2 > 0 { t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) }
                let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
                best = min(best, ex * ex + ey * ey)
            }
        }
        return (inside ? 1 : -1) * best.squareRoot()
    }

    /// The point of the largest outer ring's box farthest inside the area (within a precision of 1/500 of the
    /// box's smaller side, and never finer than about 1 cm).
    private static func poleOfInaccessibility(largest: [Point], rings: [[Point]]) -> Point {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in largest {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let size = min(maxX - minX, maxY - minY)
        guard size > 0 else { return largest[0] }
        let precision = max(size / 500, 1e-7)
        var heap = CellHeap()
        func cell(_ c: Point, _ h: Double) -> Cell { Cell(center: c, half: h, distance: signedDistance(c, rings)) }
        // Start from the ring's centroid, then cover the box with square cells.
        var best = cell(centroid(largest) ?? largest[0], 0)
        let boxCenter = cell(Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2), 0)
        if boxCenter.distance > best.distance { best = boxCenter }
        let half = size / 2
        var x = minX
        while x < maxX {
            var y = minY
            while y < maxY {
                heap.push(cell(Point(x: x + half, y: y + half), half))
                y += size
            }
            x += size
        }
        var visited = 0
        while let c = heap.pop(), visited < cellLimit {
            visited += 1
            if c.distance > best.distance { best = c }
            guard c.potential - best.distance > precision else { continue }
            let h = c.half / 2
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] {
                heap.push(cell(Point(x: c.center.x + dx, y: c.center.y + dy), h))
            }
        }
        if best.distance <= 0 {
            // Degenerate (e.g. self-crossing) areas: any vertex-adjacent interior point beats none.
            return interiorProbe(largest)
        }
        return best.center
    }

    /// The area centroid of a closed ring; nil when it has no area.
    static func centroid(_ ring: [Point]) -> Point? {
        var a2 = 0.0, cx = 0.0, cy = 0.0
        for i in 0..<(ring.count - 1) {
            let cross = ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y
            a2 += cross
            cx += (ring[i].x + ring[i + 1].x) * cross
            cy += (ring[i].y + ring[i + 1].y) * cross
        }
        guard abs(a2) > 1e-18 else { return nil }
        return Point(x: cx / (3 * a2), y: cy / (3 * a2))
    }

    /// A binary max-heap of cells by potential; ties go to the earlier cell, so the search is deterministic.
    private struct CellHeap {
        private var items: [(cell: Cell, order: Int)] = []
        private var counter = 0

        private func above(_ i: Int, _ j: Int) -> Bool {
            let a = items[i], b = items[j]
            return a.cell.potential > b.cell.potential || (a.cell.potential == b.cell.potential && a.order < b.order)
        }

        mutating func push(_ cell: Cell) {
            items.append((cell, counter))
            counter += 1
            var i = items.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard above(i, parent) else { break }
                items.swapAt(i, parent)
                i = parent
            }
        }

        mutating func pop() -> Cell? {
            guard !items.isEmpty else { return nil }
            items.swapAt(0, items.count - 1)
            let top = items.removeLast().cell
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && above(l, m) { m = l }
                if r < items.count && above(r, m) { m = r }
                guard m != i else { break }
                items.swapAt(i, m)
                i = m
            }
            return top
        }
    }
}
