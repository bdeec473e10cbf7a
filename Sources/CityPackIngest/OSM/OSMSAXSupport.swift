import CCityPackXML2
import CityPackDiagnostics
import CityPackModel
import Foundation

// MARK: Positions

extension OSMSAXAdapter {
    /// Line and column where the tag being parsed starts (its `<`), derived from the parser's position.
    ///
    /// libxml2 calls back with its cursor at the end of the start tag; scanning back to `<` gives the start.
    /// Columns count characters, like libxml2's own error columns. Column 0 when the line start is no longer
    /// in the parser's buffer.
    ///
    /// - Parameter hint: A pointer inside the tag (the first attribute value, when libxml2 hands it out of its
    ///   input buffer); scanning back from it is short, and the characters up to the cursor are counted 8 bytes
    ///   at a time.
    func tagStart(hint: UnsafePointer<UInt8>? = nil) -> (line: Int32, column: Int32) {
        guard let ctxt, let input = ctxt.pointee.input else { return (0, 0) }
        let line = input.pointee.line
        let col = input.pointee.col
        guard let cur = input.pointee.cur, let base = input.pointee.base else { return (line, 0) }
        if let hint, hint > base, hint <= cur {
            var p = hint
            while p > base && p.pointee != UInt8(ascii: "<") && p.pointee != UInt8(ascii: "\n") { p -= 1 }
            if p.pointee == UInt8(ascii: "<"), let chars = Self.charactersWithoutNewline(p + 1, cur) {
                return (line, max(col - chars - 1, 1))
            }
        }
        var p = cur
        var chars: Int32 = 0
        var newlines: Int32 = 0
        while p > base {
            p -= 1
            let b = p.pointee
            if b == UInt8(ascii: "<") { break }
            if b == UInt8(ascii: "\n") { newlines += 1 }
            if b & 0xC0 != 0x80 { chars += 1 }
        }
        guard p.pointee == UInt8(ascii: "<") else { return (line, 0) }
        if newlines == 0 { return (line, max(col - chars - 1, 1)) }
        var q = p
        var width: Int32 = 1
        while q > base {
            q -= 1
            if q.pointee == UInt8(ascii: "\n") { return (line - newlines, width) }
            if q.pointee & 0xC0 != 0x80 { width += 1 }
        }
        return (line - newlines, input.pointee.consumed == 0 ? width : 0)
    }

    /// Number of UTF-8 characters in `[start, end)`, or nil when the range holds a newline.
    @inline(__always)
    static func charactersWithoutNewline(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int32? {
        var p = UnsafeRawPointer(start)
        let stop = UnsafeRawPointer(end)
        var continuation = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        while stop - p >= 8 {
            let w = p.loadUnaligned(as: UInt64.self)
            let x = w ^ (ones &* 0x0A)
            if (x &- ones) & ~x & high != 0 { return nil }
            continuation += (w & ~(w << 1) & high).nonzeroBitCount
            p += 8
        }
        while p < stop {
            let b = p.load(as: UInt8.self)
            if b == 0x0A { return nil }
            if b & 0xC0 == 0x80 { continuation += 1 }
            p += 1
        }
        return Int32(end - start - continuation)
    }

    /// Current parser position (for errors found between tags).
    func currentPosition() -> SourceLocation {
        guard let ctxt, let input = ctxt.pointee.input else { return SourceLocation(file: displayPath) }
        return SourceLocation(file: displayPath, line: Int(input.pointee.line), column: Int(input.pointee.col))
    }
}

// MARK: Byte helpers

/// Compares a NUL-terminated libxml2 name with an ASCII literal, byte by byte.
@inline(__always)
func nameIs(_ name: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
    let n = literal.utf8CodeUnitCount
    let l = literal.utf8Start
    for i in 0..<n where name[i] != l[i] { return false }
    return name[n] == 0
}

/// Calls `body(localname, valueStart, valueEnd)` for each SAX2 attribute (5 pointers per attribute).
@inline(__always)
func forEachAttribute(
    _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Void
) {
    guard let attributes else { return }
    for i in 0..<count {
        let a = attributes + 5 * i
        guard let name = a[0], let start = a[3], let end = a[4] else { continue }
        body(name, start, end)
    }
}

/// An attribute value as a String. libxml2 (which never substitutes entities here) hands every `&` of a value,
/// whether written `&amp;` or `&#38;`, as the five bytes `&#38;`, so those are turned back into `&`; no other
/// `&` can occur in its output.
func attributeValue(_ start: UnsafePointer<UInt8>, _ count: Int) -> String {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard memchr(start, Int32(UInt8(ascii: "&")), count) != nil else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(count)
    var i = 0
    while i < count {
        if bytes[i] == UInt8(ascii: "&"), i + 4 < count, bytes[i + 1] == UInt8(ascii: "#"), bytes[i + 2] == UInt8(ascii: "3"),
            bytes[i + 3] == UInt8(ascii: "8"), bytes[i + 4] == UInt8(ascii: ";")
        {
            out.append(UInt8(ascii: "&"))
            i += 5
        } else {
            out.append(bytes[i])
            i += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// A String from a byte range (only for values that are kept or reported).
func string(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> String {
    String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
}
