/// The few pieces of the protobuf wire format the MVT encoder needs, written by hand: varints, field keys,
/// length-delimited fields and packed repeated `uint32`. Appends to a byte array it owns.
struct ProtobufWriter: Sendable {
    /// Wire types used (protobuf encoding: VARINT 0, I64 1, LEN 2, I32 5).
    enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    /// The bytes written so far.
    var bytes: [UInt8] = []

    /// Appends a base-128 varint, low groups first.
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends a field key: `(field << 3) | wireType`.
    @inline(__always)
    mutating func key(_ field: UInt64, _ type: WireType) {
        varint(field << 3 | type.rawValue)
    }

    /// Appends a varint field.
    mutating func field(_ field: UInt64, varint value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    /// Appends a length-delimited field holding `payload`.
    mutating func field<C: Collection>(_ field: UInt64, bytes payload: C) where C.Element == UInt8 {
        key(field, .lengthDelimited)
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends a string field (UTF-8).
    mutating func field(_ field: UInt64, string: String) {
        var s = string
        s.withUTF8 { self.field(field, bytes: $0) }
    }

    /// Appends a 64-bit little-endian fixed field (a `double`).
    mutating func field(_ field: UInt64, fixed64 value: UInt64) {
        key(field, .fixed64)
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    /// Appends a 32-bit little-endian fixed field (a `float`).
    mutating func field(_ field: UInt64, fixed32 value: UInt32) {
        key(field, .fixed32)
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
    }

    /// Appends a packed repeated `uint32` field (nothing for an empty list, as protobuf writes it).
    mutating func packed(_ field: UInt64, _ values: [UInt32]) {
        guard !values.isEmpty else { return }
        var length = 0
        for v in values { length += Self.varintSize(UInt64(v)) }
        key(field, .lengthDelimited)
        varint(UInt64(length))
        bytes.reserveCapacity(bytes.count + length)
        for v in values { varint(UInt64(v)) }
    }

    /// Bytes a varint of `value` takes, 1…10.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        // Seven bits a byte, for the significant bits (at least one: `| 1`).
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }
}
