/// Hand-written parsers for the numeric attributes of OSM XML, working on raw UTF-8 bytes.
package enum DecimalE7 {
    /// Marks a value too large to be a coordinate (the integer part has more than 6 digits).
    package static let overflow: Int64 = .max

    /// Parses a plain decimal (`-12.3456789`, `+7`, `.5`) to an integer count of 1e-7 units.
    ///
    /// Digits beyond the seventh decimal are rounded half away from zero. Exponents, `NaN`, `inf`, spaces and
    /// empty strings are rejected.
    /// - Returns: The value in 1e-7 units (``overflow`` for absurdly large numbers) and whether a non-zero digit
    ///   beyond the seventh decimal was rounded away; nil when the text is not a decimal number.
    @inline(__always)
    package static func parse(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (value: Int64, excess: Bool)? {
        var p = start
        guard p < end else { return nil }
        var negative = false
        if p.pointee == UInt8(ascii: "-") {
            negative = true
            p += 1
        } else if p.pointee == UInt8(ascii: "+") {
            p += 1
        }
        var integer: Int64 = 0
        var digits = 0
        var tooLarge = false
        while p < end {
            let d = p.pointee &- 48
            guard d < 10 else { break }
            if integer < 1_000_000 { integer = integer * 10 + Int64(d) } else { tooLarge = true }
            digits += 1
            p += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        var excess = false
        if p < end && p.pointee == UInt8(ascii: ".") {
            p += 1
            while p < end {
                let d = p.pointee &- 48
                guard d < 10 else { break }
                if fractionDigits < 7 {
                    fraction = fraction * 10 + Int64(d)
                } else {
                    if fractionDigits == 7 { roundUp = d >= 5 }
                    if d != 0 { excess = true }
                }
                fractionDigits += 1
                p += 1
            }
        }
        guard p == end, digits + fractionDigits > 0 else { return nil }
        if tooLarge { return (overflow, excess) }
        var k = fractionDigits
        while k < 7 {
            fraction *= 10
            k += 1
        }
        let magnitude = integer * 10_000_000 + fraction + (roundUp ? 1 : 0)
        return (negative ? -magnitude : magnitude, excess)
    }

    /// Parses an optionally signed decimal integer that fits in `Int64`; nil otherwise.
    @inline(__always)
    package static func parseInt64(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        var p = start
        guard p < end else { return nil }
        var negative = false
        if p.pointee == UInt8(ascii: "-") {
            negative = true
            p += 1
            guard p < end else { return nil }
        }
        var value: Int64 = 0
        while p < end {
            let d = p.pointee &- 48
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            value = s
            p += 1
        }
        return negative ? -value : value
    }

    /// Degrees from 1e-7 units.
    @inline(__always)
    package static func degrees(_ e7: Int32) -> Double { Double(e7) / 10_000_000 }
}
