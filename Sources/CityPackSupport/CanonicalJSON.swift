import Foundation

/// A parsed JSON value, and its canonical serialisation (RFC 8785, the JSON Canonicalization Scheme).
///
/// Signatures of manifests and catalogs are computed over canonical bytes so that any platform can verify them
/// after parsing the document with its own JSON library: object members sorted by their UTF-16 code units, no
/// whitespace, strings with the minimal escapes of RFC 8785 §3.2.2.2, numbers as ECMAScript `Number.toString`
/// (shortest round-trip digits, IEEE-754 doubles). See `docs/RELEASES.md`.
package enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON text.
    /// - Throws: `DecodingError` when the data is not JSON.
    package static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The members of an object; nil for any other value.
    package var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// RFC 8785 canonical bytes (UTF-8).
    /// - Throws: ``CanonicalJSONError/nonFiniteNumber`` for NaN or infinity (not representable in JSON).
    package func canonicalData() throws(CanonicalJSONError) -> Data {
        var out = ""
        try write(into: &out)
        return Data(out.utf8)
    }

    func write(into out: inout String) throws(CanonicalJSONError) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += try Self.ecmaScriptNumber(n)
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                try item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            let keys = members.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                try members[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// ECMAScript `Number::toString(10)` of a double: the shortest digits that round-trip (which Swift's
    /// `description` also produces), laid out by the ECMAScript rules (ECMA-262 §6.1.6.1.20).
    package static func ecmaScriptNumber(_ value: Double) throws(CanonicalJSONError) -> String {
        guard value.isFinite else { throw .nonFiniteNumber }
        if value == 0 { return "0" }  // also -0
        let negative = value < 0
        // Swift's description: "123.45", "1e-05", "1.2345e+20", "5e-324": shortest round-trip digits.
        let text = "\(abs(value))"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...].replacingOccurrences(of: "+", with: "")) ?? 0
        }
        var digits = ""
        var pointPosition = 0  // digits before the decimal point in `mantissa`
        var seenPoint = false
        for ch in mantissa {
            if ch == "." {
                seenPoint = true
            } else {
                digits.append(ch)
                if !seenPoint { pointPosition += 1 }
            }
        }
        // Normalise: strip leading zeros (moving the point) and trailing zeros.
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        // value = 0.d1d2…dk × 10^n with n = pointPosition + exponent.
        let k = digits.count
        let n = pointPosition + exponent
        var out: String
        if k <= n && n <= 21 {
            out = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            let i = digits.index(digits.startIndex, offsetBy: n)
            out = digits[..<i] + "." + digits[i...]
        } else if -6 < n && n <= 0 {
            out = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            let sign = e < 0 ? "-" : "+"
            let first = String(digits.first!)
            let rest = digits.dropFirst()
            out = (rest.isEmpty ? first : first + "." + rest) + "e" + sign + String(abs(e))
        }
        return negative ? "-" + out : out
    }
}

/// Why a value has no canonical form.
package enum CanonicalJSONError: Error, Sendable, Equatable {
    case nonFiniteNumber
}
