import CityPackTiles

/// A minimal MVT 2.1 / protobuf reader for the tests only, written from the spec (vector_tile.proto) without
/// calling the encoder's code, so round trips check the encoder against an independent reading. It accepts any
/// field order, skips unknown fields and fails loudly on malformed input.
struct MVTDecoder {
    struct DecodeError: Error, CustomStringConvertible {
        let description: String
    }

    /// A decoded `Tile.Value`: which field was set and its value.
    enum Value: Equatable {
        case string(String), float(Float), double(Double), int(Int64), uint(UInt64), sint(Int64), bool(Bool)
    }

    struct Feature: Equatable {
        var id: UInt64?
        var tags: [UInt32] = []
        var type: UInt32 = 0
        var geometry: [UInt32] = []

        /// The feature's tags resolved through its layer's tables.
        func attributes(in layer: Layer) -> [(String, Value)] {
            stride(from: 0, to: tags.count, by: 2).map { (layer.keys[Int(tags[$0])], layer.values[Int(tags[$0 + 1])]) }
        }
    }

    struct Layer {
        var name = ""
        var version: UInt64 = 1  // the proto's default
        var extent: UInt64 = 4096
        var keys: [String] = []
        var values: [Value] = []
        var features: [Feature] = []
    }

    /// Reads a whole `Tile`.
    static func decode(_ bytes: [UInt8]) throws -> [Layer] {
        var r = Reader(bytes: bytes[...])
        var layers: [Layer] = []
        while !r.atEnd {
            let (field, wire) = try r.key()
            if field == 3 && wire == 2 { layers.append(try layer(r.lengthDelimited())) } else { try r.skip(wire) }
        }
        return layers
    }

    static func layer(_ bytes: ArraySlice<UInt8>) throws -> Layer {
        var r = Reader(bytes: bytes)
        var l = Layer()
        while !r.atEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (15, 0): l.version = try r.varint()
            case (1, 2): l.name = try r.string()
            case (2, 2): l.features.append(try feature(r.lengthDelimited()))
            case (3, 2): l.keys.append(try r.string())
            case (4, 2): l.values.append(try value(r.lengthDelimited()))
            case (5, 0): l.extent = try r.varint()
            default: try r.skip(wire)
            }
        }
        return l
    }

    static func feature(_ bytes: ArraySlice<UInt8>) throws -> Feature {
        var r = Reader(bytes: bytes)
        var f = Feature()
        while !r.atEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 0): f.id = try r.varint()
            case (2, 2): f.tags += try r.packed()
            case (3, 0): f.type = UInt32(try r.varint())
            case (4, 2): f.geometry += try r.packed()
            default: try r.skip(wire)
            }
        }
        return f
    }

    static func value(_ bytes: ArraySlice<UInt8>) throws -> Value {
        var r = Reader(bytes: bytes)
        var v: Value?
        while !r.atEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2): v = .string(try r.string())
            case (2, 5): v = .float(Float(bitPattern: UInt32(truncatingIfNeeded: try r.fixed(4))))
            case (3, 1): v = .double(Double(bitPattern: try r.fixed(8)))
            case (4, 0): v = .int(Int64(bitPattern: try r.varint()))
            case (5, 0): v = .uint(try r.varint())
            case (6, 0):
                let z = try r.varint()
                v = .sint(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
            case (7, 0): v = .bool(try r.varint() != 0)
            default: try r.skip(wire)
            }
        }
        guard let v else { throw DecodeError(description: "empty value") }
        return v
    }

    /// Turns command integers back into parts of absolute points: a new part at each MoveTo for lines and
    /// polygons (for points, each MoveTo parameter is its own point, all in one part); ClosePath ends a ring and
    /// is recorded by `closed`. Throws on a command the type does not allow.
    static func parts(_ geometry: [UInt32], type: UInt32) throws -> (parts: [[(Int32, Int32)]], closed: Int) {
        var parts: [[(Int32, Int32)]] = []
        var x: Int32 = 0, y: Int32 = 0, i = 0, closed = 0
        while i < geometry.count {
            let id = geometry[i] & 7, count = Int(geometry[i] >> 3)
            i += 1
            switch id {
            case 1, 2:
                guard id == 2 ? !parts.isEmpty : true, i + 2 * count <= geometry.count else {
                    throw DecodeError(description: "bad command \(id) at \(i - 1)")
                }
                if id == 1 && (type != 1 || parts.isEmpty) { parts.append([]) }
                for _ in 0..<count {
                    x &+= unzigzag(geometry[i])
                    y &+= unzigzag(geometry[i + 1])
                    i += 2
                    parts[parts.count - 1].append((x, y))
                }
            case 7:
                guard type == 3, count == 1 else { throw DecodeError(description: "ClosePath outside a polygon") }
                closed += 1
            default:
                throw DecodeError(description: "unknown command \(id)")
            }
        }
        return (parts, closed)
    }

    static func unzigzag(_ z: UInt32) -> Int32 {
        Int32(bitPattern: z >> 1) ^ -Int32(bitPattern: z & 1)
    }

    /// Twice the signed area of an open ring (surveyor's formula).
    static func doubledArea(_ ring: [(Int32, Int32)]) -> Int64 {
        var sum: Int64 = 0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += Int64(a.0) * Int64(b.1) - Int64(b.0) * Int64(a.1)
        }
        return sum
    }

    struct Reader {
        var bytes: ArraySlice<UInt8>
        var atEnd: Bool { bytes.isEmpty }

        mutating func byte() throws -> UInt8 {
            guard let b = bytes.popFirst() else { throw DecodeError(description: "truncated") }
            return b
        }

        mutating func varint() throws -> UInt64 {
            var result: UInt64 = 0
            for shift in stride(from: UInt64(0), to: 70, by: 7) {
                let b = try byte()
                result |= UInt64(b & 0x7f) << shift
                if b < 0x80 { return result }
            }
            throw DecodeError(description: "varint too long")
        }

        mutating func key() throws -> (UInt64, UInt64) {
            let k = try varint()
            return (k >> 3, k & 7)
        }

        mutating func fixed(_ n: Int) throws -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v |= UInt64(try byte()) << (8 * UInt64(i)) }
            return v
        }

        mutating func lengthDelimited() throws -> ArraySlice<UInt8> {
            let n = Int(try varint())
            guard n <= bytes.count else { throw DecodeError(description: "length \(n) past the end") }
            defer { bytes = bytes.dropFirst(n) }
            return bytes.prefix(n)
        }

        mutating func string() throws -> String {
            let b = try lengthDelimited()
            guard let s = String(validating: b, as: UTF8.self) else { throw DecodeError(description: "bad UTF-8") }
            return s
        }

        mutating func packed() throws -> [UInt32] {
            var r = Reader(bytes: try lengthDelimited())
            var out: [UInt32] = []
            while !r.atEnd {
                let v = try r.varint()
                guard v <= UInt32.max else { throw DecodeError(description: "uint32 overflow") }
                out.append(UInt32(v))
            }
            return out
        }

        mutating func skip(_ wire: UInt64) throws {
            switch wire {
            case 0: _ = try varint()
            case 1: _ = try fixed(8)
            case 2: _ = try lengthDelimited()
            case 5: _ = try fixed(4)
            default: throw DecodeError(description: "wire type \(wire)")
            }
        }
    }
}
