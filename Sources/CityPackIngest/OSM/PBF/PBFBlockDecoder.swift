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
    /// Members in order: type, referenced id, role.
    package var members: [(type: PBFMemberType, ref: Int64, role: String)]
    /// Tags in file order.
    package var tags: [(String, String)]
}

/// The elements of one decoded PrimitiveBlock.
package struct PBFPrimitiveBlock: Sendable {
    /// Nodes, dense and plain, in file order.
    package var nodes: [PBFNode] = []
    /// Ways in file order.
    package var ways: [PBFWay] = []
    /// Relations in file order.
    package var relations: [PBFRelation] = []
    /// The newest element timestamp of the block (Info / DenseInfo), in seconds since 1970; nil when the file
    /// carries no metadata.
    package var newestTimestamp: Int64?

    /// An empty block.
    package init() {}
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
    package static func decodePrimitiveBlock(_ data: [UInt8], blobOffset: Int64) throws(PBFError) -> PBFPrimitiveBlock {
        do {
            return try data.withUnsafeBytes { (raw) in
                var context = BlockContext(blobOffset: blobOffset)
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
                                    context.strings.append(try table.readString())
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
    /// The string table; index 0 is conventionally empty.
    var strings: [String] = []
    /// Nanodegrees per coordinate unit.
    var granularity: Int64 = 100
    /// Nanodegrees added to every latitude.
    var latOffset: Int64 = 0
    /// Nanodegrees added to every longitude.
    var lonOffset: Int64 = 0
    /// Milliseconds per timestamp unit (read for completeness; metadata is not decoded).
    var dateGranularity: Int64 = 1000

    /// The string at `index` of the table.
    func string(_ index: Int64) throws(BlockFailure) -> String {
        guard index >= 0, index < Int64(strings.count) else {
            throw .pbf(.stringIndexOutOfRange(index: index, count: strings.count, blobOffset: blobOffset))
        }
        return strings[Int(index)]
    }

    /// 1e-7 degrees, rounded, of `offset + granularity * value` nanodegrees.
    func e7(_ value: Int64, offset: Int64) throws(BlockFailure) -> Int64 {
        let (product, o1) = granularity.multipliedReportingOverflow(by: value)
        let (nano, o2) = product.addingReportingOverflow(offset)
        guard !o1, !o2 else { throw .pbf(.coordinateOverflow(blobOffset: blobOffset)) }
        // Round half away from zero to 1e-7 degrees (100 nanodegrees), exactly, in integers.
        return nano >= 0 ? (nano + 50) / 100 : -((-nano + 50) / 100)
    }

    /// Pairs `keys` and `vals` through the string table.
    func tags(_ keys: [Int32], _ vals: [Int32], what: String) throws(BlockFailure) -> [(String, String)] {
        guard keys.count == vals.count else { throw .pbf(.inconsistentArrays(what, blobOffset: blobOffset)) }
        var tags: [(String, String)] = []
        tags.reserveCapacity(keys.count)
        for i in keys.indices { tags.append((try string(Int64(keys[i])), try string(Int64(vals[i])))) }
        return tags
    }

    /// Decodes one PrimitiveGroup into `block`.
    func decodeGroup(_ group: ProtobufReader, into block: inout PBFPrimitiveBlock) throws(BlockFailure) {
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
                case (1, .lengthDelimited): block.nodes.append(try node(try reader.readMessage(), newest: &newest))
                case (2, .lengthDelimited): try dense(try reader.readMessage(), into: &block.nodes, newest: &newest)
                case (3, .lengthDelimited): block.ways.append(try way(try reader.readMessage(), newest: &newest))
                case (4, .lengthDelimited): block.relations.append(try relation(try reader.readMessage(), newest: &newest))
                default: try reader.skip(key.wireType, at: key.offset)
                }
            }
        } catch let error as BlockFailure { throw error } catch let error as ProtobufError { throw .wire(error) } catch {
            fatalError("unreachable")
        }
    }

    /// The timestamp of an Info message (field 2), if present.
    func infoTimestamp(_ message: ProtobufReader) throws -> Int64? {
        var r = message
        var stamp: Int64?
        while let key = try r.readKey() {
            if key.field == 2, key.wireType == .varint { stamp = try r.readInt64() } else { try r.skip(key.wireType, at: key.offset) }
        }
        return stamp
    }

    /// Decodes a plain Node message.
    func node(_ message: ProtobufReader, newest: inout Int64) throws -> PBFNode {
        var r = message
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var keys: [Int32] = [], vals: [Int32] = []
        while let key = try r.readKey() {
            switch (key.field, key.wireType) {
            case (1, .varint): id = try r.readSInt64()
            case (2, _): try r.readRepeatedInt32(key.wireType, field: 2, at: key.offset, into: &keys)
            case (3, _): try r.readRepeatedInt32(key.wireType, field: 3, at: key.offset, into: &vals)
            case (8, .varint): lat = try r.readSInt64()
            case (9, .varint): lon = try r.readSInt64()
            case (4, .lengthDelimited): if let t = try infoTimestamp(try r.readMessage()) { newest = max(newest, t) }
            default: try r.skip(key.wireType, at: key.offset)
            }
        }
        return PBFNode(
            id: id, latE7: try e7(lat, offset: latOffset), lonE7: try e7(lon, offset: lonOffset),
            tags: try tags(keys, vals, what: "node keys/vals"))
    }

    /// Decodes a DenseNodes message, appending its nodes.
    func dense(_ message: ProtobufReader, into nodes: inout [PBFNode], newest: inout Int64) throws {
        var r = message
        var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = []
        var idSum: Int64 = 0, latSum: Int64 = 0, lonSum: Int64 = 0
        var keysVals: [Int32] = []
        while let key = try r.readKey() {
            switch key.field {
            case 1: try r.readDeltaSInt64(key.wireType, field: 1, at: key.offset, running: &idSum, into: &ids)
            case 8: try r.readDeltaSInt64(key.wireType, field: 8, at: key.offset, running: &latSum, into: &lats)
            case 9: try r.readDeltaSInt64(key.wireType, field: 9, at: key.offset, running: &lonSum, into: &lons)
            case 10: try r.readRepeatedInt32(key.wireType, field: 10, at: key.offset, into: &keysVals)
            case 5 where key.wireType == .lengthDelimited:
                // DenseInfo: timestamps are delta-coded (field 2).
                var info = try r.readMessage()
                var running: Int64 = 0
                var stamps: [Int64] = []
                while let k = try info.readKey() {
                    if k.field == 2 {
                        try info.readDeltaSInt64(k.wireType, field: 2, at: k.offset, running: &running, into: &stamps)
                    } else { try info.skip(k.wireType, at: k.offset) }
                }
                if let m = stamps.max() { newest = max(newest, m) }
            default: try r.skip(key.wireType, at: key.offset)
            }
        }
        guard ids.count == lats.count, ids.count == lons.count else {
            throw BlockFailure.pbf(.inconsistentArrays("dense ids/lats/lons", blobOffset: blobOffset))
        }
        nodes.reserveCapacity(nodes.count + ids.count)
        var kv = 0
        for i in ids.indices {
            var tags: [(String, String)] = []
            // An empty keys_vals means no node of the group has tags.
            if !keysVals.isEmpty {
                while true {
                    guard kv < keysVals.count else {
                        throw BlockFailure.pbf(.inconsistentArrays("dense keys_vals", blobOffset: blobOffset))
                    }
                    let k = keysVals[kv]
                    kv += 1
                    if k == 0 { break }
                    guard kv < keysVals.count else {
                        throw BlockFailure.pbf(.inconsistentArrays("dense keys_vals", blobOffset: blobOffset))
                    }
                    tags.append((try string(Int64(k)), try string(Int64(keysVals[kv]))))
                    kv += 1
                }
            }
            nodes.append(PBFNode(
                id: ids[i], latE7: try e7(lats[i], offset: latOffset), lonE7: try e7(lons[i], offset: lonOffset),
                tags: tags))
        }
    }

    /// Decodes a Way message.
    func way(_ message: ProtobufReader, newest: inout Int64) throws -> PBFWay {
        var r = message
        var id: Int64 = 0
        var keys: [Int32] = [], vals: [Int32] = []
        var refs: [Int64] = []
        var refSum: Int64 = 0
        while let key = try r.readKey() {
            switch (key.field, key.wireType) {
            case (1, .varint): id = try r.readInt64()
            case (2, _): try r.readRepeatedInt32(key.wireType, field: 2, at: key.offset, into: &keys)
            case (3, _): try r.readRepeatedInt32(key.wireType, field: 3, at: key.offset, into: &vals)
            case (8, _): try r.readDeltaSInt64(key.wireType, field: 8, at: key.offset, running: &refSum, into: &refs)
            case (4, .lengthDelimited): if let t = try infoTimestamp(try r.readMessage()) { newest = max(newest, t) }
            default: try r.skip(key.wireType, at: key.offset)
            }
        }
        return PBFWay(id: id, refs: refs, tags: try tags(keys, vals, what: "way keys/vals"))
    }

    /// Decodes a Relation message.
    func relation(_ message: ProtobufReader, newest: inout Int64) throws -> PBFRelation {
        var r = message
        var id: Int64 = 0
        var keys: [Int32] = [], vals: [Int32] = [], roles: [Int32] = []
        var memids: [Int64] = []
        var memSum: Int64 = 0
        var types: [UInt64] = []
        while let key = try r.readKey() {
            switch (key.field, key.wireType) {
            case (1, .varint): id = try r.readInt64()
            case (2, _): try r.readRepeatedInt32(key.wireType, field: 2, at: key.offset, into: &keys)
            case (3, _): try r.readRepeatedInt32(key.wireType, field: 3, at: key.offset, into: &vals)
            case (8, _): try r.readRepeatedInt32(key.wireType, field: 8, at: key.offset, into: &roles)
            case (9, _): try r.readDeltaSInt64(key.wireType, field: 9, at: key.offset, running: &memSum, into: &memids)
            case (10, _): try r.readRepeatedVarints(key.wireType, field: 10, at: key.offset, into: &types)
            case (4, .lengthDelimited): if let t = try infoTimestamp(try r.readMessage()) { newest = max(newest, t) }
            default: try r.skip(key.wireType, at: key.offset)
            }
        }
        guard roles.count == memids.count, types.count == memids.count else {
            throw BlockFailure.pbf(.inconsistentArrays("relation roles/memids/types", blobOffset: blobOffset))
        }
        var members: [(type: PBFMemberType, ref: Int64, role: String)] = []
        members.reserveCapacity(memids.count)
        for i in memids.indices {
            guard types[i] <= 2, let type = PBFMemberType(rawValue: Int(types[i])) else {
                throw BlockFailure.pbf(.invalidMemberType(Int64(bitPattern: types[i]), blobOffset: blobOffset))
            }
            members.append((type, memids[i], try string(Int64(roles[i]))))
        }
        return PBFRelation(id: id, members: members, tags: try tags(keys, vals, what: "relation keys/vals"))
    }
}
