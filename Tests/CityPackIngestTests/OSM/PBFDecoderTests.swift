import CityPackIngest
import CityPackTestSupport
import Foundation
import Testing

private func frame(type: String = "OSMData", blob: [UInt8], datasize: Int? = nil) -> [UInt8] {
    PBFBuilder.frame(type: type, blob: blob, datasize: datasize)
}

private func storedZlib(_ data: [UInt8]) -> [UInt8] { PBFBuilder.storedZlib(data) }

/// Writes `bytes` to a temporary file and returns its path.
private func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let dir = try TestPaths.temporaryDirectory("pbf")
    let url = dir.appendingPathComponent("t.osm.pbf")
    try Data(bytes).write(to: url)
    return url.path
}

/// Reads every blob of `path`, decoding data blocks; throws what the reader throws.
@discardableResult
private func decodeAll(_ path: String) throws -> PBFPrimitiveBlock {
    let reader = try PBFBlobReader(path: path)
    var all = PBFPrimitiveBlock()
    while let blob = try reader.next() {
        switch blob.type {
        case "OSMHeader": _ = try PBFBlockDecoder.decodeHeader(blob.data, blobOffset: blob.offset)
        case "OSMData":
            let block = try PBFBlockDecoder.decodePrimitiveBlock(blob.data, blobOffset: blob.offset)
            for n in block.nodes { all.appendNode(id: n.id, latE7: n.latE7, lonE7: n.lonE7, tags: n.tags) }
            for w in block.ways { all.appendWay(id: w.id, refs: w.refs, tags: w.tags) }
            all.relations += block.relations
        default: break
        }
    }
    return all
}

/// Runs `body` and returns the ``PBFError`` it throws (failing the test if it throws nothing or something else).
private func pbfError(_ body: () throws -> Void) -> PBFError? {
    do { try body() } catch let error as PBFError { return error } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
    Issue.record("no error thrown")
    return nil
}

/// The wire reader, the blob framing and the block decoder of the OSM PBF reader.
struct PBFDecoderTests {
    // MARK: wire format

    /// Reads `bytes` with a fresh reader through `body`.
    private func read<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(raw)
            return try body(&reader)
        }
    }

    /// Varints of 1 to 10 bytes, including UInt64.max.
    @Test func varints() throws {
        #expect(try read([0x00]) { try $0.readVarint() } == 0)
        #expect(try read([0x96, 0x01]) { try $0.readVarint() } == 150)
        #expect(try read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) { try $0.readVarint() } == UInt64.max)
        var w = ProtoWriter()
        let big: UInt64 = 1 << 63 | 12345
        w.varint(big)
        #expect(w.bytes.count == 10)
        #expect(try read(w.bytes) { try $0.readVarint() } == big)
    }

    /// An eleventh byte, a tenth byte above 1, and a varint cut short are errors with their offset.
    @Test func badVarints() {
        let eleven: [UInt8] = [0x00] + [UInt8](repeating: 0x80, count: 10) + [0x01]
        #expect(throws: ProtobufError.malformedVarint(offset: 1)) {
            try read(eleven) { _ = try $0.readVarint(); return try $0.readVarint() }
        }
        #expect(throws: ProtobufError.malformedVarint(offset: 0)) {
            try read([UInt8](repeating: 0xFF, count: 9) + [0x02]) { try $0.readVarint() }
        }
        #expect(throws: ProtobufError.truncated(offset: 0)) { try read([0x80, 0x80]) { try $0.readVarint() } }
    }

    /// Zigzag maps 0, -1, 1, -2 … and the extremes back.
    @Test func zigzag() {
        #expect(ProtobufReader.zigzagDecode(0) == 0)
        #expect(ProtobufReader.zigzagDecode(1) == -1)
        #expect(ProtobufReader.zigzagDecode(2) == 1)
        #expect(ProtobufReader.zigzagDecode(3) == -2)
        #expect(ProtobufReader.zigzagDecode(UInt64.max - 1) == Int64.max)
        #expect(ProtobufReader.zigzagDecode(UInt64.max) == Int64.min)
        for v: Int64 in [0, 1, -1, 1_000_000_007, -437_371_175, .max, .min] {
            #expect(ProtobufReader.zigzagDecode(ProtoWriter.zigzag(v)) == v)
        }
    }

    /// Fixed-width values are little-endian.
    @Test func fixed() throws {
        #expect(try read([0x78, 0x56, 0x34, 0x12]) { try $0.readFixed32() } == 0x1234_5678)
        #expect(try read([1, 0, 0, 0, 0, 0, 0, 0x80]) { try $0.readFixed64() } == 0x8000_0000_0000_0001)
        #expect(throws: ProtobufError.truncated(offset: 0)) { try read([1, 2, 3]) { try $0.readFixed32() } }
    }

    /// Packed delta-coded sint64 sums its deltas, across two occurrences of the field too.
    @Test func packedDeltas() throws {
        var w = ProtoWriter()
        w.field(8, packedSInt: [100, -1, 5])
        w.field(8, packedSInt: [10])
        let values: [Int64] = try read(w.bytes) { r in
            var values: [Int64] = []
            var running: Int64 = 0
            while let key = try r.readKey() {
                try r.readDeltaSInt64(key.wireType, field: key.field, at: key.offset, running: &running, into: &values)
            }
            return values
        }
        #expect(values == [100, 99, 104, 114])
        var ints = ProtoWriter()
        ints.field(2, packed: [1, 2, 300])
        let decoded: [Int32] = try read(ints.bytes) { r in
            var values: [Int32] = []
            let key = try #require(try r.readKey())
            try r.readRepeatedInt32(key.wireType, field: 2, at: key.offset, into: &values)
            return values
        }
        #expect(decoded == [1, 2, 300])
    }

    /// A delta sum leaving Int64 is an error at the offending value's offset.
    @Test func deltaOverflow() {
        var w = ProtoWriter()
        w.field(1, packedSInt: [Int64.max, 1])
        // key (1 byte) + length (1 byte) + 10-byte zigzag of Int64.max → the second delta is at offset 12.
        #expect(throws: ProtobufError.deltaOverflow(offset: 12)) {
            try read(w.bytes) { r in
                var values: [Int64] = []
                var running: Int64 = 0
                let key = try #require(try r.readKey())
                try r.readDeltaSInt64(key.wireType, field: 1, at: key.offset, running: &running, into: &values)
            }
        }
    }

    /// Unknown fields of every wire type, groups included, are skipped.
    @Test func skipsUnknownFields() throws {
        var w = ProtoWriter()
        w.field(5, varint: 300)
        w.key(6, 1); w.bytes += [UInt8](repeating: 9, count: 8)
        w.field(7, bytes: [1, 2, 3])
        w.key(8, 3); w.field(1, varint: 1); w.key(2, 3); w.key(2, 4); w.key(8, 4)
        w.key(9, 5); w.bytes += [1, 2, 3, 4]
        w.field(1, varint: 42)
        let found: UInt64? = try read(w.bytes) { r in
            while let key = try r.readKey() {
                if key.field == 1 { return try r.readVarint() }
                try r.skip(key.wireType, at: key.offset)
            }
            return nil
        }
        #expect(found == 42)
        #expect(throws: ProtobufError.invalidWireType(7, offset: 0)) { try read([0x0F]) { try $0.readKey() } }
        #expect(throws: ProtobufError.truncated(offset: 1)) {
            try read([0x0A, 0x05, 0x01]) { r in
                let key = try #require(try r.readKey())
                try r.skip(key.wireType, at: key.offset)
            }
        }
    }

    // MARK: hostile files

    /// A hand-built PrimitiveBlock with one dense node using a string index beyond the table.
    @Test func stringIndexOutOfRange() throws {
        var table = ProtoWriter()
        table.field(1, string: "")
        table.field(1, string: "amenity")
        var dense = ProtoWriter()
        dense.field(1, packedSInt: [1])
        dense.field(8, packedSInt: [437_000_000])
        dense.field(9, packedSInt: [74_000_000])
        dense.field(10, packed: [1, 7, 0])
        var group = ProtoWriter()
        group.field(2, bytes: dense.bytes)
        var block = ProtoWriter()
        block.field(1, bytes: table.bytes)
        block.field(2, bytes: group.bytes)
        #expect(throws: PBFError.stringIndexOutOfRange(index: 7, count: 2, blobOffset: 99)) {
            try PBFBlockDecoder.decodePrimitiveBlock(block.bytes, blobOffset: 99)
        }
        // The same block with a valid value decodes, at granularity 100 and no offsets.
        var good = ProtoWriter()
        good.field(1, bytes: table.bytes)
        dense = ProtoWriter()
        dense.field(1, packedSInt: [5, 2])
        dense.field(8, packedSInt: [437_371_175, 1])
        dense.field(9, packedSInt: [74_229_093, -1])
        dense.field(10, packed: [1, 0, 0, 0])
        group = ProtoWriter()
        group.field(2, bytes: dense.bytes)
        good.field(2, bytes: group.bytes)
        let decoded = try PBFBlockDecoder.decodePrimitiveBlock(good.bytes, blobOffset: 0)
        #expect(decoded.nodes.map(\.id) == [5, 7])
        #expect(decoded.nodes[0].lat == 43.7371175 && decoded.nodes[0].lon == 7.4229093)
        #expect(decoded.nodes[1].lat == 43.7371176 && decoded.nodes[1].lon == 7.4229092)
        #expect(decoded.nodes[0].tags.map { "\($0)=\($1)" } == ["amenity="])
        #expect(decoded.nodes[1].tags.isEmpty)
    }

    /// With a tag filter, nodes whose tags cannot make a POI come without tags; a tag that matters, a tag count
    /// over the limit or a long value keeps them all (so the reader still classifies and reports); indices are
    /// still checked.
    @Test func tagFilterDropsTagsThatCannotMatter() throws {
        let strings = ["", "amenity", "cafe", "building", "yes", "name", "x", "parking_space", String(repeating: "v", count: 40)]
        // Nodes: 1 amenity=cafe+name; 2 building=yes; 3 amenity=parking_space; 4 untagged; 5 building+name+name
        // (3 tags, over a limit of 2); 6 building=<40 bytes> (over 100 / 3 bytes).
        let block = PBFBuilder.denseBlock(
            strings: strings, ids: [1, 2, 3, 4, 5, 6], latE7: [1, 2, 3, 4, 5, 6], lonE7: [1, 2, 3, 4, 5, 6],
            keysVals: [1, 2, 5, 6, 0, 3, 4, 0, 1, 7, 0, 0, 3, 4, 5, 6, 5, 6, 0, 3, 8, 0])
        let filter = PBFTagFilter(maxTags: 2, maxValueBytes: 100) { key in
            key == "amenity" ? .values(["cafe"]) : .never
        }
        let decoded = try PBFBlockDecoder.decodePrimitiveBlock(block, blobOffset: 0, filter: filter)
        #expect(decoded.nodeIDs == [1, 2, 3, 4, 5, 6])
        #expect(decoded.nodeTags.map(\.index) == [0, 4, 5])
        #expect(decoded.nodes[0].tags.map { "\($0)=\($1)" } == ["amenity=cafe", "name=x"])
        #expect(decoded.nodes[4].tags.count == 3)
        let all = try PBFBlockDecoder.decodePrimitiveBlock(block, blobOffset: 0)
        #expect(all.nodeTags.map(\.index) == [0, 1, 2, 4, 5])
        // A bad value index is an error whether or not the tag matters.
        let bad = PBFBuilder.denseBlock(strings: strings, ids: [1], latE7: [1], lonE7: [1], keysVals: [3, 99, 0])
        #expect(throws: PBFError.stringIndexOutOfRange(index: 99, count: strings.count, blobOffset: 5)) {
            try PBFBlockDecoder.decodePrimitiveBlock(bad, blobOffset: 5, filter: filter)
        }
    }

    /// A BlobHeader length above 64 KiB is refused before reading it.
    @Test func headerTooLarge() throws {
        let path = try temporaryFile([0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0, count: 16))
        #expect(pbfError { try decodeAll(path) } == .blobHeaderTooLarge(length: 65537, offset: 0))
    }

    /// A datasize above 32 MiB is refused, naming the blob's offset (the second blob here).
    @Test func datasizeTooLarge() throws {
        var raw = ProtoWriter()
        raw.field(1, bytes: [])
        let first = frame(type: "Other", blob: raw.bytes)
        let path = try temporaryFile(first + frame(blob: [], datasize: 40_000_000))
        #expect(pbfError { try decodeAll(path) } == .blobTooLarge(size: 40_000_000, offset: Int64(first.count)))
    }

    /// An lzma blob is refused by kind.
    @Test func lzmaBlob() throws {
        var blob = ProtoWriter()
        blob.field(2, varint: 3)
        blob.field(4, bytes: [1, 2, 3])
        let path = try temporaryFile(frame(blob: blob.bytes))
        #expect(pbfError { try decodeAll(path) } == .unsupportedBlobKind("lzma", offset: 0))
    }

    /// A zlib blob whose raw_size is too small or too large is refused; the honest one inflates.
    @Test func lyingRawSize() throws {
        var table = ProtoWriter()
        table.field(1, string: "")
        var block = ProtoWriter()
        block.field(1, bytes: table.bytes)
        let payload = block.bytes
        for declared in [payload.count - 1, payload.count + 1, 0] {
            var blob = ProtoWriter()
            blob.field(2, varint: UInt64(declared))
            blob.field(3, bytes: storedZlib(payload))
            let path = try temporaryFile(frame(blob: blob.bytes))
            #expect(pbfError { try decodeAll(path) } == .rawSizeMismatch(declared: Int64(declared), offset: 0))
        }
        var honest = ProtoWriter()
        honest.field(2, varint: UInt64(payload.count))
        honest.field(3, bytes: storedZlib(payload))
        let path = try temporaryFile(frame(blob: honest.bytes))
        let reader = try PBFBlobReader(path: path)
        #expect(try reader.next()?.data == payload)
        #expect(try reader.next() == nil)
    }

    // MARK: real data

    /// The shared Monaco PBF.
    private static var monacoPBF: URL? { TestPaths.sharedData?.appendingPathComponent("osm/monaco-2021.osm.pbf") }

    /// Monaco cut at many offsets: always a typed truncation error, never a crash or a silent short read.
    @Test(.needsSharedData) func truncatedFiles() throws {
        let bytes = try [UInt8](Data(contentsOf: try #require(Self.monacoPBF)))
        for cut in [1, 3, 4, 10, 13, 200, 5_000, 100_000, bytes.count / 2, bytes.count - 1] {
            let path = try temporaryFile(Array(bytes[..<cut]))
            guard let error = pbfError({ try decodeAll(path) }) else { continue }
            guard case .truncated(let offset) = error else {
                Issue.record("cut at \(cut): \(error)")
                continue
            }
            #expect(offset <= Int64(cut))
        }
    }

    /// Every blob of Monaco: element counts from SOURCES.md, and the 621 nodes with `amenity` match the XML.
    @Test(.needsSharedData) func monaco() throws {
        let all = try decodeAll(try #require(Self.monacoPBF).path)
        #expect(all.nodes.count == 25_423)
        #expect(all.ways.count == 4_106)
        #expect(all.relations.count == 243)
        let amenity = all.nodes.filter { $0.tags.contains { $0.0 == "amenity" } }
        #expect(amenity.count == 621)

        let xml = try Data(contentsOf: try #require(TestPaths.sharedData).appendingPathComponent("osm/monaco-2021.osm"))
        let expected = Self.xmlNodesWithAmenity(xml)
        #expect(expected.count == 621)
        #expect(Set(amenity.map(\.id)) == Set(expected.keys))
        for node in amenity {
            guard let want = expected[node.id] else { continue }
            #expect(abs(node.lat - want.lat) < 1e-7 / 2 && abs(node.lon - want.lon) < 1e-7 / 2, "node \(node.id)")
            #expect(node.tags.map { "\($0)=\($1)" } == want.tags.map { "\($0)=\($1)" }, "node \(node.id)")
        }
        // The ways and relations decode plausibly: refs and members exist.
        #expect(all.ways.allSatisfy { !$0.refs.isEmpty })
        #expect(all.relations.allSatisfy { !$0.memberRefs.isEmpty && $0.memberRefs.count == $0.memberTypes.count })
    }

    /// Nodes with an `amenity` tag in OSM XML written one element per line (osmium): id → coordinates and tags.
    static func xmlNodesWithAmenity(_ data: Data) -> [Int64: (lat: Double, lon: Double, tags: [(String, String)])] {
        var result: [Int64: (lat: Double, lon: Double, tags: [(String, String)])] = [:]
        var current: (id: Int64, lat: Double, lon: Double, tags: [(String, String)])?
        func attribute(_ name: String, _ line: Substring) -> String? {
            guard let r = line.range(of: " \(name)=\"") else { return nil }
            return unescape(String(line[r.upperBound...].prefix { $0 != "\"" }))
        }
        for rawLine in data.split(separator: UInt8(ascii: "\n")) {
            let line = String(decoding: rawLine, as: UTF8.self).drop { $0 == " " }
            if line.hasPrefix("<node ") {
                current = nil
                if !line.hasSuffix("/>"), let id = attribute("id", line).flatMap({ Int64($0) }),
                   let lat = attribute("lat", line).flatMap({ Double($0) }),
                   let lon = attribute("lon", line).flatMap({ Double($0) }) {
                    current = (id, lat, lon, [])
                }
            } else if line.hasPrefix("<tag "), current != nil, let k = attribute("k", line), let v = attribute("v", line) {
                current!.tags.append((k, v))
            } else if line.hasPrefix("</node>"), let node = current {
                if node.tags.contains(where: { $0.0 == "amenity" }) { result[node.id] = (node.lat, node.lon, node.tags) }
                current = nil
            }
        }
        return result
    }

    /// Replaces the XML entities osmium writes.
    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let code = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst(), radix: 10)
                out += code.flatMap { Unicode.Scalar($0) }.map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
