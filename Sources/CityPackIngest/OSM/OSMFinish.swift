import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import CityPackSupport
import Foundation

/// What ``OSMReader/finish()`` does once every file is read, by what it finishes: duplicate ids and the node
/// index, way references, way POIs, multipolygon POIs (``placeMultipolygons()``) and the result with its bounds
/// and newest timestamp.
struct OSMFinish {
    /// Everything the adapters fed.
    let elements: OSMAssembler
    /// Node positions by id (first occurrence of each id).
    let index: NodeIndex

    /// Reports duplicate element ids and builds the node index.
    init(_ elements: OSMAssembler) {
        self.elements = elements
        let nodeOrder = Self.reportDuplicates(elements.nodes, "n", "node", in: elements)
        _ = Self.reportDuplicates(elements.ways, "w", "way", in: elements)
        _ = Self.reportDuplicates(elements.relations, "r", "relation", in: elements)
        index = NodeIndex(order: nodeOrder, ids: elements.nodes.ids, lats: elements.nodeLats, lons: elements.nodeLons)
    }

    var bag: DiagnosticBag { elements.bag }

    /// Where element `i` of `table` starts.
    func location(_ table: ElementTable, _ i: Int) -> SourceLocation {
        SourceLocation(
            file: elements.displayPaths[Int(table.files[i])], line: Int(table.lines[i]), column: Int(table.columns[i]))
    }

    /// Reports every repeated id of `table`; returns the insertion indices in id order, first occurrences only.
    private static func reportDuplicates(
        _ table: ElementTable, _ letter: String, _ noun: String, in elements: OSMAssembler
    ) -> [Int32] {
        func location(_ i: Int) -> SourceLocation {
            SourceLocation(
                file: elements.displayPaths[Int(table.files[i])], line: Int(table.lines[i]), column: Int(table.columns[i]))
        }
        return table.uniqueOrder { first, second in
            elements.bag.report(
                Rules.osmDuplicateElementID, "\(noun) \(table.ids[second]) appears more than once",
                at: location(second), entity: "\(letter)\(table.ids[second])",
                notes: [Diagnostic.Note("first occurrence of \(noun) \(table.ids[first])", at: location(first))])
        }
    }

    // MARK: Way references

    /// The ways (by index) that reference nodes not in the input: how many, and the first.
    ///
    /// Ways of change files may reference unchanged nodes, which such files do not contain, and are skipped.
    /// The lookups (a binary search per node reference) run on every core, in chunks of ways.
    func missingReferences() -> [Int: (count: Int, first: Int64)] {
        let chunk = 4096
        let ways = elements.ways
        let chunks = (ways.count + chunk - 1) / chunk
        let gaps = ChunkResults<[(way: Int, count: Int, first: Int64)]>(count: chunks, initial: [])
        let (wayCount, wayFiles, changeFiles) = (ways.count, ways.files, elements.changeFiles)
        let (wayRefs, wayOffsets, index) = (elements.wayRefs, elements.wayOffsets, index)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            var found: [(way: Int, count: Int, first: Int64)] = []
            index.withLookup { lookup in
            wayRefs.withUnsafeBufferPointer { refs in
            for w in (c * chunk)..<min(wayCount, (c + 1) * chunk) where !changeFiles.contains(wayFiles[w]) {
                var missing = 0
                var firstMissing: Int64 = 0
                var hint = -1
                for k in wayOffsets[w]..<wayOffsets[w + 1] {
                    let r = refs[k]
                    if let at = lookup.index(of: r, near: hint) {
                        hint = at
                        continue
                    }
                    if missing == 0 { firstMissing = r }
                    missing += 1
                }
                if missing > 0 { found.append((w, missing, firstMissing)) }
            }
            }
            }
            gaps.set(c, found)
        }
        var missingByWay: [Int: (count: Int, first: Int64)] = [:]
        for found in gaps.values { for gap in found { missingByWay[gap.way] = (gap.count, gap.first) } }
        return missingByWay
    }

    /// Warns about ways that are not POIs and reference nodes not in the input (clipped extracts: bbox cuts,
    /// osmium's "simple" strategy, Overpass). The pack does not use their geometry, so one warning per file, at
    /// its first incomplete way, with the next few as notes: a clipped extract has thousands of such ways
    /// (Milan: 2,952), and none of them changes the pack.
    func reportIncompleteWays(_ missingByWay: [Int: (count: Int, first: Int64)]) {
        let ways = elements.ways
        let poiWays = Set(elements.pendingWays.map(\.wayIndex))
        var incompleteByFile: [UInt16: [(way: Int, gap: (count: Int, first: Int64))]] = [:]
        for (w, gap) in missingByWay.sorted(by: { $0.key < $1.key }) where !poiWays.contains(w) {
            incompleteByFile[ways.files[w], default: []].append((w, gap))
        }
        func describe(_ w: Int, _ gap: (count: Int, first: Int64)) -> String {
            "way \(ways.ids[w]) references node \(gap.first)\(gap.count > 1 ? " and \(gap.count - 1) more" : "")"
        }
        for (_, incomplete) in incompleteByFile.sorted(by: { $0.key < $1.key }) {
            let (first, gap) = incomplete[0]
            let shown = 5
            var notes: [Diagnostic.Note] = []
            for (w, g) in incomplete.dropFirst().prefix(shown) { notes.append(Diagnostic.Note(describe(w, g), at: location(ways, w))) }
            if incomplete.count > shown + 1 {
                notes.append(Diagnostic.Note("and \(incomplete.count - shown - 1) more ways like these"))
            }
            let what = incomplete.count == 1
                ? describe(first, gap) + " not in the input (a clipped extract?); the way is not a POI"
                : "\(incomplete.count) ways that are not POIs reference nodes not in the input (a clipped extract?), the first: "
                    + describe(first, gap) + "; none is a POI"
            bag.report(
                Rules.osmIncompleteWay, what + ", so the pack is not affected", at: location(ways, first),
                entity: "w\(ways.ids[first])", notes: notes)
        }
    }

    // MARK: Way POIs

    /// Places the POIs of ways on their nodes. A POI way of a clipped extract keeps the nodes that are present
    /// and is placed on them (an `osm.missing_referenced_node` warning by default; a city file can make it an
    /// error), and is left out only when none are.
    func placeWayPOIs(_ missingByWay: [Int: (count: Int, first: Int64)]) -> [POI] {
        var pois: [POI] = []
        let (wayRefs, wayOffsets) = (elements.wayRefs, elements.wayOffsets)
        for pending in elements.pendingWays {
            let refs = wayRefs[wayOffsets[pending.wayIndex]..<wayOffsets[pending.wayIndex + 1]]
            var points: [(lat: Double, lon: Double)] = []
            points.reserveCapacity(refs.count)
            for r in refs {
                if let i = index.index(of: r), let p = index.coordinate(at: i) { points.append(p) }
            }
            var point: Coordinate?
            if let gap = missingByWay[pending.wayIndex] {
                point = WayGeometry.representativePoint(ofPartial: points, wasClosed: refs.count >= 4 && refs.first == refs.last)
                let others = gap.count > 1 ? " and \(gap.count - 1) more" : ""
                let what = "way \(pending.id) references node \(gap.first)\(others) not in the input (a clipped extract?)"
                if let point {
                    bag.report(
                        Rules.osmMissingReferencedNode,
                        "\(what); the POI is placed on the \(points.count) of its \(refs.count) nodes that are present, "
                            + "at \(point.lat), \(point.lon)",
                        at: location(elements.ways, pending.wayIndex), entity: "w\(pending.id)")
                } else {
                    bag.report(
                        Rules.osmMissingReferencedNode,
                        "\(what); none of its \(refs.count) nodes are present, so the POI is left out of the pack",
                        at: location(elements.ways, pending.wayIndex), entity: "w\(pending.id)")
                }
            } else if points.count == refs.count {
                point = WayGeometry.representativePoint(points)
            }  // else: a way of a change file whose unchanged nodes are elsewhere; not placed
            guard let point else { continue }
            var poi = POI(
                ref: OSMRef(.way, pending.id), coordinate: point, category: pending.category, name: pending.name,
                localizedNames: pending.localizedNames, tags: pending.tags, location: pending.location)
            poi.alsoCategories = pending.also
            pois.append(poi)
        }
        return pois
    }

    // MARK: Result

    /// The result: every POI sorted by ref (the first occurrence of each element kept), the counts, the data
    /// bounds and the newest timestamp.
    func result(
        wayPOIs: [POI], multipolygons: (pois: [POI], reports: [MultipolygonReport]), bytesRead: Int64
    ) -> OSMIngestResult {
        let all = elements.pois + wayPOIs + multipolygons.pois
        // Stable sort by ref, then keep the first occurrence of each element.
        let sorted = all.enumerated().sorted { ($0.element.ref, $0.offset) < ($1.element.ref, $1.offset) }
        var unique: [POI] = []
        unique.reserveCapacity(sorted.count)
        for (_, poi) in sorted where unique.last?.ref != poi.ref { unique.append(poi) }
        let s = elements
        var dataBounds: BoundingBox?
        if s.minLat <= s.maxLat {
            dataBounds = BoundingBox(
                minLon: DecimalE7.degrees(s.minLon), minLat: DecimalE7.degrees(s.minLat),
                maxLon: DecimalE7.degrees(s.maxLon), maxLat: DecimalE7.degrees(s.maxLat))
        }
        var result = OSMIngestResult(
            pois: unique, nodes: s.nodesSeen, ways: s.waysSeen, relations: s.relationsSeen, bytesRead: bytesRead,
            newestTimestamp: s.newestTimestamp.map(Self.timestampText), declaredBounds: s.declaredBounds,
            dataBounds: dataBounds)
        result.multipolygonPOIs = multipolygons.pois.count
        if s.options.assembleEveryMultipolygon { result.multipolygons = multipolygons.reports }
        return result
    }

    /// `YYYY-MM-DDThh:mm:ssZ` of a time in the years 0…9999 (see ``OSMAssembler/timestamp(_:)``).
    static func timestampText(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilDate.date(dayNumber: Int(days))
        let time = Int(seconds - days * 86_400)
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):\(pad(time % 60, 2))Z"
    }
}

/// One slot per chunk of a parallel loop, each written by exactly one iteration.
final class ChunkResults<T>: @unchecked Sendable {
    private var slots: [T]
    private let lock = NSLock()
    init(count: Int, initial: T) { slots = Array(repeating: initial, count: count) }
    func set(_ i: Int, _ value: T) { lock.lock(); slots[i] = value; lock.unlock() }
    var values: [T] { slots }
}
