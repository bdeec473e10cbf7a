import Foundation

/// A fast encoder for compact, key-sorted JSON: the same bytes as Foundation's `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` (``SortedJSON``'s compact form), several times faster on the large
/// column arrays of the web flavour.
///
/// Output rules (those of `JSONEncoder`, checked by `CompactJSONEncoderTests` against it on random values):
/// - object keys in UTF-8 byte order; `nil` optionals in keyed containers are left out, in arrays they are `null`;
/// - integers in decimal; a `Double` as Swift's shortest round-trip `description` with a trailing `.0` removed
///   (`1`, `0.1`, `1e-07`, `1e+16`, `-0`); a non-finite number throws `EncodingError.invalidValue`;
/// - strings escape `"` and `\` and the C0 controls (`\b \f \n \r \t`, others `\u00xx`), nothing else (`/`
///   included).
package struct CompactJSONEncoder {
    /// Indented as JSONEncoder's `.prettyPrinted` (``SortedJSON``'s files) rather than compact.
    package var pretty: Bool

    package init(pretty: Bool = false) { self.pretty = pretty }

    /// The encoded bytes of `value`.
    package func encode(_ value: some Encodable) throws -> Data {
        let node = try NodeEncoder.node(for: value, codingPath: [])
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        Self.write(node, into: &out, indent: pretty ? 0 : nil)
        return Data(out)
    }

    // MARK: - tree

    indirect enum Node {
        /// Bytes written as they are: numbers, `true`, `false`, `null`.
        case literal(String)
        case string(String)
        case array(ArrayBox)
        case object(ObjectBox)
        /// A value whose encoder fills it in later (`superEncoder`, a nested encoder).
        case deferred(NodeEncoder)
        case doubles([Double])
        case integers([Int64])
        case strings([String])
    }

    final class ArrayBox {
        var items: [Node] = []
    }

    final class ObjectBox {
        var members: [String: Node] = [:]
    }

    // MARK: - writing

    static func write(_ node: Node, into out: inout [UInt8]) { write(node, into: &out, indent: nil) }

    /// Writes `node`; `indent` is the depth of pretty output (JSONEncoder's `.prettyPrinted`: two spaces a level,
    /// `"key" : value`, an empty container as its brackets on two lines), nil for compact.
    static func write(_ node: Node, into out: inout [UInt8], indent: Int?) {
        let inner = indent.map { $0 + 1 }
        switch node {
        case .literal(let text): out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (i, item) in box.items.enumerated() {
                separate(i, into: &out, indent: inner)
                write(item, into: &out, indent: inner)
            }
            close("]", into: &out, indent: indent)
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            let keys = box.members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                separate(i, into: &out, indent: inner)
                writeString(key, into: &out)
                if inner == nil {
                    out.append(UInt8(ascii: ":"))
                } else {
                    out.append(contentsOf: colon)
                }
                write(box.members[key]!, into: &out, indent: inner)
            }
            close("}", into: &out, indent: indent)
        case .deferred(let encoder):
            write(encoder.result, into: &out, indent: indent)
        case .doubles(let values):
            out.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                separate(i, into: &out, indent: inner)
                out.append(contentsOf: number(value).utf8)
            }
            close("]", into: &out, indent: indent)
        case .integers(let values):
            out.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                separate(i, into: &out, indent: inner)
                writeInteger(value, into: &out)
            }
            close("]", into: &out, indent: indent)
        case .strings(let values):
            out.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                separate(i, into: &out, indent: inner)
                writeString(value, into: &out)
            }
            close("]", into: &out, indent: indent)
        }
    }

    /// ` : ` between a key and its value, pretty.
    static let colon: [UInt8] = Array(" : ".utf8)

    /// Before item `i` of a container: a comma after the first; pretty, a new line indented to `indent`.
    @inline(__always)
    static func separate(_ i: Int, into out: inout [UInt8], indent: Int?) {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        if let indent { newline(indent, into: &out) }
    }

    /// A container's closing bracket; pretty, on a new line indented to `indent` (after an empty line when the
    /// container is empty, as JSONEncoder writes it).
    @inline(__always)
    static func close(_ bracket: Unicode.Scalar, into out: inout [UInt8], indent: Int?) {
        if let indent {
            if out.last == UInt8(ascii: "[") || out.last == UInt8(ascii: "{") { out.append(0x0A) }
            newline(indent, into: &out)
        }
        out.append(UInt8(ascii: bracket))
    }

    @inline(__always)
    static func newline(_ indent: Int, into out: inout [UInt8]) {
        out.append(0x0A)
        for _ in 0..<indent { out.append(0x20); out.append(0x20) }
    }

    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        out.append(contentsOf: String(value).utf8)
    }

    static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Swift's shortest round-trip text without a trailing `.0` (finite values only).
    static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func number(_ value: Float) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

// MARK: - Encoder

final class NodeEncoder: Encoder {
    typealias Node = CompactJSONEncoder.Node
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; an encoder that was given nothing encodes `{}` (as `JSONEncoder` does).
    var node: Node?

    init(codingPath: [CodingKey]) { self.codingPath = codingPath }

    var result: Node { node ?? .object(CompactJSONEncoder.ObjectBox()) }

    /// The node of one value, with fast paths for scalars and the column arrays the web flavour is made of.
    static func node<T: Encodable>(for value: T, codingPath: [CodingKey]) throws -> Node {
        // Exact type checks (a metadata comparison), not `as?` casts: casting an array to another array type
        // converts it element by element, which made every column cost a pass per candidate type.
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .literal(String(unsafeBitCast(value, to: Int.self))) }
        if T.self == Int64.self { return .literal(String(unsafeBitCast(value, to: Int64.self))) }
        if T.self == Double.self { return try number(unsafeBitCast(value, to: Double.self), codingPath) }
        if T.self == Bool.self { return .literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false") }
        if T.self == [Double].self {
            let v = unsafeBitCast(value, to: [Double].self)
            for x in v where !x.isFinite { throw nonFinite(x, codingPath) }
            return .doubles(v)
        }
        if T.self == [Int64].self { return .integers(unsafeBitCast(value, to: [Int64].self)) }
        if T.self == [Int].self { return .integers(unsafeBitCast(value, to: [Int].self).map { Int64($0) }) }
        if T.self == [String].self { return .strings(unsafeBitCast(value, to: [String].self)) }
        if T.self == [String?].self {
            return array(unsafeBitCast(value, to: [String?].self).map { $0.map(Node.string) ?? .literal("null") })
        }
        if T.self == [Int64?].self {
            return array(unsafeBitCast(value, to: [Int64?].self).map { $0.map { .literal(String($0)) } ?? .literal("null") })
        }
        if T.self == [Int?].self {
            return array(unsafeBitCast(value, to: [Int?].self).map { $0.map { .literal(String($0)) } ?? .literal("null") })
        }
        if T.self == [Double?].self {
            return array(try unsafeBitCast(value, to: [Double?].self).map { x throws -> Node in
                try x.map { try number($0, codingPath) } ?? .literal("null")
            })
        }
        if T.self == [String: String].self {
            let v = unsafeBitCast(value, to: [String: String].self)
            let box = CompactJSONEncoder.ObjectBox()
            box.members.reserveCapacity(v.count)
            for (key, text) in v { box.members[key] = .string(text) }
            return .object(box)
        }
        // JSONEncoder's default strategies for these Foundation types.
        if T.self == Data.self { return .string(unsafeBitCast(value, to: Data.self).base64EncodedString()) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        if T.self == Decimal.self { return .literal(unsafeBitCast(value, to: Decimal.self).description) }
        let encoder = NodeEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.result
    }

    static func array(_ items: [Node]) -> Node {
        let box = CompactJSONEncoder.ArrayBox()
        box.items = items
        return .array(box)
    }

    static func number(_ value: Double, _ codingPath: [CodingKey]) throws -> Node {
        guard value.isFinite else { throw nonFinite(value, codingPath) }
        return .literal(CompactJSONEncoder.number(value))
    }

    static func number(_ value: Float, _ codingPath: [CodingKey]) throws -> Node {
        guard value.isFinite else { throw nonFinite(Double(value), codingPath) }
        return .literal(CompactJSONEncoder.number(value))
    }

    static func nonFinite(_ value: Double, _ codingPath: [CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value, .init(codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: CompactJSONEncoder.ObjectBox
        if case .object(let existing) = node {
            box = existing
        } else {
            box = CompactJSONEncoder.ObjectBox()
            node = .object(box)
        }
        return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        let box: CompactJSONEncoder.ArrayBox
        if case .array(let existing) = node {
            box = existing
        } else {
            box = CompactJSONEncoder.ArrayBox()
            node = .array(box)
        }
        return Unkeyed(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { Single(encoder: self) }

    // MARK: containers

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: CompactJSONEncoder.ObjectBox
        let codingPath: [CodingKey]

        func set(_ node: Node, _ key: Key) { box.members[key.stringValue] = node }

        mutating func encodeNil(forKey key: Key) throws { set(.literal("null"), key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.literal(value ? "true" : "false"), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(try NodeEncoder.number(value, codingPath + [key]), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(try NodeEncoder.number(value, codingPath + [key]), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.literal(String(value)), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try NodeEncoder.node(for: value, codingPath: codingPath + [key]), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = CompactJSONEncoder.ObjectBox()
            set(.object(nested), key)
            return KeyedEncodingContainer(Keyed<NestedKey>(box: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            let nested = CompactJSONEncoder.ArrayBox()
            set(.array(nested), key)
            return Unkeyed(box: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> Encoder {
            let encoder = NodeEncoder(codingPath: codingPath + [key])
            set(.deferred(encoder), key)
            return encoder
        }
    }

    struct IndexKey: CodingKey {
        var stringValue: String { "Index \(intValue ?? 0)" }
        var intValue: Int?
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: CompactJSONEncoder.ArrayBox
        let codingPath: [CodingKey]
        var count: Int { box.items.count }

        func append(_ node: Node) { box.items.append(node) }
        var path: [CodingKey] { codingPath + [IndexKey(box.items.count)] }

        mutating func encodeNil() throws { append(.literal("null")) }
        mutating func encode(_ value: Bool) throws { append(.literal(value ? "true" : "false")) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(try NodeEncoder.number(value, path)) }
        mutating func encode(_ value: Float) throws { append(try NodeEncoder.number(value, path)) }
        mutating func encode(_ value: Int) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int8) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int16) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int32) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int64) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt8) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt16) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt32) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt64) throws { append(.literal(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { append(try NodeEncoder.node(for: value, codingPath: path)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = CompactJSONEncoder.ObjectBox()
            let nestedPath = path
            append(.object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(box: nested, codingPath: nestedPath))
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            let nested = CompactJSONEncoder.ArrayBox()
            let nestedPath = path
            append(.array(nested))
            return Unkeyed(box: nested, codingPath: nestedPath)
        }

        mutating func superEncoder() -> Encoder {
            let encoder = NodeEncoder(codingPath: path)
            append(.deferred(encoder))
            return encoder
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: NodeEncoder
        var codingPath: [CodingKey] { encoder.codingPath }

        func set(_ node: Node) { encoder.node = node }

        mutating func encodeNil() throws { set(.literal("null")) }
        mutating func encode(_ value: Bool) throws { set(.literal(value ? "true" : "false")) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(try NodeEncoder.number(value, codingPath)) }
        mutating func encode(_ value: Float) throws { set(try NodeEncoder.number(value, codingPath)) }
        mutating func encode(_ value: Int) throws { set(.literal(String(value))) }
        mutating func encode(_ value: Int8) throws { set(.literal(String(value))) }
        mutating func encode(_ value: Int16) throws { set(.literal(String(value))) }
        mutating func encode(_ value: Int32) throws { set(.literal(String(value))) }
        mutating func encode(_ value: Int64) throws { set(.literal(String(value))) }
        mutating func encode(_ value: UInt) throws { set(.literal(String(value))) }
        mutating func encode(_ value: UInt8) throws { set(.literal(String(value))) }
        mutating func encode(_ value: UInt16) throws { set(.literal(String(value))) }
        mutating func encode(_ value: UInt32) throws { set(.literal(String(value))) }
        mutating func encode(_ value: UInt64) throws { set(.literal(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { set(try NodeEncoder.node(for: value, codingPath: codingPath)) }
    }
}
