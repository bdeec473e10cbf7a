import CCityPackXML2
#if canImport(Glibc)
import Glibc
#endif
import CityPackDiagnostics
import CityPackFormat
import CityPackModel
import Foundation

/// Streams OSM XML (`.osm`, `.osm.gz`) into POIs with libxml2's SAX2 push parser.
///
/// Call ``read(file:displayPath:)`` for each file of a city, then ``finish()`` once. Node coordinates of all
/// files are kept compactly (files may be unsorted, ways may precede their nodes); way geometry, reference
/// checks and duplicate checks run in ``finish()``. Problems in the data are diagnostics in the bag; only
/// unrecoverable I/O throws. The caller stops the build when the bag has errors.
///
/// Elements are keyed by type and id across all files: the same node in two files is an
/// `osm.duplicate_element_id` error and the first occurrence is kept. `<osmChange>` files are accepted
/// (`<delete>` sections are skipped and their ways are not checked for missing nodes). POIs come from nodes, ways
/// and `type=multipolygon` relations (their area is assembled from the member ways, see ``Multipolygon``); other
/// relations are counted and checked, not turned into POIs.
///
/// Security: DTDs and entity declarations are rejected (`osm.entity_declaration`), never expanded or loaded;
/// no network access; inputs are bounded by ``OSMReadOptions``.
///
/// Not thread-safe: use one reader from one task.
public final class OSMReader {
    /// Owned; callbacks reach it through libxml2's user-data pointer.
    private let state: UnsafeMutablePointer<OSMParseState>
    private let options: OSMReadOptions
    private var buffer: UnsafeMutableRawPointer
    private var bytesRead: Int64 = 0
    private var finished = false

    /// Chunk size fed to the parser: 1 MiB (libxml2 rejects single chunks over 10 MB without XML_PARSE_HUGE).
    static let chunkSize = 1 << 20

    /// - Parameters:
    ///   - profile: Decides which elements are POIs and which tags are kept.
    ///   - bag: Receives every diagnostic.
    ///   - options: Bounds and the progress callback.
    public init(profile: any POIProfile, bag: DiagnosticBag, options: OSMReadOptions = .init()) {
        self.state = UnsafeMutablePointer<OSMParseState>.allocate(capacity: 1)
        self.state.initialize(to: OSMParseState(profile: profile, bag: bag, options: options))
        self.options = options
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Reads one OSM XML file. May be called for several files before ``finish()``.
    /// - Parameters:
    ///   - path: File to open; a name ending in `.gz` is gunzipped while streaming.
    ///   - displayPath: Path used in diagnostics and POI locations (relative to the city directory).
    /// - Throws: ``OSMReadError`` when the file cannot be opened or read; data problems are diagnostics.
    public func read(file path: String, displayPath: String) throws {
        guard !finished else { throw OSMReadError.alreadyFinished }
        let input = try OSMInputStream(path: path)
        defer { input.close() }
        let fileIndex = UInt16(truncatingIfNeeded: state.pointee.displayPaths.count)
        state.pointee.displayPaths.append(displayPath)
        if input.fileSize > options.maxInputBytes {
            state.pointee.displayPath = displayPath
            state.pointee.limitExceeded(
                "file is \(input.fileSize) bytes, more than the limit of \(options.maxInputBytes); not read",
                at: SourceLocation(file: displayPath), stopParsing: false)
            return
        }
        if Self.isPBF(path: path) {
            readPBF(path: path, fileIndex: fileIndex, displayPath: displayPath, fileSize: input.fileSize)
            return
        }
        var sax = Self.saxHandler()
        let user = UnsafeMutableRawPointer(state)
        guard let ctxt = xmlCreatePushParserCtxt(&sax, user, nil, 0, displayPath) else {
            throw OSMReadError.parserUnavailable(path: path)
        }
        defer {
            state.pointee.ctxt = nil
            xmlFreeParserCtxt(ctxt)
        }
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue))
        state.pointee.begin(file: fileIndex, displayPath: displayPath, ctxt: ctxt)
        // Some errors (character-encoding conversion, I/O) are raised without the parser context, so they skip
        // the SAX handler's `serror` and would go to stderr while the file silently reads as empty. Route them
        // to the same state for the duration of this file (libxml2 keeps this setting per thread).
        xmlSetStructuredErrorFunc(user) { ctx, error in
            guard let ctx, let error else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee.parserError(error)
        }
        defer { xmlSetStructuredErrorFunc(nil, nil) }

        var fileBytes: Int64 = 0
        var nextProgress = options.progressInterval
        while true {
            switch try input.read(into: buffer, capacity: Self.chunkSize) {
            case .end:
                xmlParseChunk(ctxt, nil, 0, 1)
            case .corrupt(let message):
                state.pointee.compressedStreamCorrupt(message)
            case .bytes(let n):
                fileBytes += Int64(n)
                bytesRead += Int64(n)
                if fileBytes > options.maxInputBytes {
                    state.pointee.limitExceeded(
                        "more than \(options.maxInputBytes) bytes of XML after decompression; reading stopped",
                        at: state.pointee.currentPosition(), stopParsing: true)
                    break
                }
                xmlParseChunk(ctxt, buffer.assumingMemoryBound(to: CChar.self), Int32(n), 0)
                if !state.pointee.stopped && !state.pointee.malformed {
                    if let progress = options.progress, input.offset >= nextProgress {
                        nextProgress = input.offset + options.progressInterval
                        progress(input.offset, input.fileSize)
                    }
                    continue
                }
            }
            break
        }
        // Any error libxml2 recorded but no callback delivered still rejects the file.
        if ctxt.pointee.wellFormed == 0 && !state.pointee.stopped && !state.pointee.malformed {
            state.pointee.malformedWithoutMessage(code: Int(ctxt.pointee.errNo))
        }
        options.progress?(input.fileSize, input.fileSize)
    }

    /// Whether the file starts like OSM PBF: a big-endian BlobHeader length under 64 KiB, then a BlobHeader whose
    /// first field is the type "OSMHeader".
    package static func isPBF(path: String) -> Bool {
        guard let f = fopen(path, "rb") else { return false }
        defer { fclose(f) }
        var bytes = [UInt8](repeating: 0, count: 15)
        guard fread(&bytes, 1, 15, f) == 15 else { return false }
        let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return length < 64 * 1024 && bytes[4] == 0x0A && bytes[5] == 9 && Array(bytes[6..<15]) == Array("OSMHeader".utf8)
    }

    /// Reads an OSM PBF file: elements get line = blob index, column = element index within the blob.
    ///
    /// Blocks are independent, so they are inflated and decoded on every core (``PBFDecodePipeline``) while this
    /// thread hands their elements, in file order, to the same state the XML path uses. At most a few blocks per
    /// core are in flight, so memory stays bounded whatever the file size.
    private func readPBF(path: String, fileIndex: UInt16, displayPath: String, fileSize: Int64) {
        state.pointee.beginPBF(file: fileIndex, displayPath: displayPath)
        do throws(PBFError) {
            // Tag keys are judged on the decode threads: elements without a kept key come without tags.
            let profile = state.pointee.profile
            let filter = PBFTagFilter(maxTags: options.maxTagsPerElement, maxValueBytes: options.maxValueBytes) { key in
                TagKeyDecision.decide(key, profile: profile).isKept ? profile.classificationRelevance(ofKey: key) : .never
            }
            let pipeline = try PBFDecodePipeline(path: path, workers: options.pbfWorkers, filter: filter)
            var blobIndex: Int32 = 0
            var nextProgress = options.progressInterval
            defer { pipeline.drain() }
            while let decoded = try pipeline.next() {
                defer { blobIndex += 1 }
                switch decoded {
                case .header(let header, let offset):
                    for feature in header.requiredFeatures
                    where !PBFBlockDecoder.supportedRequiredFeatures.contains(feature) {
                        throw .unsupportedRequiredFeature(feature, blobOffset: offset)
                    }
                case .data(let block):
                    if let newest = block.newestTimestamp { state.pointee.decodedTimestamp(newest) }
                    var column = state.pointee.nodes(of: block, line: blobIndex)
                    var t = 0
                    for i in block.wayIDs.indices {
                        column += 1
                        var tags: [(String, String)] = []
                        if t < block.wayTags.count && block.wayTags[t].index == i {
                            tags = block.wayTags[t].tags
                            t += 1
                        }
                        state.pointee.way(
                            id: block.wayIDs[i], refs: block.wayRefs[block.refRange(ofWay: i)], tags: tags, line: blobIndex,
                            column: column)
                    }
                    for r in block.relations {
                        column += 1
                        state.pointee.relation(
                            id: r.id, members: r.members, tags: r.tags, line: blobIndex, column: column)
                    }
                case .other: break
                }
                if let progress = options.progress, pipeline.offset >= nextProgress {
                    nextProgress = pipeline.offset + options.progressInterval
                    progress(pipeline.offset, fileSize)
                }
            }
        } catch {
            state.pointee.pbfError(error)
        }
        bytesRead += fileSize
        options.progress?(fileSize, fileSize)
    }

    /// Checks references and duplicates across all files read, places way POIs and returns the result.
    ///
    /// Call once; the reader cannot be used afterwards.
    public func finish() -> OSMIngestResult {
        finished = true
        let s = state.pointee
        let bag = s.bag
        func location(_ table: ElementTable, _ i: Int) -> SourceLocation {
            SourceLocation(file: s.displayPaths[Int(table.files[i])], line: Int(table.lines[i]), column: Int(table.columns[i]))
        }
        func reportDuplicates(_ table: ElementTable, _ letter: String, _ noun: String) -> [Int32] {
            table.uniqueOrder { first, second in
                bag.report(
                    Rules.osmDuplicateElementID, "\(noun) \(table.ids[second]) appears more than once",
                    at: location(table, second), entity: "\(letter)\(table.ids[second])",
                    notes: [Diagnostic.Note("first occurrence of \(noun) \(table.ids[first])", at: location(table, first))])
            }
        }
        var lap = TimeTrace.Lap()
        let nodeOrder = reportDuplicates(s.nodes, "n", "node")
        _ = reportDuplicates(s.ways, "w", "way")
        _ = reportDuplicates(s.relations, "r", "relation")
        let index = NodeIndex(order: nodeOrder, ids: s.nodes.ids, lats: s.nodeLats, lons: s.nodeLons)
        lap.mark("osm finish: duplicates, node index")

        // Ways of change files may reference unchanged nodes, which such files do not contain. Clipped extracts
        // (bbox cuts, osmium's "simple" strategy, Overpass) cut ways at their edge: a POI way keeps the nodes that
        // are present and is placed on them (a warning by default; a city file can make it an error), and is
        // left out only when none are. Any other way only makes a warning, as the pack does not use its geometry.
        // The lookups (a binary search per node reference) run on every core, in chunks of ways.
        let chunk = 4096
        let chunks = (s.ways.count + chunk - 1) / chunk
        let gaps = ChunkResults<[(way: Int, count: Int, first: Int64)]>(count: chunks, initial: [])
        let (wayCount, wayFiles, changeFiles) = (s.ways.count, s.ways.files, s.changeFiles)
        let (wayRefs, wayOffsets) = (s.wayRefs, s.wayOffsets)
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
        lap.mark("osm finish: way references")
        var missingByWay: [Int: (count: Int, first: Int64)] = [:]
        for found in gaps.values { for gap in found { missingByWay[gap.way] = (gap.count, gap.first) } }
        let poiWays = Set(s.pendingWays.map(\.wayIndex))
        // One warning per file, at its first incomplete way, with the next few as notes: a clipped extract has
        // thousands of such ways (Milan: 2,952), and none of them changes the pack.
        var incompleteByFile: [UInt16: [(way: Int, gap: (count: Int, first: Int64))]] = [:]
        for (w, gap) in missingByWay.sorted(by: { $0.key < $1.key }) where !poiWays.contains(w) {
            incompleteByFile[s.ways.files[w], default: []].append((w, gap))
        }
        func describe(_ w: Int, _ gap: (count: Int, first: Int64)) -> String {
            "way \(s.ways.ids[w]) references node \(gap.first)\(gap.count > 1 ? " and \(gap.count - 1) more" : "")"
        }
        for (_, ways) in incompleteByFile.sorted(by: { $0.key < $1.key }) {
            let (first, gap) = ways[0]
            let shown = 5
            var notes: [Diagnostic.Note] = []
            for (w, g) in ways.dropFirst().prefix(shown) { notes.append(Diagnostic.Note(describe(w, g), at: location(s.ways, w))) }
            if ways.count > shown + 1 {
                notes.append(Diagnostic.Note("and \(ways.count - shown - 1) more ways like these"))
            }
            let what = ways.count == 1 ? describe(first, gap) + " not in the input (a clipped extract?); the way is not a POI"
                : "\(ways.count) ways that are not POIs reference nodes not in the input (a clipped extract?), the first: "
                    + describe(first, gap) + "; none is a POI"
            bag.report(
                Rules.osmIncompleteWay, what + ", so the pack is not affected", at: location(s.ways, first),
                entity: "w\(s.ways.ids[first])", notes: notes)
        }

        var pois = s.pois
        for pending in s.pendingWays {
            let refs = s.wayRefs[s.wayOffsets[pending.wayIndex]..<s.wayOffsets[pending.wayIndex + 1]]
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
                        at: location(s.ways, pending.wayIndex), entity: "w\(pending.id)")
                } else {
                    bag.report(
                        Rules.osmMissingReferencedNode,
                        "\(what); none of its \(refs.count) nodes are present, so the POI is left out of the pack",
                        at: location(s.ways, pending.wayIndex), entity: "w\(pending.id)")
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
        lap.mark("osm finish: way POIs")
        let (relationPOIs, multipolygons) = placeMultipolygons(s, index: index, location: location)
        lap.mark("osm finish: multipolygons")
        pois += relationPOIs
        // Stable sort by ref, then keep the first occurrence of each element.
        let sorted = pois.enumerated().sorted { ($0.element.ref, $0.offset) < ($1.element.ref, $1.offset) }
        var unique: [POI] = []
        unique.reserveCapacity(sorted.count)
        for (_, poi) in sorted where unique.last?.ref != poi.ref { unique.append(poi) }

        var dataBounds: BoundingBox?
        if s.minLat <= s.maxLat {
            dataBounds = BoundingBox(
                minLon: DecimalE7.degrees(s.minLon), minLat: DecimalE7.degrees(s.minLat),
                maxLon: DecimalE7.degrees(s.maxLon), maxLat: DecimalE7.degrees(s.maxLat))
        }
        var result = OSMIngestResult(
            pois: unique, nodes: s.nodesSeen, ways: s.waysSeen, relations: s.relationsSeen, bytesRead: bytesRead,
            newestTimestamp: s.newestTimestamp.isEmpty ? nil : String(decoding: s.newestTimestamp, as: UTF8.self),
            declaredBounds: s.declaredBounds, dataBounds: dataBounds)
        result.multipolygonPOIs = relationPOIs.count
        if options.assembleEveryMultipolygon { result.multipolygons = multipolygons }
        return result
    }

    /// Assembles each pending multipolygon relation and places its POI: inside its rings, else on a member node,
    /// else nowhere; any problem is an `osm.multipolygon_invalid` warning on the relation.
    private func placeMultipolygons(
        _ s: OSMParseState, index: NodeIndex, location: (ElementTable, Int) -> SourceLocation
    ) -> (pois: [POI], reports: [MultipolygonReport]) {
        guard !s.pendingRelations.isEmpty else { return ([], []) }
        // Member ways by id (first occurrence), looked up once for all relations.
        let wanted = Set(s.pendingRelations.flatMap(\.ways))
        var wayIndex: [Int64: Int] = [:]
        for (i, id) in s.ways.ids.enumerated() where wanted.contains(id) && wayIndex[id] == nil { wayIndex[id] = i }
        func position(_ ref: Int64) -> (lat: Double, lon: Double)? {
            index.index(of: ref).flatMap { index.coordinate(at: $0) }
        }
        var pois: [POI] = []
        var reports: [MultipolygonReport] = []
        for relation in s.pendingRelations {
            var members: [Multipolygon.MemberWay] = []
            var missing: [Int64] = []
            for id in relation.ways {
                guard let w = wayIndex[id] else {
                    missing.append(id)
                    continue
                }
                let refs = Array(s.wayRefs[s.wayOffsets[w]..<s.wayOffsets[w + 1]])
                members.append(Multipolygon.MemberWay(id: id, refs: refs, points: refs.map(position)))
            }
            let outcome = Multipolygon.assemble(ways: members, missingWays: missing)
            var point = outcome.point
            var placement = point.map { "the POI is placed inside its \(outcome.rings.count) closed ring\(outcome.rings.count == 1 ? "" : "s"), at \($0.lat), \($0.lon)" }
            if point == nil {
                if let (node, p) = relation.nodes.lazy.compactMap({ n in position(n).map { (n, $0) } }).first {
                    point = Coordinate(lat: p.lat, lon: p.lon)
                    placement = "no ring closes, so the POI is placed on its member node \(node)"
                } else {
                    placement = "no ring closes and no member node is present, so the POI is left out of the pack"
                }
            }
            if relation.category != nil, !outcome.problems.isEmpty || outcome.point == nil {
                let problems = outcome.problems.isEmpty ? ["it has no closed ring"] : outcome.problems
                s.bag.report(
                    Rules.osmMultipolygonInvalid,
                    "multipolygon relation \(relation.id): \(problems.joined(separator: "; ")); \(placement ?? "")",
                    at: relation.location, entity: "r\(relation.id)")
            }
            reports.append(
                MultipolygonReport(
                    id: relation.id, isPOI: relation.category != nil,
                    rings: outcome.rings.map { $0.map { Coordinate(lat: $0.lat, lon: $0.lon) } }, point: point,
                    pointFromRings: outcome.point != nil, problems: outcome.problems))
            guard let category = relation.category, let point else { continue }
            var poi = POI(
                ref: OSMRef(.relation, relation.id), coordinate: point, category: category, name: relation.name,
                localizedNames: relation.localizedNames, tags: relation.tags, location: relation.location)
            poi.alsoCategories = relation.also
            pois.append(poi)
        }
        return (pois, reports)
    }

    /// One slot per chunk of a parallel loop, each written by exactly one iteration.
    private final class ChunkResults<T>: @unchecked Sendable {
        private var slots: [T]
        private let lock = NSLock()
        init(count: Int, initial: T) { slots = Array(repeating: initial, count: count) }
        func set(_ i: Int, _ value: T) { lock.lock(); slots[i] = value; lock.unlock() }
        var values: [T] { slots }
    }

    /// The SAX2 handler: element start/end, structured errors, and traps for every DTD construct.
    private static func saxHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            guard let ctx, let localname else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee
                .startElement(localname, Int(nbAttributes), attributes)
        }
        sax.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee.endElement()
        }
        sax.serror = { ctx, error in
            guard let ctx, let error else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee.parserError(error)
        }
        sax.internalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee.declaration("a DOCTYPE declaration")
        }
        sax.externalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee.declaration("an external DTD subset")
        }
        sax.entityDecl = { ctx, _, _, _, _, _ in
            guard let ctx else { return }
            ctx.assumingMemoryBound(to: OSMParseState.self).pointee.declaration("an entity declaration")
        }
        return sax
    }
}
