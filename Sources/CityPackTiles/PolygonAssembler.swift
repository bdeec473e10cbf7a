/// Joins the quantised pieces of one clipped polygon (an exterior ring and its holes) into valid polygons: the
/// rectangle case of Weiler–Atherton, on integer tile units where every comparison is exact.
///
/// Input, per ring oriented as MVT wants (exterior positive area, holes negative, so the polygon's inside is always
/// on the same side): the runs the ring leaves inside the box (``addRun(_:)``; each starts and ends on the outline)
/// or the whole ring when it lies inside (``addRing(_:)``). Runs are cleaned and cut again wherever they touch the
/// outline or run along it. Then each run's exit is joined to the next entry met when walking the outline in the
/// exterior's direction, passing the corners between; entries and exits at the same place are ordered by the
/// angle their first segment makes with the outline, so a ring that only touches the outline is joined to itself.
/// Rings passing through a point twice are split there; the results are classed by the sign of their area
/// (shells and holes), each hole goes to the smallest shell holding it, and segments that still cross or touch
/// are looked for (``RingValidity/firstConflict(in:rings:isHole:)``).
///
/// Keeps scratch buffers: one per thread, fed polygon after polygon (`Sendable`, not shared).
package struct PolygonAssembler: Sendable {
    /// The box the pieces were clipped to.
    package private(set) var box: QuantizedBox

    private var runs = ContiguousArray<QuantizedPoint>()
    private var runEnds: [Int] = []
    private var closed = ContiguousArray<QuantizedPoint>()
    private var closedEnds: [Int] = []
    private var scratch = ContiguousArray<QuantizedPoint>()
    private var raw = ContiguousArray<QuantizedPoint>()
    private var rawEnds: [Int] = []
    private var seen: [QuantizedPoint: Int] = [:]
    /// The assembled rings, each open, shells with positive doubled area and holes negative.
    private(set) var rings = ContiguousArray<QuantizedPoint>()
    /// Each assembled ring's index range in ``rings``.
    private(set) var ringRanges: [Range<Int>] = []
    /// Each assembled ring's doubled area, square tile units.
    private(set) var areas: [Int64] = []
    /// The polygons ``assemble(coversBox:dropInvalid:)`` left.
    var output: [Polygon] = []

    /// An assembler for one box.
    package init(box: QuantizedBox) {
        self.box = box
    }

    /// Forgets every piece and assembled ring and sets the box for the next polygon.
    package mutating func reset(box: QuantizedBox) {
        self.box = box
        runs.removeAll(keepingCapacity: true)
        runEnds.removeAll(keepingCapacity: true)
        closed.removeAll(keepingCapacity: true)
        closedEnds.removeAll(keepingCapacity: true)
    }

    /// How many runs and whole rings were added since the last ``reset(box:)``.
    package var pieceCount: Int { runEnds.count + closedEnds.count }

    /// Whether any run crossing or touching the outline was added.
    package var hasRuns: Bool { !runEnds.isEmpty }

    /// Adds a run of a ring inside the box from the point where it enters to where it leaves (both on the
    /// outline: a point off it is moved to the nearest edge). It is cleaned (``RingValidity/appendCleaned(_:to:)``)
    /// and cut where it touches the outline or runs along it; pieces without length are dropped.
    /// - Parameter run: the run's points, integer tile units inside ``box``.
    package mutating func addRun<C: Collection>(_ run: C) where C.Element == QuantizedPoint {
        scratch.removeAll(keepingCapacity: true)
        RingValidity.appendCleaned(run, to: &scratch)
        guard scratch.count >= 2 else { return }
        scratch[0] = box.ontoOutline(scratch[0])
        scratch[scratch.count - 1] = box.ontoOutline(scratch[scratch.count - 1])
        cutRun()
    }

    /// Cuts `scratch` (a cleaned run whose ends are on the outline) at every point on the outline and drops the
    /// segments along it; appends the pieces to `runs`.
    private mutating func cutRun() {
        var start = runs.count
        runs.append(scratch[0])
        func end() {
            if runs.count - start >= 2 { runEnds.append(runs.count) } else { runs.removeSubrange(start...) }
            start = runs.count
        }
        for k in 1..<scratch.count {
            let b = scratch[k]
            if box.runsAlongOutline(scratch[k - 1], b) {
                end()
                runs.append(b)
            } else {
                runs.append(b)
                if k < scratch.count - 1 && box.isOnOutline(b) {
                    end()
                    runs.append(b)
                }
            }
        }
        end()
    }

    /// Adds a ring lying inside the box. Cleaned as a cycle; kept whole unless it touches the outline, where it is
    /// cut into runs (from one touching point to the next) like the pieces of ``addRun(_:)``.
    /// - Parameter ring: the ring's points, integer tile units inside ``box``, open or closed.
    package mutating func addRing<C: Collection>(_ ring: C) where C.Element == QuantizedPoint {
        scratch.removeAll(keepingCapacity: true)
        RingValidity.appendCleaned(ring, to: &scratch)
        guard RingValidity.closeCleaned(&scratch, from: 0) >= 3 else { return }
        guard let touch = scratch.firstIndex(where: box.isOnOutline) else {
            closed.append(contentsOf: scratch)
            closedEnds.append(closed.count)
            return
        }
        // Rotate to start (and end) at a point on the outline, then cut as a run.
        let n = scratch.count
        var rotated = ContiguousArray<QuantizedPoint>()
        rotated.reserveCapacity(n + 1)
        rotated.append(contentsOf: scratch[touch...])
        rotated.append(contentsOf: scratch[..<touch])
        rotated.append(scratch[touch])
        scratch = rotated
        cutRun()
    }

    /// One end of a run on the outline: where it is, the direction of its segment into the box, which run.
    private struct End {
        var position: Int64
        var dx: Int64, dy: Int64
        var run: Int
        var isEntry: Bool
    }

    /// Joins the runs along the outline, adds the whole rings (and the box itself when `coversBox` and no run
    /// was added), splits, cleans and classes the results, and looks for conflicts.
    /// - Parameters:
    ///   - coversBox: whether the polygon holds the whole box, judged by the caller (used only without runs).
    ///   - dropInvalid: on a conflict, drop the ring to blame (a shell with its holes) and look again, rather
    ///     than stop.
    /// - Returns: false when a conflict was found and `dropInvalid` is false (the output is then unusable).
    package mutating func assemble(coversBox: Bool, dropInvalid: Bool) -> Bool {
        raw.removeAll(keepingCapacity: true)
        rawEnds.removeAll(keepingCapacity: true)
        if hasRuns { walk() }
        var start = 0
        for e in closedEnds {
            raw.append(contentsOf: closed[start..<e])
            rawEnds.append(raw.count)
            start = e
        }
        if !hasRuns && coversBox {
            for k in 0..<4 { raw.append(box.corner(k).point) }
            rawEnds.append(raw.count)
        }
        output.removeAll(keepingCapacity: true)
        splitAndClass()
        return resolve(dropInvalid: dropInvalid)
    }

    /// The Weiler–Atherton walk: every run, from its exit along the outline to the next entry, into `raw`.
    private mutating func walk() {
        var ends: [End] = []
        ends.reserveCapacity(2 * runEnds.count)
        var start = 0
        for (r, e) in runEnds.enumerated() {
            let a = runs[start], a1 = runs[start + 1], z = runs[e - 1], z1 = runs[e - 2]
            let pa = box.place(a), pz = box.place(z)
            ends.append(End(position: pa.position, dx: Int64(a1.x) - Int64(a.x), dy: Int64(a1.y) - Int64(a.y), run: r, isEntry: true))
            ends.append(End(position: pz.position, dx: Int64(z1.x) - Int64(z.x), dy: Int64(z1.y) - Int64(z.y), run: r, isEntry: false))
            start = e
        }
        // Along the outline; at one place, the segment making the widest angle with the walk's direction first
        // (all point into the box, so the sign of a cross product orders them); exits before entries on a tie.
        ends.sort { u, v in
            if u.position != v.position { return u.position < v.position }
            let c = v.dx * u.dy - v.dy * u.dx
            if c != 0 { return c > 0 }
            if u.isEntry != v.isEntry { return !u.isEntry }
            return u.run < v.run
        }
        let m = ends.count
        var exitAt = [Int](repeating: 0, count: runEnds.count)
        var nextEntry = [Int](repeating: 0, count: m)
        var seenEntry = -1
        for k in stride(from: 2 * m - 1, through: 0, by: -1) {
            let i = k % m
            if ends[i].isEntry { seenEntry = i } else if k < m { nextEntry[i] = seenEntry; exitAt[ends[i].run] = i }
        }
        var used = [Bool](repeating: false, count: runEnds.count)
        let perimeter = box.perimeter
        for first in 0..<runEnds.count where !used[first] {
            var r = first
            var steps = 0
            repeat {
                used[r] = true
                raw.append(contentsOf: runs[(r == 0 ? 0 : runEnds[r - 1])..<runEnds[r]])
                let k = exitAt[r], n = nextEntry[k]
                let from = ends[k].position
                var length = (ends[n].position - from + perimeter) % perimeter
                if length == 0 && n < k { length = perimeter }
                appendCorners(from: from, length: length)
                r = ends[n].run
                steps += 1
            } while r != first && !used[r] && steps <= runEnds.count
            rawEnds.append(raw.count)
        }
    }

    /// Appends the outline's corners met walking `length` units on from perimeter position `from` (not those at
    /// either end).
    private mutating func appendCorners(from: Int64, length: Int64) {
        guard length > 0 else { return }
        let perimeter = box.perimeter
        var k = 0
        while k < 4 && box.corner(k).position <= from { k += 1 }
        for step in 0..<4 {
            let c = box.corner((k + step) % 4)
            let d = (c.position - from + perimeter) % perimeter
            if d == 0 || d >= length { break }
            raw.append(c.point)
        }
    }

    /// Cleans every ring of `raw`, splits it where it passes a point twice and keeps the pieces with area.
    private mutating func splitAndClass() {
        rings.removeAll(keepingCapacity: true)
        ringRanges.removeAll(keepingCapacity: true)
        areas.removeAll(keepingCapacity: true)
        var start = 0
        for e in rawEnds {
            scratch.removeAll(keepingCapacity: true)
            RingValidity.appendCleaned(raw[start..<e], to: &scratch)
            start = e
            guard RingValidity.closeCleaned(&scratch, from: 0) >= 3 else { continue }
            // Split: a stack of points with where each sits; a point met again closes the loop above it.
            seen.removeAll(keepingCapacity: true)
            var stack = ContiguousArray<QuantizedPoint>()
            stack.reserveCapacity(scratch.count)
            for p in scratch {
                if let j = seen[p] {
                    keep(stack[j...])
                    for q in stack[(j + 1)...] { seen[q] = nil }
                    stack.removeSubrange((j + 1)...)
                } else {
                    seen[p] = stack.count
                    stack.append(p)
                }
            }
            keep(stack[...])
        }
    }

    /// Cleans a loop as a cycle into `rings` and keeps it when it has 3 points and an area.
    private mutating func keep(_ loop: ArraySlice<QuantizedPoint>) {
        let base = rings.count
        RingValidity.appendCleaned(loop, to: &rings)
        let area = RingValidity.closeCleaned(&rings, from: base) >= 3 ? PolygonWinding.doubledArea(rings[base...]) : 0
        if area == 0 {
            rings.removeSubrange(base...)
        } else {
            ringRanges.append(base..<rings.count)
            areas.append(area)
        }
    }
}
