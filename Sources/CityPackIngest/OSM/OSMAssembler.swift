import CityPackDiagnostics
import CityPackGeometry
import CityPackModel
import CityPackSupport

/// The kind of an OSM element (and of a relation member).
enum OSMElementKind {
    case node, way, relation
}

/// A POI candidate from a way; its position is computed once every node is known.
struct PendingWayPOI {
    var wayIndex: Int
    var id: Int64
    var category: String
    var also: [String]
    var name: String?
    var localizedNames: [String: String]
    var tags: [String: String]
    var location: SourceLocation
}

/// A `type=multipolygon` relation that is a POI (or, when every multipolygon is assembled, any one); its area
/// and point are computed once every way and node is known.
struct PendingRelationPOI {
    var id: Int64
    /// nil for a relation the profile does not make a POI (only kept when assembling every multipolygon).
    var category: String?
    var also: [String]
    var name: String?
    var localizedNames: [String: String]
    var tags: [String: String]
    var location: SourceLocation
    /// Way members, in member order.
    var ways: [Int64]
    /// Node members, in member order (the fallback position when no ring closes).
    var nodes: [Int64]
}

/// The format-neutral element sink of an ``OSMReader``: nodes, ways and relations with their tags, node refs,
/// members and timestamps, already decoded, whatever the file format. Two adapters feed it, the libxml2 SAX
/// handler (``OSMSAXAdapter``) and the PBF block walker (``OSMPBFAdapter``); classification, the tables way
/// geometry and multipolygon assembly read, the data bounds and the newest timestamp are all kept here.
///
/// An element is built in steps — ``begin(_:id:line:column:)``, then its position (nodes), tags, node refs or
/// members, then ``end()`` — so a streaming parser hands over each part as it reads it and never collects an
/// element; decoders holding whole elements call ``node(id:latE7:lonE7:tags:line:column:)``,
/// ``way(id:refs:tags:line:column:)`` and ``relation(id:members:tags:line:column:)``, and runs of untagged
/// nodes take ``untaggedNodes(ids:latE7:lonE7:line:firstColumn:)``. Limits common to every format (tags and
/// refs per element, value length) are enforced here; what only one format can get wrong (XML attribute text,
/// PBF framing) is checked and reported by its adapter.
///
/// A struct behind a pointer owned by the reader, rather than a class: the SAX callbacks then need neither
/// retain/release nor dynamic exclusivity checks, which cost a third of the parse time on real extracts.
/// Not thread-safe; one instance is used by one reader on one thread.
struct OSMAssembler {
    let profile: any POIProfile
    let bag: DiagnosticBag
    let options: OSMReadOptions

    // Per file.
    private(set) var file: UInt16 = 0
    private(set) var displayPath = ""
    private(set) var displayPaths: [String] = []
    /// Files whose root is `<osmChange>`: their ways may reference nodes that did not change.
    private(set) var changeFiles: Set<UInt16> = []

    // Current element.
    private(set) var kind: OSMElementKind?
    private(set) var currentID: Int64 = 0
    private(set) var idValid = false
    private(set) var line: Int32 = 0
    private(set) var column: Int32 = 0
    private var latE7: Int32 = 0
    private var lonE7: Int32 = 0
    private var coordinatesValid = false
    private var tagCount = 0
    private var tagLimitReported = false
    private var refCount = 0
    private var refLimitReported = false
    private var refStart = 0
    private var keptKeys: [String] = []
    private var keptValues: [String] = []
    private var name: String?
    private var localizedNames: [(String, String)] = []
    /// The current relation's `type` tag and members (only ways and nodes are needed).
    private var relationType: String?
    private var memberWays: [Int64] = []
    private var memberNodes: [Int64] = []

    // Accumulated over all files.
    private var keyCache = TagKeyCache()
    private(set) var nodes = ElementTable()
    private(set) var nodeLats: [Int32] = []
    private(set) var nodeLons: [Int32] = []
    private(set) var ways = ElementTable()
    private(set) var wayRefs: [Int64] = []
    private(set) var wayOffsets: [Int] = [0]
    private(set) var relations = ElementTable()
    private(set) var pendingWays: [PendingWayPOI] = []
    private(set) var pendingRelations: [PendingRelationPOI] = []
    /// Elements seen, including invalid and duplicate ones.
    private(set) var nodesSeen = 0
    private(set) var waysSeen = 0
    private(set) var relationsSeen = 0
    private(set) var pois: [POI] = []
    /// The newest element timestamp, in seconds since 1970.
    private(set) var newestTimestamp: Int64?
    private(set) var declaredBounds: BoundingBox?
    private(set) var minLat = Int32.max, maxLat = Int32.min, minLon = Int32.max, maxLon = Int32.min

    init(profile: any POIProfile, bag: DiagnosticBag, options: OSMReadOptions) {
        self.profile = profile
        self.bag = bag
        self.options = options
    }

    // MARK: Files and diagnostics

    /// Registers a file read next (or skipped); returns its index.
    mutating func addFile(displayPath: String) -> UInt16 {
        let index = UInt16(truncatingIfNeeded: displayPaths.count)
        displayPaths.append(displayPath)
        self.displayPath = displayPath
        return index
    }

    /// Prepares for the elements of file `index`.
    mutating func beginFile(_ index: UInt16, displayPath: String) {
        file = index
        self.displayPath = displayPath
        kind = nil
    }

    /// The current file is an `<osmChange>`: its ways may reference nodes that did not change.
    mutating func markChangeFile() { changeFiles.insert(file) }

    /// A position in the current file.
    func here(_ l: Int32, _ c: Int32) -> SourceLocation {
        SourceLocation(file: displayPath, line: Int(l), column: Int(c))
    }

    /// The current element as diagnostics name it (`n12`, `w3`, `r7`).
    var entity: String {
        switch kind {
        case .node: "n\(currentID)"
        case .way: "w\(currentID)"
        case .relation: "r\(currentID)"
        case nil: ""
        }
    }

    /// An `osm.limit_exceeded`, on the current element if any.
    func limitExceeded(_ message: String, at location: SourceLocation) {
        bag.report(Rules.osmLimitExceeded, message, at: location, entity: kind == nil ? nil : entity)
    }

    // MARK: File-level values

    /// An element timestamp (seconds since 1970); the newest is kept. Times outside the years 0…9999 (which no
    /// ISO 8601 text of four year digits can name) are ignored.
    @inline(__always)
    mutating func timestamp(_ seconds: Int64) {
        guard seconds > newestTimestamp ?? Int64.min else { return }
        guard seconds >= Self.earliestTimestamp, seconds <= Self.latestTimestamp else { return }
        newestTimestamp = seconds
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let earliestTimestamp = Int64(CivilDate.dayNumber(year: 0, month: 1, day: 1)) * 86_400
    static let latestTimestamp = Int64(CivilDate.dayNumber(year: 9999, month: 12, day: 31)) * 86_400 + 86_399

    /// The box a file declares (the last one given wins).
    mutating func declare(bounds box: BoundingBox) { declaredBounds = box }

    // MARK: Element steps

    /// Counts a new element and clears the previous one's state; `id` nil when the source's id is invalid (the
    /// element is counted, its parts are still counted against the limits, and it is otherwise skipped).
    @inline(__always)
    mutating func begin(_ newKind: OSMElementKind, id: Int64?, line: Int32, column: Int32) {
        kind = newKind
        switch newKind {
        case .node: nodesSeen += 1
        case .way: waysSeen += 1
        case .relation: relationsSeen += 1
        }
        currentID = id ?? 0
        idValid = id != nil
        self.line = line
        self.column = column
        tagCount = 0
        tagLimitReported = false
        refCount = 0
        refLimitReported = false
        if !keptKeys.isEmpty {
            keptKeys.removeAll(keepingCapacity: true)
            keptValues.removeAll(keepingCapacity: true)
        }
        name = nil
        if !localizedNames.isEmpty { localizedNames.removeAll(keepingCapacity: true) }
        relationType = nil
        if !memberWays.isEmpty { memberWays.removeAll(keepingCapacity: true) }
        if !memberNodes.isEmpty { memberNodes.removeAll(keepingCapacity: true) }
        refStart = wayRefs.count
    }

    /// The current node's position in 1e-7 degrees, nil when invalid (the adapter has reported why): extends
    /// the data bounds and records the node for way geometry.
    @inline(__always)
    mutating func position(latE7 lat: Int32?, lonE7 lon: Int32?) {
        coordinatesValid = false
        if let lat, let lon {
            coordinatesValid = true
            latE7 = lat
            lonE7 = lon
            extendBounds(lat, lon)
        }
        if idValid {
            nodes.append(id: currentID, line: line, column: column, file: file)
            nodeLats.append(coordinatesValid ? latE7 : NodeIndex.invalid)
            nodeLons.append(coordinatesValid ? lonE7 : NodeIndex.invalid)
        }
    }

    /// A run of untagged nodes, positions in 1e-7 degrees: they only extend the node table and the data bounds,
    /// without the per-element steps. Takes the nodes up to the first with an invalid position and returns how
    /// many it took; the caller hands that one to ``node(id:latE7:lonE7:tags:line:column:)``, which reports it.
    /// - Parameters: ids, latE7, lonE7: Slices with the same indices.
    mutating func untaggedNodes(
        ids: ArraySlice<Int64>, latE7 lats: ArraySlice<Int64>, lonE7 lons: ArraySlice<Int64>, line: Int32,
        firstColumn: Int32
    ) -> Int {
        var j = ids.startIndex
        var (lo0, hi0, lo1, hi1) = (minLat, maxLat, minLon, maxLon)
        while j < ids.endIndex {
            let lat = lats[j], lon = lons[j]
            guard abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000 else { break }
            let la = Int32(truncatingIfNeeded: lat), lo = Int32(truncatingIfNeeded: lon)
            lo0 = min(lo0, la)
            hi0 = max(hi0, la)
            lo1 = min(lo1, lo)
            hi1 = max(hi1, lo)
            j += 1
        }
        (minLat, maxLat, minLon, maxLon) = (lo0, hi0, lo1, hi1)
        let range = ids.startIndex..<j
        nodeLats.append(contentsOf: lats[range].lazy.map { Int32(truncatingIfNeeded: $0) })
        nodeLons.append(contentsOf: lons[range].lazy.map { Int32(truncatingIfNeeded: $0) })
        ids[range].withUnsafeBufferPointer { run in nodes.append(ids: run, line: line, firstColumn: firstColumn, file: file) }
        nodesSeen += range.count
        return range.count
    }

    /// Counts one tag of the current element; false (after reporting once) beyond the limit.
    @inline(__always)
    mutating func countTag() -> Bool {
        tagCount += 1
        guard tagCount > options.maxTagsPerElement else { return true }
        if !tagLimitReported {
            tagLimitReported = true
            limitExceeded(
                "\(entity) has more than \(options.maxTagsPerElement) tags; the rest are ignored", at: here(line, column))
        }
        return false
    }

    /// Reports a tag whose key or value is longer than the limit (the tag is ignored).
    func tagTooLong(at location: SourceLocation) {
        limitExceeded(
            "\(entity): a tag key or value is longer than \(options.maxValueBytes) bytes; tag ignored", at: location)
    }

    /// What to do with the tag key in `count` bytes at `p`, cached per key.
    @inline(__always)
    mutating func decision(forKey p: UnsafePointer<UInt8>, count: Int) -> TagKeyDecision {
        let profile = self.profile
        return keyCache.decision(p, count) { key in TagKeyDecision.decide(key, profile: profile) }
    }

    /// What to do with a tag key, cached per key.
    mutating func decision(forKey key: String) -> TagKeyDecision {
        let profile = self.profile
        return keyCache.decision(key) { key in TagKeyDecision.decide(key, profile: profile) }
    }

    /// Records a tag's value as its key's decision says.
    mutating func tag(_ decision: TagKeyDecision, _ value: String) {
        switch decision {
        case .drop: return
        case .keep(let key):
            keptKeys.append(key)
            keptValues.append(value)
        case .name:
            name = value
        case .localizedName(let locale):
            localizedNames.append((locale, value))
        case .type(let keep):
            if kind == .relation { relationType = value }
            if let keep {
                keptKeys.append(keep)
                keptValues.append(value)
            }
        }
    }

    /// Counts one node ref or member; false (after reporting once) when the element has too many.
    @inline(__always)
    mutating func countRef() -> Bool {
        refCount += 1
        guard refCount > options.maxRefsPerElement else { return true }
        if !refLimitReported {
            refLimitReported = true
            limitExceeded(
                "\(entity) has more than \(options.maxRefsPerElement) \(kind == .way ? "node references" : "members"); "
                    + "the rest are ignored", at: here(line, column))
        }
        return false
    }

    /// One node ref of the current way (already counted).
    @inline(__always)
    mutating func wayRef(_ ref: Int64) { wayRefs.append(ref) }

    /// All node refs of the current way at once, counted against the limit.
    mutating func appendWayRefs(_ refs: ArraySlice<Int64>) {
        let allowed = min(refs.count, options.maxRefsPerElement)
        wayRefs.append(contentsOf: refs.prefix(allowed))
        refCount = allowed
        if refs.count > allowed { _ = countRef() }  // reports the limit once
    }

    /// One member of the current relation (already counted); only way and node members are kept.
    @inline(__always)
    mutating func member(_ type: OSMElementKind, ref: Int64) {
        switch type {
        case .way: memberWays.append(ref)
        case .node: memberNodes.append(ref)
        case .relation: break
        }
    }

    /// Ends the current element: records ways and relations, and classifies the element into a POI or a
    /// pending way or relation POI.
    @inline(__always)
    mutating func end() {
        guard let kind else { return }
        self.kind = nil
        guard idValid else {
            if wayRefs.count > refStart { wayRefs.removeSubrange(refStart...) }
            return
        }
        switch kind {
        case .node: if !keptKeys.isEmpty { endNode() }  // an untagged node is already recorded
        case .way: endWay()
        case .relation: endRelation()
        }
    }

    private mutating func endNode() {
        guard coordinatesValid, let (category, tags, also) = classify() else { return }
        var poi = POI(
            ref: OSMRef(.node, currentID),
            coordinate: Coordinate(lat: DecimalE7.degrees(latE7), lon: DecimalE7.degrees(lonE7)),
            category: category, name: name, localizedNames: localizedDictionary(), tags: tags,
            location: here(line, column))
        poi.alsoCategories = also
        pois.append(poi)
    }

    private mutating func endWay() {
        let refCount = wayRefs.count - refStart
        ways.append(id: currentID, line: line, column: column, file: file)
        wayOffsets.append(wayRefs.count)
        if refCount < 2 {
            bag.report(
                Rules.osmWayOneNode, "way \(currentID) has \(refCount) node reference\(refCount == 1 ? "" : "s")",
                at: here(line, column), entity: "w\(currentID)")
        } else if wayRefs[(refStart + 1)...].allSatisfy({ $0 == wayRefs[refStart] }) {
            // The scan stops at the first other node, i.e. at once for any real way.
            bag.report(
                Rules.osmWayOneNode, "way \(currentID) references node \(wayRefs[refStart]) \(refCount) times and no other node",
                at: here(line, column), entity: "w\(currentID)")
        }
        guard refCount > 0, let (category, tags, also) = classify() else { return }
        pendingWays.append(
            PendingWayPOI(
                wayIndex: ways.count - 1, id: currentID, category: category, also: also, name: name,
                localizedNames: localizedDictionary(), tags: tags, location: here(line, column)))
    }

    private mutating func endRelation() {
        relations.append(id: currentID, line: line, column: column, file: file)
        // `type=boundary` and other relation kinds are never POIs; a multipolygon with a POI tag is.
        guard relationType == "multipolygon" else { return }
        let classified = classify()
        guard classified != nil || options.assembleEveryMultipolygon else { return }
        pendingRelations.append(
            PendingRelationPOI(
                id: currentID, category: classified?.0, also: classified?.2 ?? [], name: name,
                localizedNames: localizedDictionary(),
                tags: classified?.1 ?? [:], location: here(line, column), ways: memberWays, nodes: memberNodes))
    }

    /// Category, exposed tags and further categories of the current element, if the profile makes it a POI.
    private func classify() -> (String, [String: String], [String])? {
        guard !keptKeys.isEmpty else { return nil }
        var all: [String: String] = [:]
        for (k, v) in zip(keptKeys, keptValues) where all[k] == nil { all[k] = v }
        guard let category = profile.classify(tags: all) else { return nil }
        return (category, all.filter { profile.exposes(tag: $0.key) }, profile.alsoCategories(tags: all, primary: category))
    }

    private func localizedDictionary() -> [String: String] {
        Dictionary(localizedNames, uniquingKeysWith: { first, _ in first })
    }

    /// Widens the data bounds to a valid node position.
    @inline(__always)
    private mutating func extendBounds(_ lat: Int32, _ lon: Int32) {
        if lat < minLat { minLat = lat }
        if lat > maxLat { maxLat = lat }
        if lon < minLon { minLon = lon }
        if lon > maxLon { maxLon = lon }
    }
}
