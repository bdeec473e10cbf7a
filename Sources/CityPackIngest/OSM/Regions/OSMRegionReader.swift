import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import CityPackSupport
import Foundation

/// Reads one OSM PBF file for several regions (the cities of a fleet, or one city cut from a bigger extract) at
/// once: each element goes to every region whose box holds it, as `osmium extract` does with the
/// `complete_ways` strategy — nodes by position, a way with all its nodes when any of its nodes lies inside,
/// a relation when any member node or way went to the region. Each region's ``OSMReader`` then sees its share as
/// if it had read a file of its own, and is finished as usual.
///
/// Memory follows the regions, never the file: only the ids and positions of the regions' own nodes are kept,
/// plus the nodes their ways need from outside the box. That takes two passes:
/// 1. Every blob: nodes inside a box go to their regions at once; ways and relations are routed by the nodes
///    (and ways) already routed; the ids of the nodes a routed way needs from outside its region's box are
///    collected, with each node blob's id range.
/// 2. Only the node blobs whose id range holds a needed id are read again, and those nodes go to the regions
///    that need them (a sorted file lists nodes before the ways that use them, so they cannot be kept in pass 1
///    without keeping every node). For one region whose file holds few nodes outside its box (at most as many as
///    inside, or 2¹⁸ — a city read from its own extract), pass 1 keeps those and pass 2 is not needed.
///
/// Elements outside every box are not the regions' problem: they are decoded, never stored or reported. A PBF
/// framing or decoding error is reported to every region. At most ``maxRegions`` regions share a pass.
public enum OSMRegionReader {
    /// Regions that share one pass (one bit each of a 64-bit mask).
    public static let maxRegions = 64

    /// One region: its box and the reader its share goes to.
    public struct Region {
        public var box: BoundingBox
        public var reader: OSMReader
        /// The file's path as the region's diagnostics show it.
        public var displayPath: String
        /// Where the box is written (the city file's `bbox:`), for `osm.bbox_outside_source`.
        public var boxLocation: SourceLocation?

        public init(box: BoundingBox, reader: OSMReader, displayPath: String, boxLocation: SourceLocation? = nil) {
            self.box = box
            self.reader = reader
            self.displayPath = displayPath
            self.boxLocation = boxLocation
        }
    }

    /// What one shared read did, for the fleet's figures.
    public struct Figures: Sendable {
        public var fileBytes: Int64 = 0
        /// Blobs decoded in pass 1 and in pass 2 (pass 2 skips node blobs without a needed node).
        public var blobs = 0
        public var secondPassBlobs = 0
        /// Nodes kept for all regions together: inside a box, and needed from outside.
        public var nodesInside = 0
        public var nodesNeeded = 0
        /// The file's size and SHA-256 from the bytes pass 1 read (when asked for with `hashing`), so that a
        /// caller who needs both reads the file once.
        public var digest: FileDigest?

        public init() {}
    }

    /// Reads `path` once for `regions` (at most ``maxRegions``), `workers` threads inflating and decoding.
    /// Data problems are reported into each region's bag; a file that cannot be opened throws.
    @discardableResult
    /// - Parameter keepOutside: Most nodes outside the box kept in pass 1 when there is one region (nil: as many
    ///   as inside, at least 2¹⁸; 0 always takes pass 2 — tests).
    /// - Parameter hashing: Whether to hash the file from pass 1's reads into ``Figures/digest``.
    public static func read(path: String, regions: [Region], workers: Int, keepOutside: Int? = nil, hashing: Bool = false) throws -> Figures {
        precondition(regions.count <= maxRegions, "at most \(maxRegions) regions share a pass")
        var figures = Figures()
        guard !regions.isEmpty else { return figures }
        let input = try OSMInputStream(path: path)
        let fileSize = input.fileSize
        input.close()
        figures.fileBytes = fileSize
        // Regions whose limits refuse the file get that finding and nothing else.
        var active: [Int] = []
        for (r, region) in regions.enumerated()
        where region.reader.beginSharedFile(displayPath: region.displayPath, fileSize: fileSize) != nil {
            active.append(r)
        }
        guard !active.isEmpty else { return figures }
        let grid = RegionGrid(boxes: active.map { boxE7(regions[$0].box) })
        let readers = active.map { regions[$0].reader }
        var router = Router(readers: readers, grid: grid)
        router.fixedSpillBudget = keepOutside
        let filter = unionFilter(readers)

        // Pass 1.
        var failure: PBFError?
        do throws(PBFError) {
            // Each node's regions and the block's extent are worked out on the decode threads.
            let pipeline = try PBFDecodePipeline(
                path: path, workers: workers, filter: filter, transform: { block in Self.locate(&block, grid: grid) },
                hashing: hashing)
            defer {
                pipeline.drain()
                figures.digest = pipeline.digest(fileSize: fileSize)
            }
            var blob: Int32 = 0
            let progress = readers.compactMap(\.options.progress)
            var nextProgress = readers[0].options.progressInterval
            while let decoded = try pipeline.next() {
                defer { blob += 1 }
                switch decoded {
                case .header(let header, let offset):
                    for feature in header.requiredFeatures where !PBFBlockDecoder.supportedRequiredFeatures.contains(feature) {
                        throw .unsupportedRequiredFeature(feature, blobOffset: offset)
                    }
                case .data(let block): router.firstPass(block, line: blob)
                case .other: break
                }
                if !progress.isEmpty, pipeline.offset >= nextProgress {
                    nextProgress = pipeline.offset + readers[0].options.progressInterval
                    for p in progress { p(pipeline.offset, fileSize) }
                }
            }
            figures.blobs = Int(blob)
        } catch {
            failure = error
        }

        // The nodes outside some box, when they were few enough to keep (a city built from its own extract),
        // give the needed ones without a second pass.
        if failure == nil && router.spilling && !router.needed.isEmpty {
            router.feedNeededFromSpill()
        }
        // Pass 2: the node blobs that hold a needed node.
        if failure == nil && !router.spilling && !router.needed.isEmpty {
            let ranges = router.nodeRanges
            let needed = router.needed
            var wanted = Set<Int32>()
            for (blob, range) in ranges where needed.mayContain(from: range.lo, through: range.hi) { wanted.insert(blob) }
            figures.secondPassBlobs = wanted.count
            let nodesOnly = PBFTagFilter(maxTags: .max, maxValueBytes: .max) { _ in .never }
            do throws(PBFError) {
                let pipeline = try PBFDecodePipeline(
                    path: path, workers: workers, filter: nodesOnly, keep: { wanted.contains(Int32($0)) })
                defer { pipeline.drain() }
                var blob: Int32 = 0
                while let decoded = try pipeline.next() {
                    defer { blob += 1 }
                    if case .data(let block) = decoded { router.secondPass(block, line: blob) }
                }
            } catch {
                failure = error
            }
        }
        if failure == nil, let extent = router.extent {
            for r in active where !overlaps(boxE7(regions[r].box), extent) {
                let region = regions[r]
                let e = { (v: Int32) in DecimalText.fixed(Double(v) / 1e7, places: 4) }
                region.reader.withSink { sink in
                    sink.bag.report(
                        Rules.osmBBoxOutsideSource,
                        "the city bbox [\(region.box.array.map { String($0) }.joined(separator: ", "))] does not overlap "
                            + "\(region.displayPath), whose nodes lie within [\(e(extent.minLon)), \(e(extent.minLat)), "
                            + "\(e(extent.maxLon)), \(e(extent.maxLat))]; no element of it is in the city",
                        at: region.boxLocation ?? SourceLocation(file: region.displayPath))
                }
            }
        }
        figures.nodesInside = router.inside.count
        figures.nodesNeeded = router.needed.count
        for reader in readers {
            reader.endSharedFile(fileSize: fileSize, failure: failure)
            reader.options.progress?(fileSize, fileSize)
        }
        return figures
    }

    /// A box in 1e-7 degrees, widened to whole units so that its edges hold what `BoundingBox.contains` holds.
    static func boxE7(_ box: BoundingBox) -> (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32) {
        func e7(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int32 {
            Int32(max(-1_800_000_000, min(1_800_000_000, (v * 1e7).rounded(rule))))
        }
        return (e7(box.minLat, .down), e7(box.minLon, .down), e7(box.maxLat, .up), e7(box.maxLon, .up))
    }

    /// Fills in a block's ``PBFPrimitiveBlock/nodeRegions`` and ``PBFPrimitiveBlock/nodeExtent``.
    static func locate(_ block: inout PBFPrimitiveBlock, grid: RegionGrid) {
        let count = block.nodeIDs.count
        guard count > 0 else { return }
        var regions = [UInt64](repeating: 0, count: count)
        var (la0, lo0, la1, lo1) = (Int32.max, Int32.max, Int32.min, Int32.min)
        block.nodeLatE7.withUnsafeBufferPointer { lats in
            block.nodeLonE7.withUnsafeBufferPointer { lons in
                for i in 0..<count {
                    let lat = lats[i], lon = lons[i]
                    regions[i] = grid.mask(latE7: lat, lonE7: lon)
                    guard abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000 else { continue }
                    la0 = min(la0, Int32(lat))
                    la1 = max(la1, Int32(lat))
                    lo0 = min(lo0, Int32(lon))
                    lo1 = max(lo1, Int32(lon))
                }
            }
        }
        block.nodeRegions = regions
        if la0 <= la1 { block.nodeExtent = (la0, lo0, la1, lo1) }
        var low = Int64.max, high = Int64.min
        for id in block.nodeIDs {
            low = min(low, id)
            high = max(high, id)
        }
        block.nodeIDRange = low...high
    }

    /// Whether a box (minLon > maxLon across the antimeridian) meets the file's node extent.
    static func overlaps(
        _ box: (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32),
        _ e: (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32)
    ) -> Bool {
        guard box.minLat <= e.maxLat, box.maxLat >= e.minLat else { return false }
        if box.minLon <= box.maxLon { return box.minLon <= e.maxLon && box.maxLon >= e.minLon }
        return e.maxLon >= box.minLon || e.minLon <= box.maxLon
    }

    /// One tag filter for every region's profile: a key matters when it matters to any of them.
    static func unionFilter(_ readers: [OSMReader]) -> PBFTagFilter {
        let profiles = readers.map(\.profile)
        let options = readers[0].options
        let maxTags = readers.map(\.options.maxTagsPerElement).min() ?? options.maxTagsPerElement
        let maxValue = readers.map(\.options.maxValueBytes).min() ?? options.maxValueBytes
        return PBFTagFilter(maxTags: maxTags, maxValueBytes: maxValue) { key in
            var merged = TagRelevance.never
            for profile in profiles {
                let relevance = TagKeyDecision.decide(key, profile: profile).isKept ? profile.classificationRelevance(ofKey: key) : .never
                switch (merged, relevance) {
                case (_, .never): break
                case (.never, _): merged = relevance
                case (.anyValue, _), (_, .anyValue): merged = .anyValue
                case (.values(let a), .values(let b)): merged = .values(a.union(b))
                }
            }
            return merged
        }.memoizingKeys()
    }
}

/// The routing state of one ``OSMRegionReader`` pass: which ids went to which regions.
private struct Router {
    let readers: [OSMReader]
    let grid: RegionGrid
    /// Nodes inside a region's box, with the regions.
    var inside = RegionIDMap()
    /// Ways routed to a region, with the regions (for relations).
    var ways = RegionIDMap()
    /// Nodes a routed way needs from outside a region's box, with the regions that need them.
    var needed = RegionIDMap()
    /// Each node blob's id range (pass 2 reads only those holding a needed id).
    var nodeRanges: [(Int32, (lo: Int64, hi: Int64))] = []
    /// For one region, the nodes outside its box, kept while they number at most ``spillBudget``: a city read
    /// from its own extract then needs no second pass. Dropped, for good, once over budget.
    private(set) var spilling = true
    private var spillIDs: [Int64] = []
    private var spillLats: [Int64] = []
    private var spillLons: [Int64] = []
    private var spillLines: [Int32] = []
    private var spillColumns: [Int32] = []
    /// As many as the nodes inside the box so far, and at least 2¹⁸, unless fixed.
    var fixedSpillBudget: Int?
    private var spillBudget: Int { fixedSpillBudget ?? max(inside.count, 1 << 18) }
    /// Where the file's valid nodes lie, in 1e-7 degrees.
    var extent: (minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32)?

    /// Every region's bit.
    let allRegions: UInt64

    init(readers: [OSMReader], grid: RegionGrid) {
        self.readers = readers
        self.grid = grid
        allRegions = readers.count >= 64 ? .max : (1 << UInt64(readers.count)) - 1
        // With several regions nearly every node lies outside some box: keeping them would hold the file.
        spilling = readers.count == 1
    }

    /// Calls `body` with each region index of `mask`.
    @inline(__always)
    private func each(_ mask: UInt64, _ body: (Int) -> Void) {
        var m = mask
        while m != 0 {
            body(m.trailingZeroBitCount)
            m &= m - 1
        }
    }

    mutating func firstPass(_ block: PBFPrimitiveBlock, line: Int32) {
        if let newest = block.newestTimestamp { for reader in readers { reader.withSink { $0.timestamp(newest) } } }
        let ids = block.nodeIDs
        if let range = block.nodeIDRange {
            nodeRanges.append((line, (range.lowerBound, range.upperBound)))
            if let e = block.nodeExtent {
                let (la0, lo0, la1, lo1) = extent ?? e
                extent = (min(la0, e.0), min(lo0, e.1), max(la1, e.2), max(lo1, e.3))
            }
        }
        // Worked out on the decode thread (``OSMRegionReader/locate(_:grid:)``).
        let regions = block.nodeRegions
        // Runs of untagged nodes bound for the same regions go over at once (the sink's bulk path), as a
        // region's nodes sit together in a block; tagged nodes one by one.
        let (lats, lons, tagged) = (block.nodeLatE7, block.nodeLonE7, block.nodeTags)
        var t = 0
        var i = 0
        while i < ids.count {
            let mask = regions[i]
            // A node outside some box may be what a way of that box's region needs.
            if spilling && mask != allRegions { spill(ids[i], lats[i], lons[i], line, Int32(i + 1)) }
            guard mask != 0 else {
                i += 1
                continue
            }
            inside.insert(ids[i], mask)
            while t < tagged.count && tagged[t].index < i { t += 1 }
            if t < tagged.count && tagged[t].index == i {
                let (id, lat, lon, tags, column) = (ids[i], lats[i], lons[i], tagged[t].tags, Int32(i + 1))
                each(mask) { r in
                    readers[r].withSink { $0.node(id: id, latE7: lat, lonE7: lon, tags: tags, line: line, column: column) }
                }
                i += 1
                continue
            }
            let nextTagged = t < tagged.count ? tagged[t].index : ids.count
            var end = i + 1
            while end < nextTagged && regions[end] == mask {
                inside.insert(ids[end], mask)
                end += 1
            }
            let start = i
            each(mask) { r in
                readers[r].withSink { sink in
                    var k = start
                    while k < end {
                        k += sink.untaggedNodes(
                            ids: ids[k..<end], latE7: lats[k..<end], lonE7: lons[k..<end], line: line, firstColumn: Int32(k + 1))
                        if k < end {
                            // An invalid position: the full path reports it.
                            sink.node(id: ids[k], latE7: lats[k], lonE7: lons[k], tags: [], line: line, column: Int32(k + 1))
                            k += 1
                        }
                    }
                }
            }
            i = end
        }
        var column = Int32(ids.count)
        var w = 0
        for i in block.wayIDs.indices {
            column += 1
            let refs = block.wayRefs[block.refRange(ofWay: i)]
            var tags: [(String, String)] = []
            if w < block.wayTags.count && block.wayTags[w].index == i {
                tags = block.wayTags[w].tags
                w += 1
            }
            var mask: UInt64 = 0
            for ref in refs { mask |= inside.mask(of: ref) }
            guard mask != 0 else { continue }
            let id = block.wayIDs[i]
            ways.insert(id, mask)
            for ref in refs {
                let missing = mask & ~inside.mask(of: ref)
                if missing != 0 { needed.insert(ref, missing) }
            }
            each(mask) { r in readers[r].withSink { $0.way(id: id, refs: refs, tags: tags, line: line, column: column) } }
        }
        for relation in block.relations {
            column += 1
            var mask: UInt64 = 0
            for member in relation.members {
                switch member.type {
                case .node: mask |= inside.mask(of: member.ref)
                case .way: mask |= ways.mask(of: member.ref)
                case .relation: break
                }
            }
            guard mask != 0 else { continue }
            each(mask) { r in
                readers[r].withSink {
                    $0.relation(
                        id: relation.id, members: relation.members.lazy.map { ($0.type.kind, $0.ref) }, tags: relation.tags,
                        line: line, column: column)
                }
            }
        }
    }

    /// Keeps a node outside every box while the budget allows.
    @inline(__always)
    private mutating func spill(_ id: Int64, _ lat: Int64, _ lon: Int64, _ line: Int32, _ column: Int32) {
        guard spillIDs.count < spillBudget else {
            spilling = false
            spillIDs = []
            spillLats = []
            spillLons = []
            spillLines = []
            spillColumns = []
            return
        }
        spillIDs.append(id)
        spillLats.append(lat)
        spillLons.append(lon)
        spillLines.append(line)
        spillColumns.append(column)
    }

    /// Hands the kept outside nodes that routed ways need to their regions, in file order (what pass 2 would do).
    mutating func feedNeededFromSpill() {
        for k in spillIDs.indices {
            let mask = needed.mask(of: spillIDs[k])
            guard mask != 0 else { continue }
            let (id, lat, lon, line, column) = (spillIDs[k], spillLats[k], spillLons[k], spillLines[k], spillColumns[k])
            each(mask) { r in readers[r].withSink { $0.node(id: id, latE7: lat, lonE7: lon, tags: [], line: line, column: column) } }
        }
    }

    mutating func secondPass(_ block: PBFPrimitiveBlock, line: Int32) {
        let ids = block.nodeIDs
        for i in ids.indices {
            let mask = needed.mask(of: ids[i])
            guard mask != 0 else { continue }
            let (lat, lon) = (block.nodeLatE7[i], block.nodeLonE7[i])
            let column = Int32(i + 1)
            // Tags are not decoded in this pass: a node outside the box is never the region's POI.
            each(mask) { r in readers[r].withSink { $0.node(id: ids[i], latE7: lat, lonE7: lon, tags: [], line: line, column: column) } }
        }
    }
}
