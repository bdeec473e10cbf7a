import CCityPackZlib
import Foundation

/// A tiny protobuf writer for hand-built test messages (OSM PBF blobs and blocks).
public struct ProtoWriter {
    /// The bytes written so far.
    public var bytes: [UInt8] = []

    public init() {}

    /// Appends `value` as a varint.
    public mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    /// Appends a field key.
    public mutating func key(_ field: Int, _ wireType: Int) { varint(UInt64(field << 3 | wireType)) }

    /// Appends a varint field.
    public mutating func field(_ field: Int, varint value: UInt64) { key(field, 0); varint(value) }

    /// Appends a zigzag field.
    public mutating func field(_ field: Int, sint value: Int64) { key(field, 0); varint(Self.zigzag(value)) }

    /// Appends a length-delimited field.
    public mutating func field(_ field: Int, bytes value: [UInt8]) { key(field, 2); varint(UInt64(value.count)); bytes += value }

    /// Appends a string field.
    public mutating func field(_ field: Int, string value: String) { self.field(field, bytes: Array(value.utf8)) }

    /// Appends a packed sint64 field of `values` (already deltas).
    public mutating func field(_ field: Int, packedSInt values: [Int64]) {
        var inner = ProtoWriter()
        for v in values { inner.varint(Self.zigzag(v)) }
        self.field(field, bytes: inner.bytes)
    }

    /// Appends a packed varint field.
    public mutating func field(_ field: Int, packed values: [UInt64]) {
        var inner = ProtoWriter()
        for v in values { inner.varint(v) }
        self.field(field, bytes: inner.bytes)
    }

    /// Zigzag-encodes `v`.
    public static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}

/// Hand-built OSM PBF files: framing, blobs and tiny blocks.
public enum PBFBuilder {
    /// Frames a blob: 4-byte header length, BlobHeader, Blob.
    public static func frame(type: String = "OSMData", blob: [UInt8], datasize: Int? = nil) -> [UInt8] {
        var header = ProtoWriter()
        header.field(1, string: type)
        header.field(3, varint: UInt64(datasize ?? blob.count))
        let n = header.bytes.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes + blob
    }

    /// A zlib stream of `data` in one stored (uncompressed) deflate block, so no compressor is needed.
    public static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        precondition(data.count < 65536)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let len = UInt16(data.count), nlen = ~len
        let adler = b << 16 | a
        return [0x78, 0x01, 0x01, UInt8(len & 0xFF), UInt8(len >> 8), UInt8(nlen & 0xFF), UInt8(nlen >> 8)] + data
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// `data` compressed with zlib at its best level (for zlib bombs: zeros shrink about 1000-fold).
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in compress2(o.baseAddress, &size, i.baseAddress, uLong(data.count), 9) }
        }
        precondition(status == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    /// A Blob message holding `payload` zlib-compressed, declaring `rawSize` (default: the true size).
    public static func zlibBlob(_ payload: [UInt8], compressed: [UInt8]? = nil, rawSize: Int? = nil) -> [UInt8] {
        var blob = ProtoWriter()
        blob.field(2, varint: UInt64(rawSize ?? payload.count))
        blob.field(3, bytes: compressed ?? storedZlib(payload))
        return blob.bytes
    }

    /// The OSMHeader blob every PBF starts with (features OsmSchema-V0.6 and DenseNodes).
    public static func header() -> [UInt8] {
        var block = ProtoWriter()
        block.field(4, string: "OsmSchema-V0.6")
        block.field(4, string: "DenseNodes")
        block.field(16, string: "citypack tests")
        return frame(type: "OSMHeader", blob: zlibBlob(block.bytes))
    }

    /// A PrimitiveBlock of dense nodes: `ids`, lat/lon in 1e-7° (granularity 100), tags as indices into
    /// `strings` (index 0 must be ""), `keysVals` as the raw packed keys_vals array.
    public static func denseBlock(
        strings: [String], ids: [Int64], latE7: [Int64], lonE7: [Int64], keysVals: [UInt64]
    ) -> [UInt8] {
        var table = ProtoWriter()
        for s in strings { table.field(1, string: s) }
        func deltas(_ v: [Int64]) -> [Int64] { v.indices.map { $0 == 0 ? v[0] : v[$0] &- v[$0 - 1] } }
        var dense = ProtoWriter()
        dense.field(1, packedSInt: deltas(ids))
        dense.field(8, packedSInt: deltas(latE7))
        dense.field(9, packedSInt: deltas(lonE7))
        dense.field(10, packed: keysVals)
        var group = ProtoWriter()
        group.field(2, bytes: dense.bytes)
        var block = ProtoWriter()
        block.field(1, bytes: table.bytes)
        block.field(2, bytes: group.bytes)
        return block.bytes
    }

    /// A valid two-node PBF: a named cafe and a toilet near Monaco.
    public static func smallCity() -> [UInt8] {
        let block = denseBlock(
            strings: ["", "amenity", "cafe", "name", "Café du Port", "toilets"], ids: [1, 2],
            latE7: [437_300_000, 437_310_000], lonE7: [74_100_000, 74_110_000], keysVals: [1, 2, 3, 4, 0, 1, 5, 0])
        return header() + frame(blob: zlibBlob(block))
    }
}
