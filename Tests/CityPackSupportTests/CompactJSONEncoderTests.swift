import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// `CompactJSONEncoder` must write exactly the bytes of Foundation's `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]`, since the web flavour's content-addressed part names depend on them.
@Suite struct CompactJSONEncoderTests {
    /// A random JSON-like value, encoded through the generic containers (keyed with dynamic keys, unkeyed, single).
    indirect enum Value: Encodable {
        case null, bool(Bool), double(Double), int(Int64), uint8(UInt8), float(Float), string(String)
        case array([Value]), object([String: Value])
        case doubles([Double]), strings([String?]), ints([Int]), optionals([Int64?])

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            switch self {
            case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
            case .bool(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .double(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .int(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .uint8(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .float(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .string(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .doubles(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .strings(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .ints(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .optionals(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .array(let items):
                var c = encoder.unkeyedContainer()
                for item in items {
                    switch item {
                    case .double(let d): try c.encode(d)  // the container's own overloads too
                    case .string(let s): try c.encode(s)
                    case .null: try c.encodeNil()
                    default: try c.encode(item)
                    }
                }
            case .object(let members):
                var c = encoder.container(keyedBy: Key.self)
                for (key, value) in members {
                    switch value {
                    case .int(let i): try c.encode(i, forKey: Key(stringValue: key))
                    case .bool(let b): try c.encodeIfPresent(b ? b : nil, forKey: Key(stringValue: key))
                    default: try c.encode(value, forKey: Key(stringValue: key))
                    }
                }
            }
        }
    }

    struct Record: Codable, Equatable {
        var id: Int64
        var name: String?
        var lat: [Double]
        var names: [String: String]
        var nested: [[Int]]
        var optional: [String?]
        var flag: Bool
        var data: Data
    }

    static func foundation(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static let alphabet: [String] = [
        "a", "b", "Z", "_", "0", "9", "/", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{1}", "\u{1F}", "\u{7F}",
        "é", "ä", "ß", "ﬁ", "\u{2028}", "😀", "日", "ا", " ", "e\u{301}",
    ]

    static func string<R: RandomNumberGenerator>(_ rng: inout R) -> String {
        String((0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined())
    }

    static func double<R: RandomNumberGenerator>(_ rng: inout R) -> Double {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return [0, -0.0, 1, -1, 0.1, 1e-7, 1e15, 1e16, 1e21, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 47.1234567, 9.5][Int.random(in: 0..<13, using: &rng)]
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 1e7
        case 2: return Double(Int64.random(in: Int64.min...Int64.max, using: &rng))
        case 3: return Double.random(in: -180...180, using: &rng)
        default:
            let bits = UInt64.random(in: 0...UInt64.max, using: &rng)
            let value = Double(bitPattern: bits)
            return value.isFinite ? value : 1.5
        }
    }

    static func value<R: RandomNumberGenerator>(_ rng: inout R, depth: Int) -> Value {
        let kinds = depth > 3 ? 8 : 13
        switch Int.random(in: 0..<kinds, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .double(double(&rng))
        case 3: return .int(Int64.random(in: Int64.min...Int64.max, using: &rng))
        case 4: return .string(string(&rng))
        case 5: return .uint8(UInt8.random(in: 0...255, using: &rng))
        case 6: return .float(Float(Double.random(in: -1e6...1e6, using: &rng)))
        case 7: return .doubles((0..<Int.random(in: 0...5, using: &rng)).map { _ in double(&rng) })
        case 8: return .strings((0..<Int.random(in: 0...4, using: &rng)).map { _ in Bool.random(using: &rng) ? string(&rng) : nil })
        case 9: return .ints((0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: -99...99, using: &rng) })
        case 10: return .optionals((0..<Int.random(in: 0...4, using: &rng)).map { _ in Bool.random(using: &rng) ? Int64.random(in: -5...5, using: &rng) : nil })
        case 11: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            var members: [String: Value] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &rng) { members[string(&rng)] = value(&rng, depth: depth + 1) }
            return .object(members)
        }
    }

    @Test func randomValuesMatchJSONEncoder() throws {
        var rng = SplitMix64(seed: 7)
        for round in 0..<3000 {
            let value = Self.value(&rng, depth: 0)
            let expected = try Self.foundation(value)
            let actual = try CompactJSONEncoder().encode(value)
            #expect(actual == expected, "round \(round): \(String(decoding: actual, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))")
            if actual != expected { return }
        }
    }

    /// The files' form (``SortedJSON`` pretty): the same bytes as JSONEncoder's `.prettyPrinted`, empty containers,
    /// nesting and scalar arrays included.
    @Test func prettyOutputMatchesJSONEncoder() throws {
        var rng = SplitMix64(seed: 13)
        for round in 0..<3000 {
            let value = Self.value(&rng, depth: 0)
            let expected = try Self.foundation(value, pretty: true)
            let actual = try CompactJSONEncoder(pretty: true).encode(value)
            #expect(actual == expected, "round \(round): \(String(decoding: actual, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))")
            if actual != expected { return }
        }
        let record = Record(
            id: 3, name: nil, lat: [1.5, -0.25], names: [:], nested: [[1, 2], []], optional: [nil, "x"], flag: true,
            data: Data([1, 2]))
        #expect(try CompactJSONEncoder(pretty: true).encode(record) == Self.foundation(record, pretty: true))
        #expect(try CompactJSONEncoder(pretty: true).encode([Int]()) == Self.foundation([Int](), pretty: true))
        #expect(try CompactJSONEncoder(pretty: true).encode(["a": [String: Int]()]) == Self.foundation(["a": [String: Int]()], pretty: true))
    }

    @Test func synthesizedRecordsMatchJSONEncoder() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let record = Record(
                id: Int64.random(in: -1000...1000, using: &rng), name: Bool.random(using: &rng) ? Self.string(&rng) : nil,
                lat: (0..<3).map { _ in Self.double(&rng) }, names: [Self.string(&rng): Self.string(&rng), "en": Self.string(&rng)],
                nested: [[1, 2], [], [Int.random(in: 0...9, using: &rng)]],
                optional: [nil, Self.string(&rng)], flag: Bool.random(using: &rng), data: Data([1, 2, 250]))
            #expect(try CompactJSONEncoder().encode(record) == Self.foundation(record))
            #expect(try JSONDecoder().decode(Record.self, from: CompactJSONEncoder().encode(record)) == record)
        }
        #expect(try CompactJSONEncoder().encode([String: Int]()) == Self.foundation([String: Int]()))
        #expect(try CompactJSONEncoder().encode([7: "a", 10: "b"]) == Self.foundation([7: "a", 10: "b"]))
    }

    @Test func nonFiniteNumbersThrowLikeJSONEncoder() {
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode([bad]) }
            #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode(["x": bad]) }
            #expect(throws: EncodingError.self) { try Self.foundation([bad]) }
        }
        #expect(throws: Never.self) { try CompactJSONEncoder().encode([1.5]) }
    }
}
