/// Why a protobuf message could not be read; every case carries the byte offset (in the buffer being read) where
/// the problem was found.
package enum ProtobufError: Error, Equatable, Sendable {
    /// The buffer ends inside a value.
    case truncated(offset: Int)
    /// A varint runs past 10 bytes or does not fit in 64 bits.
    case malformedVarint(offset: Int)
    /// A field key names wire type 6 or 7, which do not exist.
    case invalidWireType(Int, offset: Int)
    /// A known field arrived with a wire type it cannot have.
    case unexpectedWireType(field: Int, wireType: Int, offset: Int)
    /// A delta-coded sequence leaves the range of `Int64`.
    case deltaOverflow(offset: Int)
    /// Groups nest deeper than the reader allows, or an end-group key has no matching start.
    case malformedGroup(offset: Int)
    /// A field has field number 0, which protobuf forbids.
    case invalidFieldNumber(offset: Int)
}

/// The protobuf wire types.
package enum ProtobufWireType: Int, Sendable {
    /// A base-128 varint.
    case varint = 0
    /// Eight little-endian bytes.
    case fixed64 = 1
    /// A varint length followed by that many bytes (strings, messages, packed arrays).
    case lengthDelimited = 2
    /// The deprecated start of a group.
    case startGroup = 3
    /// The deprecated end of a group.
    case endGroup = 4
    /// Four little-endian bytes.
    case fixed32 = 5
}

/// A minimal reader of the protobuf wire format over borrowed bytes.
///
/// It never copies the buffer: nested messages are read by sub-readers over a part of the same buffer, so every
/// offset it reports is an offset in the buffer it was created on. The buffer must outlive the reader.
package struct ProtobufReader {
    /// The whole buffer; offsets are relative to its start.
    package let buffer: UnsafeRawBufferPointer
    /// Offset of the next byte to read.
    package private(set) var offset: Int
    /// Offset one past the last byte this reader may read.
    package let end: Int

    /// Deepest nesting of groups that ``skip(_:at:)`` follows.
    static let maxGroupDepth = 32

    /// A reader of the whole of `buffer`.
    package init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
        self.offset = 0
        self.end = buffer.count
    }

    /// A reader of `range` within `buffer`.
    package init(_ buffer: UnsafeRawBufferPointer, range: Range<Int>) {
        self.buffer = buffer
        self.offset = range.lowerBound
        self.end = range.upperBound
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset >= end }

    /// Reads an unsigned varint of at most 10 bytes.
    @inline(__always)
    package mutating func readVarint() throws(ProtobufError) -> UInt64 {
        // Most varints of a PBF (deltas, string indices) are one byte.
        if offset < end {
            let byte = buffer[offset]
            if byte < 0x80 {
                offset += 1
                return UInt64(byte)
            }
        }
        return try readLongVarint()
    }

    /// ``readVarint()`` past its one-byte fast path.
    @inline(never)
    mutating func readLongVarint() throws(ProtobufError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw .truncated(offset: start) }
            let byte = buffer[offset]
            offset += 1
            if shift == 63 && byte > 1 { throw .malformedVarint(offset: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw .malformedVarint(offset: start) }
        }
    }

    /// Maps a zigzag-encoded value back to a signed one.
    package static func zigzagDecode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// Reads a zigzag-encoded `sint64` (or `sint32`).
    package mutating func readSInt64() throws(ProtobufError) -> Int64 {
        Self.zigzagDecode(try readVarint())
    }

    /// Reads a plain `int64`/`int32` varint (two's complement).
    package mutating func readInt64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    /// Reads four little-endian bytes.
    package mutating func readFixed32() throws(ProtobufError) -> UInt32 {
        guard end - offset >= 4 else { throw .truncated(offset: offset) }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(buffer[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return value
    }

    /// Reads eight little-endian bytes.
    package mutating func readFixed64() throws(ProtobufError) -> UInt64 {
        guard end - offset >= 8 else { throw .truncated(offset: offset) }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(buffer[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return value
    }

    /// Reads a field key; `nil` at the end of the reader's range.
    package mutating func readKey() throws(ProtobufError) -> (field: Int, wireType: ProtobufWireType, offset: Int)? {
        guard !isAtEnd else { return nil }
        let start = offset
        let key = try readVarint()
        guard let wireType = ProtobufWireType(rawValue: Int(key & 7)) else {
            throw .invalidWireType(Int(key & 7), offset: start)
        }
        let field = key >> 3
        guard field != 0, field <= UInt64(Int32.max) else { throw .invalidFieldNumber(offset: start) }
        return (Int(field), wireType, start)
    }

    /// Reads the length of a length-delimited field and returns the range of its bytes, moving past them.
    package mutating func readLengthDelimitedRange() throws(ProtobufError) -> Range<Int> {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(end - offset) else { throw .truncated(offset: start) }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    /// Reads a length-delimited field as a reader of its bytes (a nested message).
    package mutating func readMessage() throws(ProtobufError) -> ProtobufReader {
        ProtobufReader(buffer, range: try readLengthDelimitedRange())
    }

    /// Reads a length-delimited field as borrowed bytes.
    package mutating func readBytes() throws(ProtobufError) -> UnsafeRawBufferPointer {
        let range = try readLengthDelimitedRange()
        return UnsafeRawBufferPointer(rebasing: buffer[range])
    }

    /// Reads a length-delimited field as UTF-8 text (invalid sequences are replaced).
    package mutating func readString() throws(ProtobufError) -> String {
        String(decoding: try readBytes(), as: UTF8.self)
    }

    /// Skips the value of a field of `wireType` whose key started at `keyOffset`.
    package mutating func skip(_ wireType: ProtobufWireType, at keyOffset: Int) throws(ProtobufError) {
        try skip(wireType, at: keyOffset, depth: 0)
    }

    /// ``skip(_:at:)`` with the current group depth.
    private mutating func skip(_ wireType: ProtobufWireType, at keyOffset: Int, depth: Int) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimitedRange()
        case .endGroup: throw .malformedGroup(offset: keyOffset)
        case .startGroup:
            guard depth < Self.maxGroupDepth else { throw .malformedGroup(offset: keyOffset) }
            while true {
                guard let key = try readKey() else { throw .truncated(offset: offset) }
                if key.wireType == .endGroup { return }
                try skip(key.wireType, at: key.offset, depth: depth + 1)
            }
        }
    }

    /// Throws unless `wireType` is `expected`.
    package static func require(
        _ wireType: ProtobufWireType, _ expected: ProtobufWireType, field: Int, at keyOffset: Int
    ) throws(ProtobufError) {
        guard wireType == expected else {
            throw .unexpectedWireType(field: field, wireType: wireType.rawValue, offset: keyOffset)
        }
    }

    /// Reads a repeated varint field into `values`: the packed form (`lengthDelimited`) or one unpacked value.
    package mutating func readRepeatedVarints(
        _ wireType: ProtobufWireType, field: Int, at keyOffset: Int, into values: inout [UInt64]
    ) throws(ProtobufError) {
        switch wireType {
        case .varint: values.append(try readVarint())
        case .lengthDelimited:
            var packed = try readMessage()
            while !packed.isAtEnd { values.append(try packed.readVarint()) }
        default: throw .unexpectedWireType(field: field, wireType: wireType.rawValue, offset: keyOffset)
        }
    }

    /// Reads a repeated `int32`/`uint32` field (packed or not) into `values`, keeping the low 32 bits as protobuf does.
    package mutating func readRepeatedInt32(
        _ wireType: ProtobufWireType, field: Int, at keyOffset: Int, into values: inout [Int32]
    ) throws(ProtobufError) {
        switch wireType {
        case .varint: values.append(Int32(truncatingIfNeeded: try readVarint()))
        case .lengthDelimited:
            var packed = try readMessage()
            while !packed.isAtEnd { values.append(Int32(truncatingIfNeeded: try packed.readVarint())) }
        default: throw .unexpectedWireType(field: field, wireType: wireType.rawValue, offset: keyOffset)
        }
    }

    /// Reads a repeated `sint64` field (packed or not) whose values are deltas, appending the running sums to
    /// `values`; `running` carries the sum across occurrences of the field. Throws ``ProtobufError/deltaOverflow(offset:)``
    /// when a sum leaves `Int64`.
    package mutating func readDeltaSInt64(
        _ wireType: ProtobufWireType, field: Int, at keyOffset: Int, running: inout Int64, into values: inout [Int64]
    ) throws(ProtobufError) {
        switch wireType {
        case .varint:
            let at = offset
            let (sum, overflow) = running.addingReportingOverflow(try readSInt64())
            guard !overflow else { throw .deltaOverflow(offset: at) }
            running = sum
            values.append(sum)
        case .lengthDelimited:
            var packed = try readMessage()
            while !packed.isAtEnd {
                let at = packed.offset
                let (sum, overflow) = running.addingReportingOverflow(try packed.readSInt64())
                guard !overflow else { throw .deltaOverflow(offset: at) }
                running = sum
                values.append(sum)
            }
        default: throw .unexpectedWireType(field: field, wireType: wireType.rawValue, offset: keyOffset)
        }
    }

    /// ``readDeltaSInt64(_:field:at:running:into:)`` into a reused buffer: the running sums are written to
    /// `scratch` from index `filled` on (growing it when needed, never shrinking), and `filled` moves past them.
    /// The hot path of a PBF read (node ids and coordinates, way refs): no per-value append.
    package mutating func readDeltaSInt64(
        _ wireType: ProtobufWireType, field: Int, at keyOffset: Int, running: inout Int64, scratch: inout [Int64],
        filled: inout Int
    ) throws(ProtobufError) {
        guard wireType == .lengthDelimited else {
            var one: [Int64] = []
            try readDeltaSInt64(wireType, field: field, at: keyOffset, running: &running, into: &one)
            if scratch.count < filled + 1 { scratch.append(0) }
            scratch[filled] = one[0]
            filled += 1
            return
        }
        let range = try readLengthDelimitedRange()
        // At most one value per byte.
        if scratch.count < filled + range.count {
            scratch.append(contentsOf: repeatElement(0, count: filled + range.count - scratch.count))
        }
        guard !range.isEmpty else { return }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var sum = running
        var n = filled
        try scratch.withUnsafeMutableBufferPointer { (out) throws(ProtobufError) in
            var p = range.lowerBound
            let end = range.upperBound
            while p < end {
                let start = p
                var byte = base[p]
                p += 1
                var value = UInt64(byte)
                if byte >= 0x80 {
                    value &= 0x7F
                    var shift: UInt64 = 7
                    while true {
                        guard p < end else { throw .truncated(offset: start) }
                        byte = base[p]
                        p += 1
                        if shift == 63 && byte > 1 { throw .malformedVarint(offset: start) }
                        value |= UInt64(byte & 0x7F) << shift
                        if byte < 0x80 { break }
                        shift += 7
                        if shift > 63 { throw .malformedVarint(offset: start) }
                    }
                }
                let (next, overflow) = sum.addingReportingOverflow(Self.zigzagDecode(value))
                guard !overflow else { throw .deltaOverflow(offset: start) }
                sum = next
                out[n] = next
                n += 1
            }
        }
        running = sum
        filled = n
    }
}
