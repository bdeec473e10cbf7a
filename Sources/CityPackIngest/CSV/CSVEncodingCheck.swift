import CityPackDiagnostics

/// The file-wide byte checks: NUL, invalid UTF-8, odd line separators and mixed line endings, each reported
/// once per file at its first occurrence. Runs over the file in pieces, independently of the record scan.
struct CSVEncodingCheck {
    private var line = 1
    /// File offset of the current line's first byte.
    private var lineStart = 0
    private var sawNul = false, sawBadUTF8 = false, sawSeparator = false, sawMixed = false
    private var firstEnding: UInt8 = 0  // 0 unknown, 1 LF, 2 CRLF
    /// The byte before the next one to check is a CR (false at the start of the file or after a BOM).
    private var afterCR = false

    /// Checks `bytes[from...]`.
    /// - Parameters:
    ///   - base: file offset of `bytes[0]`.
    ///   - end: `bytes` runs to the end of the file. When false, the last three bytes are left for the next call
    ///     (a UTF-8 sequence or a CR LF pair may continue past them).
    /// - Returns: the first byte not checked.
    mutating func check(
        _ bytes: UnsafeRawBufferPointer, from start: Int, base: Int, end: Bool, file: String, bag: DiagnosticBag
    ) -> Int {
        let lf = CSVScanner.lf, cr = CSVScanner.cr
        let n = bytes.count
        let stop = end ? n : n - 3
        var i = start
        guard i < stop else { return i }
        var line = self.line
        var lineStart = self.lineStart - base
        defer {
            self.line = line
            self.lineStart = lineStart + base
            if i > start { afterCR = bytes[i - 1] == cr }
        }
        func at(_ offset: Int) -> SourceLocation {
            SourceLocation(file: file, line: line, column: offset - lineStart + 1)
        }
        while i < stop {
            let b = bytes[i]
            if b >= 0x20 && b < 0x80 {
                i += 1
                continue
            }
            if b == lf {
                let ending: UInt8 = (i > start ? bytes[i - 1] == cr : afterCR) ? 2 : 1
                if firstEnding == 0 {
                    firstEnding = ending
                } else if ending != firstEnding && !sawMixed {
                    sawMixed = true
                    bag.report(Rules.csvMixedLineEndings,
                        "line ends with \(ending == 2 ? "CRLF" : "LF") but earlier lines end with \(ending == 2 ? "LF" : "CRLF")",
                        at: at(ending == 2 ? i - 1 : i))
                }
                line += 1
                lineStart = i + 1
                i += 1
                continue
            }
            if b == cr {
                if !(i + 1 < n && bytes[i + 1] == lf) {
                    if !sawSeparator {
                        sawSeparator = true
                        bag.report(
                            Rules.csvBareCarriageReturn,
                            "bare carriage return (CR without LF): read as a row end, as gtfs-validator reads it; rows should end with LF or CRLF",
                            at: at(i))
                    }
                    line += 1
                    lineStart = i + 1
                }
                i += 1
                continue
            }
            if b == 0 {
                if !sawNul {
                    sawNul = true
                    bag.report(Rules.csvNulByte, "file contains a NUL byte", at: at(i))
                }
                i += 1
                continue
            }
            if b == 0x0C && !sawSeparator {
                sawSeparator = true
                bag.report(Rules.csvInvalidLineSeparator, "form feed character", at: at(i))
            }
            if b < 0x80 {
                i += 1
                continue
            }
            // Multi-byte UTF-8 sequence.
            let len = Self.utf8SequenceLength(bytes, i, n)
            if len == 0 {
                if !sawBadUTF8 {
                    sawBadUTF8 = true
                    bag.report(Rules.csvInvalidUTF8, "invalid UTF-8 byte 0x\(String(b, radix: 16, uppercase: true))",
                        at: at(i))
                }
                i += 1
                continue
            }
            if !sawSeparator
                && ((len == 2 && b == 0xC2 && bytes[i + 1] == 0x85)
                    || (len == 3 && b == 0xE2 && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)))
            {
                sawSeparator = true
                bag.report(Rules.csvInvalidLineSeparator, "Unicode line or paragraph separator (U+0085/2028/2029)",
                    at: at(i))
            }
            i += len
        }
        return i
    }

    /// Length of a valid UTF-8 sequence starting at `i` (lead byte ≥ 0x80), or 0 when invalid.
    @inline(__always)
    private static func utf8SequenceLength(_ p: UnsafeRawBufferPointer, _ i: Int, _ n: Int) -> Int {
        let b0 = p[i]
        func cont(_ k: Int) -> Bool { i + k < n && p[i + k] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(1) ? 2 : 0
        case 0xE0...0xEF:
            guard cont(1), cont(2) else { return 0 }
            let b1 = p[i + 1]
            if b0 == 0xE0 && b1 < 0xA0 { return 0 }  // overlong
            if b0 == 0xED && b1 >= 0xA0 { return 0 }  // surrogates
            return 3
        case 0xF0...0xF4:
            guard cont(1), cont(2), cont(3) else { return 0 }
            let b1 = p[i + 1]
            if b0 == 0xF0 && b1 < 0x90 { return 0 }
            if b0 == 0xF4 && b1 >= 0x90 { return 0 }
            return 4
        default:
            return 0
        }
    }
}
