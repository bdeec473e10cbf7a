/// A feature attribute's value, as an MVT layer's `values` table stores it (`Tile.Value`, one field set).
///
/// Integers follow the spec's advice: ``int(_:)`` is written as `sint_value` (zigzag) when negative and as
/// `uint_value` when not, so `.int(5)` and `.uint(5)` are the same value in the table. Floating-point values keep
/// their type (`float_value` or `double_value`); a layer's table tells them apart by bit pattern, so `-0.0` and
/// `0.0` are two entries and a NaN is one.
public enum TileValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// `string_value` (field 1), UTF-8.
    case string(String)
    /// `float_value` (field 2), 32-bit.
    case float(Float)
    /// `double_value` (field 3), 64-bit.
    case double(Double)
    /// A signed integer: `sint_value` (field 6) when negative, else `uint_value` (field 5).
    case int(Int64)
    /// `uint_value` (field 5).
    case uint(UInt64)
    /// `bool_value` (field 7).
    case bool(Bool)

    /// A string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value from a literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A double value from a literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// The value as it is encoded, the key of a layer's value table.
    var encodedKey: EncodedValue {
        switch self {
        case .string(let s): .string(s)
        case .float(let f): .float(f.bitPattern)
        case .double(let d): .double(d.bitPattern)
        case .int(let i): i < 0 ? .sint(i) : .uint(UInt64(i))
        case .uint(let u): .uint(u)
        case .bool(let b): .bool(b)
        }
    }
}

/// A ``TileValue`` as written: one `Tile.Value` field, floats by bit pattern so equal bytes mean equal keys.
enum EncodedValue: Hashable, Sendable {
    case string(String), float(UInt32), double(UInt64), uint(UInt64), sint(Int64), bool(Bool)

    /// Appends the `Tile.Value` message body.
    func write(to w: inout ProtobufWriter) {
        switch self {
        case .string(let s): w.field(1, string: s)
        case .float(let bits): w.field(2, fixed32: bits)
        case .double(let bits): w.field(3, fixed64: bits)
        case .uint(let u): w.field(5, varint: u)
        case .sint(let i): w.field(6, varint: UInt64(bitPattern: (i &<< 1) ^ (i >> 63)))
        case .bool(let b): w.field(7, varint: b ? 1 : 0)
        }
    }
}
