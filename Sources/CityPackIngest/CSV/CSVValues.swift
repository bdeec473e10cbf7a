/// Allocation-free parsers for typed CSV values, working on raw bytes.
public enum CSVValues {
    /// A decimal integer with an optional sign, or nil.
    @inline(__always)
    public static func int(_ b: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = b.count
        guard n > 0, n <= 18 else { return nil }
        var negative = false
        if b[0] == UInt8(ascii: "-") || b[0] == UInt8(ascii: "+") {
            negative = b[0] == UInt8(ascii: "-")
            i = 1
            guard n > 1 else { return nil }
        }
        var v = 0
        while i < n {
            let d = Int(b[i]) &- 48
            guard d >= 0 && d <= 9 else { return nil }
            v = v &* 10 &+ d
            i += 1
        }
        return negative ? -v : v
    }

    private static let powers: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { a, _ in a * 10 } }

    /// A decimal number (`-12.5`, `1e3`), finite, or nil.
    public static func double(_ b: UnsafeRawBufferPointer) -> Double? {
        let n = b.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if b[0] == UInt8(ascii: "-") || b[0] == UInt8(ascii: "+") {
            negative = b[0] == UInt8(ascii: "-")
            i = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var sawDot = false
        while i < n {
            let c = b[i]
            if c >= 48 && c <= 57 {
                if digits >= 18 { return slow(b) }
                mantissa = mantissa * 10 + UInt64(c - 48)
                digits += 1
                if sawDot { fraction += 1 }
            } else if c == UInt8(ascii: ".") && !sawDot {
                sawDot = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                return slow(b)
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        let v = Double(mantissa) / powers[fraction]
        return negative ? -v : v
    }

    private static func slow(_ b: UnsafeRawBufferPointer) -> Double? {
        guard let v = Double(String(decoding: b, as: UTF8.self)), v.isFinite else { return nil }
        return v
    }

    /// `H:MM:SS` or `HH:MM:SS` (hours may exceed 23) → seconds since 00:00:00, or nil.
    @inline(__always)
    public static func time(_ b: UnsafeRawBufferPointer) -> Int32? {
        let n = b.count
        guard n == 7 || n == 8 || n == 9 else { return nil }
        let h = n - 6  // digits of the hour
        guard b[h] == UInt8(ascii: ":"), b[h + 3] == UInt8(ascii: ":") else { return nil }
        @inline(__always) func digit(_ k: Int) -> Int32? {
            let d = Int32(b[k]) - 48
            return d >= 0 && d <= 9 ? d : nil
        }
        var hours: Int32 = 0
        for k in 0..<h {
            guard let d = digit(k) else { return nil }
            hours = hours * 10 + d
        }
        guard let m1 = digit(h + 1), let m2 = digit(h + 2), let s1 = digit(h + 4), let s2 = digit(h + 5),
            m1 < 6, s1 < 6
        else { return nil }
        return hours * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2
    }

    /// `YYYYMMDD` with a valid month and day → the same digits as an integer, or nil.
    public static func date(_ b: UnsafeRawBufferPointer) -> Int32? {
        guard b.count == 8 else { return nil }
        var v: Int32 = 0
        for c in b {
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int32(c - 48)
        }
        let y = v / 10000, m = (v / 100) % 100, d = v % 100
        guard y >= 1900, m >= 1, m <= 12, d >= 1, d <= daysInMonth(Int(y), Int(m)) else { return nil }
        return v
    }

    /// Days in a Gregorian month.
    public static func daysInMonth(_ year: Int, _ month: Int) -> Int32 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Six hex digits (`RRGGBB`, no `#`).
    public static func isColor(_ b: UnsafeRawBufferPointer) -> Bool {
        b.count == 6 && b.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
    }

    /// An absolute `http`/`https` URL with a host and no spaces.
    public static func isURL(_ s: String) -> Bool {
        let lower = s.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = lower.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = lower.dropFirst(7)
        } else {
            return false
        }
        return !rest.isEmpty && !rest.hasPrefix("/") && !s.contains(where: { $0 == " " || $0.isNewline })
    }
}
