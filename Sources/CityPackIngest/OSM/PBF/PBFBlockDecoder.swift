/// A node of a PBF PrimitiveBlock.
package struct PBFNode: Sendable {
    /// OSM id.
    package var id: Int64
    /// Latitude in 1e-7 degrees (exact: the block's nanodegrees rounded to 100).
    package var latE7: Int64
    /// Longitude in 1e-7 degrees.
    package var lonE7: Int64
    /// Tags in file order.
    package var tags: [(String, String)]

    /// Latitude in degrees.
    package var lat: Double { Double(latE7) / 1e7 }
    /// Longitude in degrees.
    package var lon: Double { Double(lonE7) / 1e7 }
}

/// A way of a PBF PrimitiveBlock.
package struct PBFWay: Sendable {
    /// OSM id.
    package var id: Int64
    /// Node ids, in order.
    package var refs: [Int64]
    /// Tags in file order.
    package var tags: [(String, String)]
}

/// The type of a relation member.
package enum PBFMemberType: Int, Sendable {
    /// A node member.
    case node = 0
    /// A way member.
    case way = 1
    /// A relation member.
    case relation = 2
}

/// A relation of a PBF PrimitiveBlock.
package struct PBFRelation: Sendable {
    /// OSM id.
    package var id: Int64
    /// Member types, in member order.
    package var memberTypes: [PBFMemberType]
    /// Member ids, in member order. Kept apart from the types (and without the roles, which no reader uses) so a
    /// member costs 9 bytes in flight, not the 32 of a (type, id, role) tuple: the relation blobs at the end of a
    /// country file hold tens of megabytes of members while they wait in the decode window.
    package var memberRefs: [Int64]
    /// Members in order: type and referenced id.
    package var members: LazyMapSequence<Zip2Sequence<[PBFMemberType], [Int64]>, (type: PBFMemberType, ref: Int64)> {
        zip(memberTypes, memberRefs).lazy.map { (type: $0, ref: $1) }
    }
    /// Tags in file order.
    package var tags: [(String, String)]
}

/// Which tags a block decoder hands over. Deciding this on the decode threads, once per string of a block's
/// table, spares the reading thread the tags of the many elements that cannot become POIs.
package struct PBFTagFilter: Sendable {
    /// Which values of a tag key can make an element a POI.
    package var keyRelevance: @Sendable (String) -> TagRelevance
    /// Elements with more tags than this keep all of them, so the reader reports the limit.
    package var maxTags: Int
    /// Elements with a key or value that may be longer than this keep all their tags, so the reader reports it.
    package var maxValueBytes: Int

    package init(maxTags: Int, maxValueBytes: Int, keyRelevance: @escaping @Sendable (String) -> TagRelevance) {
        self.keyRelevance = keyRelevance
        self.maxTags = maxTags
        self.maxValueBytes = maxValueBytes
    }
}

/// The elements of one decoded PrimitiveBlock.
package struct PBFPrimitiveBlock: Sendable {
    /// Ids of the nodes, dense and plain, in file order.
    package var nodeIDs: [Int64] = []
    /// Latitudes of the nodes in 1e-7 degrees (exact: the block's nanodegrees rounded to 100).
    package var nodeLatE7: [Int64] = []
    /// Longitudes of the nodes in 1e-7 degrees.
    package var nodeLonE7: [Int64] = []
    /// The tags of the nodes that have any (with a ``PBFTagFilter``: any that can matter), by ascending index
    /// into the node arrays; every other node is handed over without tags.
    package var nodeTags: [(index: Int, tags: [(String, String)])] = []
    /// Ids of the ways in file order.
    package var wayIDs: [Int64] = []
    /// The node refs of all ways, one after the other (see ``refRange(ofWay:)``).
    package var wayRefs: [Int64] = []
    /// End of each way's refs in ``wayRefs``.
    package var wayRefEnds: [Int] = []
    /// The tags of the ways that have any (with a ``PBFTagFilter``: any that can matter), by ascending way index.
    package var wayTags: [(index: Int, tags: [(String, String)])] = []
    /// Relations in file order.
    package var relations: [PBFRelation] = []
    /// The newest element timestamp of the block (Info / DenseInfo), in seconds since 1970; nil when the file
    /// carries no metadata.
    package var newestTimestamp: Int64?
    /// Per node, the regions whose box holds it (bits of a mask), when a ``PBFDecodePipeline`` transform filled
    /// it in on the decode thread (``OSMRegionReader``); empty otherwise.
    package var nodeRegions: [UInt64] = []
    /// Where the block's valid nodes lie, in 1e-7 degrees (minLat, minLon, maxLat, maxLon), when filled in.
    package var nodeExtent: (Int32, Int32, Int32, Int32)?
    /// The smallest and largest node id, when filled in.
    package var nodeIDRange: ClosedRange<Int64>?

    /// An empty block.
    package init() {}

    /// The nodes as values (tests and tools; the reader walks the arrays).
    package var nodes: [PBFNode] {
        var tagsByIndex: [Int: [(String, String)]] = [:]
        for entry in nodeTags { tagsByIndex[entry.index] = entry.tags }
        return nodeIDs.indices.map { i in
            PBFNode(id: nodeIDs[i], latE7: nodeLatE7[i], lonE7: nodeLonE7[i], tags: tagsByIndex[i] ?? [])
        }
    }

    /// The ways as values (tests and tools; the reader walks the arrays).
    package var ways: [PBFWay] {
        var tagsByIndex: [Int: [(String, String)]] = [:]
        for entry in wayTags { tagsByIndex[entry.index] = entry.tags }
        return wayIDs.indices.map { i in
            PBFWay(id: wayIDs[i], refs: Array(wayRefs[refRange(ofWay: i)]), tags: tagsByIndex[i] ?? [])
        }
    }

    /// Where way `i`'s refs are in ``wayRefs``.
    package func refRange(ofWay i: Int) -> Range<Int> { (i == 0 ? 0 : wayRefEnds[i - 1])..<wayRefEnds[i] }

    package mutating func appendWay(id: Int64, refs: some Collection<Int64>, tags: [(String, String)]) {
        if !tags.isEmpty { wayTags.append((wayIDs.count, tags)) }
        wayIDs.append(id)
        wayRefs.append(contentsOf: refs)
        wayRefEnds.append(wayRefs.count)
    }

    package mutating func appendNode(id: Int64, latE7: Int64, lonE7: Int64, tags: [(String, String)]) {
        if !tags.isEmpty { nodeTags.append((nodeIDs.count, tags)) }
        nodeIDs.append(id)
        nodeLatE7.append(latE7)
        nodeLonE7.append(lonE7)
    }
}

/// The parts of an OSMHeader block a reader needs.
package struct PBFHeaderBlock: Sendable {
    /// Features a reader must support to read the file.
    package var requiredFeatures: [String] = []
    /// Features the file has that a reader may use.
    package var optionalFeatures: [String] = []
    /// The program that wrote the file, if named.
    package var writingProgram: String?
}

/// Decodes the HeaderBlock and PrimitiveBlock messages of OSM PBF blobs.
package enum PBFBlockDecoder {
    /// Required features this reader supports.
    package static let supportedRequiredFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    /// Decodes an OSMHeader blob, throwing ``PBFError/unsupportedRequiredFeature(_:blobOffset:)`` for a required
    /// feature outside ``supportedRequiredFeatures``.
    package static func decodeHeader(_ data: [UInt8], blobOffset: Int64) throws(PBFError) -> PBFHeaderBlock {
        var header = PBFHeaderBlock()
        do {
            try data.withUnsafeBytes { (raw) in
                var reader = ProtobufReader(raw)
                while let key = try reader.readKey() {
                    switch (key.field, key.wireType) {
                    case (4, .lengthDelimited): header.requiredFeatures.append(try reader.readString())
                    case (5, .lengthDelimited): header.optionalFeatures.append(try reader.readString())
                    case (16, .lengthDelimited): header.writingProgram = try reader.readString()
                    default: try reader.skip(key.wireType, at: key.offset)
                    }
                }
            }
        } catch let error as ProtobufError {
            throw .malformed(error, blobOffset: blobOffset)
        } catch { preconditionFailure("unexpected \(error)") }
        for feature in header.requiredFeatures where !supportedRequiredFeatures.contains(feature) {
            throw .unsupportedRequiredFeature(feature, blobOffset: blobOffset)
        }
        return header
    }

    /// Decodes an OSMData blob (a PrimitiveBlock).
    /// - Parameter filter: When given, nodes and ways none of whose tag keys matter (and within the limits) are
    ///   handed over without tags; relations always keep theirs. Without it, every tag is decoded.
    package static func decodePrimitiveBlock(
        _ data: [UInt8], blobOffset: Int64, filter: PBFTagFilter? = nil
    ) throws(PBFError) -> PBFPrimitiveBlock {
        do {
            return try data.withUnsafeBytes { (raw) in
                var context = BlockContext(blobOffset: blobOffset, bytes: raw, filter: filter)
                var groups: [Range<Int>] = []
                var reader = ProtobufReader(raw)
                // Granularity and offsets usually follow the groups: collect everything first.
                do {
                    while let key = try reader.readKey() {
                        switch (key.field, key.wireType) {
                        case (1, .lengthDelimited):
                            var table = try reader.readMessage()
                            while let k = try table.readKey() {
                                if k.field == 1, k.wireType == .lengthDelimited {
                                    context.stringRanges.append(try table.readLengthDelimitedRange())
                                } else { try table.skip(k.wireType, at: k.offset) }
                            }
                        case (2, .lengthDelimited): groups.append(try reader.readLengthDelimitedRange())
                        case (17, .varint): context.granularity = Int64(Int32(truncatingIfNeeded: try reader.readVarint()))
                        case (19, .varint): context.latOffset = try reader.readInt64()
                        case (20, .varint): context.lonOffset = try reader.readInt64()
                        case (18, .varint): context.dateGranularity = Int64(Int32(truncatingIfNeeded: try reader.readVarint()))
                        default: try reader.skip(key.wireType, at: key.offset)
                        }
                    }
                } catch let error as ProtobufError { throw BlockFailure.wire(error) }
                var block = PBFPrimitiveBlock()
                context.prepareStrings()
                for range in groups {
                    try context.decodeGroup(ProtobufReader(raw, range: range), into: &block)
                }
                return block
            }
        } catch let error as BlockFailure {
            switch error {
            case .wire(let wire): throw .malformed(wire, blobOffset: blobOffset)
            case .pbf(let pbf): throw pbf
            }
        } catch { preconditionFailure("unexpected \(error)") }
    }
}

/// A failure inside a block: a wire error (given the blob offset later) or an already complete ``PBFError``.
enum BlockFailure: Error {
    /// The protobuf bytes are malformed.
    case wire(ProtobufError)
    /// A semantic error.
    case pbf(PBFError)
}

/// The block-wide values every group of a PrimitiveBlock is decoded with.
struct BlockContext {
    /// File offset of the blob, for errors.
    let blobOffset: Int64
    /// The decompressed block.
    let bytes: UnsafeRawBufferPointer
    /// Which tags to hand over (nil: all).
    let filter: PBFTagFilter?
    /// The string table as ranges of `bytes`; index 0 is conventionally empty.
    var stringRanges: [Range<Int>] = []
    /// Strings made so far (most of a table is never needed as a `String`).
    var strings: [String?] = []
    /// Per string used as a key: 0 not yet asked, 1 never matters, 2 matters, 3 matters for some values.
    var keyMatters: [UInt8] = []
    /// The values that matter of the keys marked 3.
    var keyValues: [Int: Set<String>] = [:]
    /// Whether (key << 32 | value) matters, for keys marked 3.
    var pairMatters: [Int64: Bool] = [:]
    /// Reused buffers for the packed arrays of one element or group.
    var scratchKeys: [Int32] = []
    var scratchValues: [Int32] = []
    var scratchIDs: [Int64] = []
    var scratchLats: [Int64] = []
    var scratchLons: [Int64] = []
    var scratchStamps: [Int64] = []
    /// Nanodegrees per coordinate unit.
    var granularity: Int64 = 100
    /// Nanodegrees added to every latitude.
    var latOffset: Int64 = 0
    /// Nanodegrees added to every longitude.
    var lonOffset: Int64 = 0
    /// Milliseconds per timestamp unit (read for completeness; metadata is not decoded).
    var dateGranularity: Int64 = 1000

    init(blobOffset: Int64, bytes: UnsafeRawBufferPointer, filter: PBFTagFilter?) {
        self.blobOffset = blobOffset
        self.bytes = bytes
        self.filter = filter
    }

    /// Sizes the lazily filled per-string tables once the table is read.
    mutating func prepareStrings() {
        strings = Array(repeating: nil, count: stringRanges.count)
        if filter != nil { keyMatters = Array(repeating: 0, count: stringRanges.count) }
    }

    /// Checks a string index against the table.
    @inline(__always)
    func check(_ index: Int64) throws(BlockFailure) {
        guard index >= 0, index < Int64(stringRanges.count) else {
            throw .pbf(.stringIndexOutOfRange(index: index, count: stringRanges.count, blobOffset: blobOffset))
        }
    }

    /// The string at `index` of the table.
    mutating func string(_ index: Int64) throws(BlockFailure) -> String {
        try check(index)
        let i = Int(index)
        if let made = strings[i] { return made }
        let made = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[stringRanges[i]]), as: UTF8.self)
        strings[i] = made
        return made
    }

    /// Whether an element with these (key, value) string indices must be handed over with its tags: a key matters,
    /// or a limit may be exceeded (the reader reports it). Throws for an index outside the table, as decoding would.
    mutating func tagsMatter(count: Int, _ pair: (Int) -> (Int32, Int32)) throws(BlockFailure) -> Bool {
        guard let filter else { return count > 0 }
        var matters = count > filter.maxTags
        for i in 0..<count {
            let (k, v) = pair(i)
            try check(Int64(k))
            try check(Int64(v))
            if matters { continue }
            let key = Int(k)
            // Invalid UTF-8 grows by up to 3× when decoded, so longer raw bytes may exceed the limit as text.
            if 3 * max(stringRanges[key].count, stringRanges[Int(v)].count) > filter.maxValueBytes {
                matters = true
                continue
            }
            if keyMatters[key] == 0 {
                switch filter.keyRelevance(try string(Int64(k))) {
                case .never: keyMatters[key] = 1
                case .anyValue: keyMatters[key] = 2
                case .values(let values):
                    keyMatters[key] = 3
                    keyValues[key] = values
                }
            }
            switch keyMatters[key] {
            case 2: matters = true
            case 3:
                let pair = Int64(k) << 32 | Int64(v)
                if let known = pairMatters[pair] {
                    matters = known
                } else {
                    let known = keyValues[key]?.contains(try string(Int64(v))) ?? true
                    pairMatters[pair] = known
                    matters = known
                }
            default: break
            }
        }
        return matters
    }

    /// 1e-7 degrees, rounded, of `offset + granularity * value` nanodegrees.
    func e7(_ value: Int64, offset: Int64) throws(BlockFailure) -> Int64 {
        let (product, o1) = granularity.multipliedReportingOverflow(by: value)
        let (nano, o2) = product.addingReportingOverflow(offset)
        guard !o1, !o2 else { throw .pbf(.coordinateOverflow(blobOffset: blobOffset)) }
        // Round half away from zero to 1e-7 degrees (100 nanodegrees), exactly, in integers.
        // (Quotient and remainder: adding 50 first could leave Int64 near its ends.)
        let (q, r) = nano.quotientAndRemainder(dividingBy: 100)
        return r >= 50 ? q + 1 : r <= -50 ? q - 1 : q
    }

    /// ``e7(_:offset:)`` of the first `count` values, in place. The usual granularity (100 nanodegrees) and
    /// offset (0) make it the identity, for values whose nanodegrees fit in `Int64`.
    func toE7(_ values: inout [Int64], count: Int, offset: Int64) throws(BlockFailure) {
        if granularity == 100 && offset == 0 {
            let limit = Int64.max / 100
            for i in 0..<count where values[i] > limit || values[i] < -limit {
                throw .pbf(.coordinateOverflow(blobOffset: blobOffset))
            }
            return
        }
        for i in 0..<count { values[i] = try e7(values[i], offset: offset) }
    }

    /// Pairs `keys` and `vals` through the string table; empty when `filtered` and no tag matters.
    mutating func tags(_ keys: [Int32], _ vals: [Int32], what: String, filtered: Bool = true) throws(BlockFailure) -> [(String, String)] {
        guard keys.count == vals.count else { throw .pbf(.inconsistentArrays(what, blobOffset: blobOffset)) }
        if filtered, try !tagsMatter(count: keys.count, { (keys[$0], vals[$0]) }) { return [] }
        var tags: [(String, String)] = []
        tags.reserveCapacity(keys.count)
        for i in keys.indices { tags.append((try string(Int64(keys[i])), try string(Int64(vals[i])))) }
        return tags
    }

    /// Decodes one PrimitiveGroup into `block`.
    mutating func decodeGroup(_ group: ProtobufReader, into block: inout PBFPrimitiveBlock) throws(BlockFailure) {
        var reader = group
        var newest = Int64.min
        defer {
            if newest != Int64.min {
                // Timestamps count dateGranularity milliseconds.
                let seconds = newest.multipliedReportingOverflow(by: dateGranularity).partialValue / 1000
                block.newestTimestamp = max(block.newestTimestamp ?? seconds, seconds)
            }
        }
        do {
            while let key = try reader.readKey() {
                switch (key.field, key.wireType) {
                case (1, .lengthDelimited):
                    let n = try node(try reader.readMessage(), newest: &newest)
                    block.appendNode(id: n.id, latE7: n.latE7, lonE7: n.lonE7, tags: n.tags)
                case (2, .lengthDelimited): try dense(try reader.readMessage(), into: &block, newest: &newest)
                case (3, .lengthDelimited): try way(try reader.readMessage(), into: &block, newest: &newest)
                case (4, .lengthDelimited): block.relations.append(try relation(try reader.readMessage(), newest: &newest))
                default: try reader.skip(key.wireType, at: key.offset)
                }
            }
        } catch let error as BlockFailure { throw error } catch let error as ProtobufError { throw .wire(error) } catch {
            fatalError("unreachable")
        }
    }
}
