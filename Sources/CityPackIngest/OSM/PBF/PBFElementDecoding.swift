/// The element decoders of a PrimitiveBlock: nodes, dense nodes, ways and relations, each with its Info timestamp.
extension BlockContext {
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
    mutating func node(_ message: ProtobufReader, newest: inout Int64) throws -> PBFNode {
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
    mutating func dense(_ message: ProtobufReader, into block: inout PBFPrimitiveBlock, newest: inout Int64) throws {
        var r = message
        let first = block.nodeIDs.count
        var idSum: Int64 = 0, latSum: Int64 = 0, lonSum: Int64 = 0
        var (ids, lats, lons) = (0, 0, 0)
        var keysVals: [Int32] = []
        while let key = try r.readKey() {
            switch key.field {
            case 1: try r.readDeltaSInt64(key.wireType, field: 1, at: key.offset, running: &idSum, scratch: &scratchIDs, filled: &ids)
            case 8: try r.readDeltaSInt64(key.wireType, field: 8, at: key.offset, running: &latSum, scratch: &scratchLats, filled: &lats)
            case 9: try r.readDeltaSInt64(key.wireType, field: 9, at: key.offset, running: &lonSum, scratch: &scratchLons, filled: &lons)
            case 10: try r.readRepeatedInt32(key.wireType, field: 10, at: key.offset, into: &keysVals)
            case 5 where key.wireType == .lengthDelimited:
                // DenseInfo: timestamps are delta-coded (field 2); only the newest is kept.
                var info = try r.readMessage()
                var running: Int64 = 0
                var stamps = 0
                while let k = try info.readKey() {
                    if k.field == 2 {
                        try info.readDeltaSInt64(k.wireType, field: 2, at: k.offset, running: &running, scratch: &scratchStamps, filled: &stamps)
                    } else { try info.skip(k.wireType, at: k.offset) }
                }
                if let m = scratchStamps[0..<stamps].max() { newest = max(newest, m) }
            default: try r.skip(key.wireType, at: key.offset)
            }
        }
        let count = ids
        guard count == lats, count == lons else {
            throw BlockFailure.pbf(.inconsistentArrays("dense ids/lats/lons", blobOffset: blobOffset))
        }
        block.nodeIDs.append(contentsOf: scratchIDs[0..<count])
        try toE7(&scratchLats, count: count, offset: latOffset)
        try toE7(&scratchLons, count: count, offset: lonOffset)
        block.nodeLatE7.append(contentsOf: scratchLats[0..<count])
        block.nodeLonE7.append(contentsOf: scratchLons[0..<count])
        // An empty keys_vals means no node of the group has tags; else each node's pairs end with a 0.
        guard !keysVals.isEmpty else { return }
        var kv = 0
        for i in 0..<count {
            let start = kv
            while true {
                guard kv < keysVals.count else {
                    throw BlockFailure.pbf(.inconsistentArrays("dense keys_vals", blobOffset: blobOffset))
                }
                if keysVals[kv] == 0 { break }
                guard kv + 1 < keysVals.count else {
                    throw BlockFailure.pbf(.inconsistentArrays("dense keys_vals", blobOffset: blobOffset))
                }
                kv += 2
            }
            let pairs = (kv - start) / 2
            kv += 1
            guard pairs > 0, try tagsMatter(count: pairs, { (keysVals[start + 2 * $0], keysVals[start + 2 * $0 + 1]) })
            else { continue }
            var tags: [(String, String)] = []
            tags.reserveCapacity(pairs)
            for p in 0..<pairs {
                tags.append((try string(Int64(keysVals[start + 2 * p])), try string(Int64(keysVals[start + 2 * p + 1]))))
            }
            block.nodeTags.append((first + i, tags))
        }
    }

    /// Decodes a Way message into the block's way arrays.
    mutating func way(_ message: ProtobufReader, into block: inout PBFPrimitiveBlock, newest: inout Int64) throws {
        var r = message
        var id: Int64 = 0
        scratchKeys.removeAll(keepingCapacity: true)
        scratchValues.removeAll(keepingCapacity: true)
        var refSum: Int64 = 0
        var refs = 0
        while let key = try r.readKey() {
            switch (key.field, key.wireType) {
            case (1, .varint): id = try r.readInt64()
            case (2, _): try r.readRepeatedInt32(key.wireType, field: 2, at: key.offset, into: &scratchKeys)
            case (3, _): try r.readRepeatedInt32(key.wireType, field: 3, at: key.offset, into: &scratchValues)
            case (8, _): try r.readDeltaSInt64(key.wireType, field: 8, at: key.offset, running: &refSum, scratch: &scratchIDs, filled: &refs)
            case (4, .lengthDelimited): if let t = try infoTimestamp(try r.readMessage()) { newest = max(newest, t) }
            default: try r.skip(key.wireType, at: key.offset)
            }
        }
        let (keys, values) = (scratchKeys, scratchValues)
        let tags = try tags(keys, values, what: "way keys/vals")
        if !tags.isEmpty { block.wayTags.append((block.wayIDs.count, tags)) }
        block.wayRefs.append(contentsOf: scratchIDs[0..<refs])
        block.wayIDs.append(id)
        block.wayRefEnds.append(block.wayRefs.count)
    }

    /// Decodes a Relation message.
    mutating func relation(_ message: ProtobufReader, newest: inout Int64) throws -> PBFRelation {
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
        var memberTypes: [PBFMemberType] = []
        memberTypes.reserveCapacity(types.count)
        for (i, raw) in types.enumerated() {
            guard raw <= 2, let type = PBFMemberType(rawValue: Int(raw)) else {
                throw BlockFailure.pbf(.invalidMemberType(Int64(bitPattern: raw), blobOffset: blobOffset))
            }
            // Roles are not kept, but an index beyond the string table is still an error.
            try check(Int64(roles[i]))
            memberTypes.append(type)
        }
        // Relations keep every tag: `type` decides whether one is assembled at all.
        return PBFRelation(
            // An exact-size copy: the decoded array grew by doubling, and relations wait in the decode window.
            id: id, memberTypes: memberTypes, memberRefs: memids.withUnsafeBufferPointer { Array($0) },
            tags: try tags(keys, vals, what: "relation keys/vals", filtered: false))
    }
}
