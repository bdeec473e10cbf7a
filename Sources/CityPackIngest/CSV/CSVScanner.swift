import CityPackDiagnostics

/// Limits and dialect switches for ``CSVScanner``.
public struct CSVOptions: Sendable {
    /// Severity of `csv.new_line_in_value`; `.error` for GTFS, `.info` (or nil to stay silent) for editorial CSV.
    public var newLineInValueSeverity: Severity?
    /// Largest accepted file, in bytes. Default 1 GiB.
    public var maxFileSize: Int
    /// Most data rows read; the rest are ignored with `csv.too_many_rows`. Default 50 million.
    public var maxRows: Int
    /// Longest accepted value, in bytes. Default 64 KiB.
    public var maxFieldLength: Int
    /// Most cells in one row; longer rows are skipped with `csv.too_many_fields`. Default 1 000.
    public var maxFieldsPerRow: Int = 1_000
    /// Trim spaces and tabs around values (reported as `csv.leading_or_trailing_whitespace`). Default true.
    public var trimWhitespace: Bool
    /// Columns the table defines; nil disables the unknown/required column checks.
    public var schema: CSVSchema?
    /// How rows that only lack trailing cells, or end in empty extra cells, are reported. They are always read
    /// (missing cells empty). True: `csv.trailing_cells` (warning), for tables whose data CityPack does not use,
    /// where a sloppy comma cannot shift a value into the pack. False (default): `csv.invalid_row_length`
    /// (error), as gtfs-validator does, for the tables that feed the pack.
    public var lenientTrailingCells: Bool = false

    public init(
        newLineInValueSeverity: Severity? = .error, maxFileSize: Int = 1 << 30, maxRows: Int = 50_000_000,
        maxFieldLength: Int = 64 << 10, trimWhitespace: Bool = true, schema: CSVSchema? = nil
    ) {
        self.newLineInValueSeverity = newLineInValueSeverity
        self.maxFileSize = maxFileSize
        self.maxRows = maxRows
        self.maxFieldLength = maxFieldLength
        self.trimWhitespace = trimWhitespace
        self.schema = schema
    }
}

/// The columns a table knows and the ones it requires.
public struct CSVSchema: Sendable {
    public var known: Set<String>
    public var required: [String]
    public init(known: [String], required: [String]) {
        self.known = Set(known).union(required)
        self.required = required
    }
}

/// One cell of the current row, as a byte range into the file (never copied).
public struct CSVField: Sendable {
    /// Byte offset of the first value byte (after the opening quote and trimming).
    public var start: Int
    /// Byte offset one past the last value byte.
    public var end: Int
    /// Physical 1-based line of the cell's first byte.
    public var line: Int32
    /// 1-based byte column of the cell's first byte (the quote, if quoted).
    public var column: Int32
    /// The value holds `""` pairs that must be collapsed.
    public var hasEscapedQuotes: Bool

    public var isEmpty: Bool { start >= end }
}

/// The header row: column names and a name → index lookup.
public struct CSVHeader: Sendable {
    public let names: [String]
    private let indexByName: [String: Int]

    init(names: [String]) {
        self.names = names
        var map: [String: Int] = [:]
        for (i, n) in names.enumerated() where map[n] == nil && !n.isEmpty { map[n] = i }
        self.indexByName = map
    }

    /// Index of the first column with this name, or nil.
    public func index(of name: String) -> Int? { indexByName[name] }
}

/// A borrowed view of one data row; valid only inside the `onRow` callback.
///
/// Accessors take an optional column index (as returned by ``CSVHeader/index(of:)``) so absent columns read as
/// empty. Strings are made only on request.
public struct CSVRow {
    public let bytes: UnsafeRawBufferPointer
    public let fields: UnsafeBufferPointer<CSVField>
    /// Physical line where the row starts.
    public let line: Int
    public let file: String
    public let header: CSVHeader

    /// True when the column is absent or its value is empty.
    @inline(__always)
    public func isEmpty(_ column: Int?) -> Bool {
        guard let c = column else { return true }
        return fields[c].isEmpty
    }

    /// The value's bytes (without quotes; `""` pairs still doubled when ``CSVField/hasEscapedQuotes``).
    @inline(__always)
    public func raw(_ column: Int) -> UnsafeRawBufferPointer {
        let f = fields[column]
        return UnsafeRawBufferPointer(rebasing: bytes[f.start..<f.end])
    }

    /// The value as a String, or nil when the column is absent or empty.
    public func string(_ column: Int?) -> String? {
        guard let c = column, !fields[c].isEmpty else { return nil }
        let f = fields[c]
        if !f.hasEscapedQuotes { return String(decoding: raw(c), as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(f.end - f.start)
        var i = f.start
        while i < f.end {
            let b = bytes[i]
            out.append(b)
            i += (b == UInt8(ascii: "\"") && i + 1 < f.end && bytes[i + 1] == UInt8(ascii: "\"")) ? 2 : 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The location of a cell (or of the row when the column is absent).
    public func location(_ column: Int?) -> SourceLocation {
        guard let c = column else { return SourceLocation(file: file, line: line, column: 1) }
        let f = fields[c]
        return SourceLocation(file: file, line: Int(f.line), column: Int(f.column), field: header.names[c])
    }

    /// Bytes equal to the given bytes (fast key comparison without making a String).
    @inline(__always)
    public func rawEquals(_ column: Int, _ other: UnsafeRawBufferPointer) -> Bool {
        let r = raw(column)
        guard r.count == other.count else { return false }
        return r.elementsEqual(other)
    }
}

/// What a scan saw, for callers that need file-level facts.
public struct CSVScanSummary: Sendable {
    /// Header (nil when the file is empty or unreadable).
    public var header: CSVHeader?
    /// Physical line of the header row (0 when there is none).
    public var headerLine: Int
    /// Data rows delivered to `onRow`.
    public var rows: Int
}

/// A streaming RFC 4180 scanner over UTF-8 bytes, with GTFS's stricter rules as options.
///
/// Rows are delivered as byte ranges; no per-field allocation happens on the hot path. Lines are physical
/// 1-based lines and columns 1-based byte columns. Problems are reported to the bag with `csv.*` codes.
/// Stateless and thread-safe.
public enum CSVScanner {
    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// Scans a whole file.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - file: display path used in diagnostics.
    ///   - options: limits and dialect.
    ///   - bag: receives diagnostics.
    ///   - onRow: called once per well-formed, non-empty data row.
    /// - Returns: the header and row count.
    @discardableResult
    public static func scan(
        _ bytes: UnsafeRawBufferPointer, file: String, options: CSVOptions = CSVOptions(), bag: DiagnosticBag,
        onRow: (CSVRow) -> Void
    ) -> CSVScanSummary {
        var summary = CSVScanSummary(header: nil, headerLine: 0, rows: 0)
        let whole = SourceLocation(file: file)
        if bytes.count > options.maxFileSize {
            bag.report(
                Rules.csvFileTooLarge, "file is \(bytes.count) bytes, over the limit of \(options.maxFileSize)",
                at: whole)
            return summary
        }
        var start = 0
        if bytes.count >= 2,
            (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)
        {
            bag.report(Rules.csvUTF16, "file is encoded in UTF-16; only UTF-8 is accepted",
                at: SourceLocation(file: file, line: 1, column: 1))
            return summary
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bag.report(Rules.csvUTF8BOM, "UTF-8 byte order mark skipped", at: SourceLocation(file: file, line: 1, column: 1))
            start = 3
        }
        checkEncoding(bytes, from: start, file: file, bag: bag)

        var fields = ContiguousArray<CSVField>()
        fields.reserveCapacity(32)
        var header: CSVHeader?
        var expected = 0
        var line = 1
        var lineStart = 0  // offset of the current physical line's first byte (BOM counts as part of line 1)
        var i = start
        let n = bytes.count
        var tooMany = false

        while i < n {
            // Scan one record.
            fields.removeAll(keepingCapacity: true)
            let rowLine = line
            var endOfRecord = false
            var broken = false
            var tooWide = false
            while !endOfRecord {
                let fieldLine = line
                let fieldColumn = i - lineStart + 1
                var f = CSVField(start: i, end: i, line: Int32(fieldLine), column: Int32(fieldColumn),
                    hasEscapedQuotes: false)
                if i < n && bytes[i] == quote {
                    // Quoted field.
                    var j = i + 1
                    var closed = false
                    var newline = false
                    while j < n {
                        let b = bytes[j]
                        if b == quote {
                            if j + 1 < n && bytes[j + 1] == quote {
                                f.hasEscapedQuotes = true
                                j += 2
                                continue
                            }
                            closed = true
                            break
                        }
                        if b == lf {
                            newline = true
                            line += 1
                            lineStart = j + 1
                        } else if b == cr {
                            newline = true
                            if !(j + 1 < n && bytes[j + 1] == lf) {
                                line += 1
                                lineStart = j + 1
                            }
                        }
                        j += 1
                    }
                    if !closed {
                        bag.report(Rules.csvUnterminatedQuote, "quoted field is not closed before the end of the file",
                            at: SourceLocation(file: file, line: fieldLine, column: fieldColumn,
                                field: header.map { fieldName($0, fields.count) } ?? nil))
                        return summary
                    }
                    f.start = i + 1
                    f.end = j
                    if newline, let sev = options.newLineInValueSeverity {
                        bag.report(Diagnostic(sev, code: Rules.csvNewLineInValue.code,
                            message: "value contains a line break", at: SourceLocation(file: file, line: fieldLine,
                                column: fieldColumn, field: header.map { fieldName($0, fields.count) } ?? nil)))
                    }
                    i = j + 1
                    // Spaces after the closing quote are padding, not content: warn and skip them.
                    var k = i
                    while k < n && isSpace(bytes[k]) { k += 1 }
                    if k > i && (k == n || bytes[k] == comma || bytes[k] == lf || bytes[k] == cr) {
                        bag.report(Rules.csvWhitespace, "whitespace after the closing quote; ignored",
                            at: SourceLocation(file: file, line: line, column: i - lineStart + 1,
                                field: header.map { fieldName($0, fields.count) } ?? nil))
                        i = k
                    }
                    // After the closing quote: delimiter, end of line or end of file.
                    if i < n, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr {
                        bag.report(Rules.csvStrayQuote, "unexpected text after the closing quote",
                            at: SourceLocation(file: file, line: line, column: i - lineStart + 1,
                                field: header.map { fieldName($0, fields.count) } ?? nil))
                        broken = true
                        while i < n, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr { i += 1 }
                    }
                } else {
                    var j = i
                    var strayAt = -1
                    while j < n {
                        let b = bytes[j]
                        if b == comma || b == lf || b == cr { break }
                        if b == quote && strayAt < 0 { strayAt = j }
                        j += 1
                    }
                    if strayAt >= 0 {
                        bag.report(Rules.csvStrayQuote, "`\"` inside an unquoted field",
                            at: SourceLocation(file: file, line: line, column: strayAt - lineStart + 1,
                                field: header.map { fieldName($0, fields.count) } ?? nil))
                        broken = true
                    }
                    f.end = j
                    i = j
                }
                if options.trimWhitespace { trim(&f, bytes, file: file, header: header, index: fields.count, bag: bag) }
                if f.end - f.start > options.maxFieldLength {
                    bag.report(Rules.csvFieldTooLong,
                        "value is \(f.end - f.start) bytes, over the limit of \(options.maxFieldLength)",
                        at: SourceLocation(file: file, line: Int(f.line), column: Int(f.column)))
                    broken = true
                }
                if fields.count < options.maxFieldsPerRow {
                    fields.append(f)
                } else if !tooWide {
                    // Cells past the limit are scanned but not kept, so a row of a million commas stays small.
                    tooWide = true
                    broken = true
                    bag.report(Rules.csvTooManyFields,
                        "row has more than \(options.maxFieldsPerRow) cells; the row is skipped",
                        at: SourceLocation(file: file, line: Int(f.line), column: Int(f.column)))
                }
                // Delimiter or record end.
                if i >= n {
                    endOfRecord = true
                } else if bytes[i] == comma {
                    i += 1
                } else {
                    if bytes[i] == cr { i += 1 }
                    if i < n && bytes[i] == lf { i += 1 }
                    line += 1
                    lineStart = i
                    endOfRecord = true
                }
            }

            // All cells empty (including a blank line): skip.
            var allEmpty = true
            for f in fields where !f.isEmpty {
                allEmpty = false
                break
            }
            if allEmpty {
                if header != nil || fields.count > 1 {
                    bag.report(Rules.csvEmptyRow, "row is empty",
                        at: SourceLocation(file: file, line: rowLine, column: 1))
                }
                continue
            }

            guard let h = header else {
                let names = fields.map { f -> String in
                    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[f.start..<f.end]), as: UTF8.self)
                }
                let hdr = CSVHeader(names: names)
                header = hdr
                summary.header = hdr
                summary.headerLine = rowLine
                expected = names.count
                checkHeader(hdr, fields: fields, file: file, options: options, bag: bag)
                continue
            }
            if broken { continue }
            if fields.count != expected {
                // Recover when the cells still line up: missing trailing cells read as empty, extra trailing
                // cells are empty (a warning). Otherwise the row is an error and skipped.
                let location = SourceLocation(file: file, line: rowLine, column: 1)
                let trailingRule = options.lenientTrailingCells ? Rules.csvTrailingCells : Rules.csvInvalidRowLength
                if fields.count < expected {
                    bag.report(trailingRule,
                        "row has \(fields.count) cells but the header has \(expected); the missing trailing cells are read as empty",
                        at: location)
                    let last = fields[fields.count - 1]
                    while fields.count < expected {
                        fields.append(CSVField(start: last.end, end: last.end, line: last.line, column: last.column,
                            hasEscapedQuotes: false))
                    }
                } else if fields[expected...].allSatisfy(\.isEmpty) {
                    bag.report(trailingRule,
                        "row has \(fields.count) cells but the header has \(expected); the extra trailing cells are empty and ignored",
                        at: location)
                    fields.removeLast(fields.count - expected)
                } else {
                    bag.report(Rules.csvInvalidRowLength,
                        "row has \(fields.count) cells but the header has \(expected), and the extra cells are not empty; the row is skipped",
                        at: location)
                    continue
                }
            }
            if summary.rows >= options.maxRows {
                if !tooMany {
                    bag.report(Rules.csvTooManyRows, "more than \(options.maxRows) rows; the rest are ignored",
                        at: SourceLocation(file: file, line: rowLine, column: 1))
                    tooMany = true
                }
                break
            }
            summary.rows += 1
            fields.withUnsafeBufferPointer { buf in
                onRow(CSVRow(bytes: bytes, fields: buf, line: rowLine, file: file, header: h))
            }
        }
        if header == nil {
            bag.report(Rules.csvEmptyFile, "file has no header row", at: whole)
        }
        return summary
    }

    private static func fieldName(_ header: CSVHeader, _ index: Int) -> String? {
        index < header.names.count ? header.names[index] : nil
    }

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    @inline(__always)
    private static func trim(
        _ f: inout CSVField, _ bytes: UnsafeRawBufferPointer, file: String, header: CSVHeader?, index: Int,
        bag: DiagnosticBag
    ) {
        guard f.start < f.end, isSpace(bytes[f.start]) || isSpace(bytes[f.end - 1]) else { return }
        while f.start < f.end && isSpace(bytes[f.start]) { f.start += 1 }
        while f.end > f.start && isSpace(bytes[f.end - 1]) { f.end -= 1 }
        bag.report(Rules.csvWhitespace, "value has leading or trailing whitespace; trimmed",
            at: SourceLocation(file: file, line: Int(f.line), column: Int(f.column),
                field: header.map { fieldName($0, index) } ?? nil))
    }

    private static func checkHeader(
        _ header: CSVHeader, fields: ContiguousArray<CSVField>, file: String, options: CSVOptions,
        bag: DiagnosticBag
    ) {
        let names = Set(header.names)
        let headerLocation = SourceLocation(file: file, line: Int(fields.first?.line ?? 1), column: 1)
        if let schema = options.schema, !schema.known.isEmpty, names.isDisjoint(with: schema.known) {
            bag.report(Rules.csvMissingHeader, "the header names no known column; is the header row missing?",
                at: headerLocation)
            // The "header" is most likely a data row: its empty or repeated cells are values, not column names.
            return
        }
        var seen = Set<String>()
        for (i, name) in header.names.enumerated() {
            let loc = SourceLocation(file: file, line: Int(fields[i].line), column: Int(fields[i].column))
            if name.isEmpty {
                bag.report(Rules.csvEmptyColumnName, "column \(i + 1) has no name", at: loc)
            } else if !seen.insert(name).inserted {
                bag.report(Rules.csvDuplicatedColumn, "column `\(name)` appears more than once", at: loc)
            } else if let schema = options.schema, !schema.known.contains(name) {
                let absent = schema.known.subtracting(names)
                if let guess = NameSimilarity.closest(to: name, in: absent.sorted()) {
                    bag.report(Rules.csvMisspelledColumn, "unknown column `\(name)` is ignored; did you mean `\(guess)`?", at: loc)
                } else {
                    bag.report(Rules.csvUnknownColumn, "unknown column `\(name)` is ignored", at: loc)
                }
            }
        }
        guard let schema = options.schema else { return }
        for name in schema.required where !seen.contains(name) {
            bag.report(Rules.csvMissingRequiredColumn, "required column `\(name)` is missing", at: headerLocation)
        }
    }

    /// One pass over the bytes for NUL, invalid UTF-8, odd line separators and mixed line endings.
    /// Each problem is reported once per file, at its first occurrence.
    static func checkEncoding(_ bytes: UnsafeRawBufferPointer, from start: Int, file: String, bag: DiagnosticBag) {
        var line = 1
        var lineStart = 0
        var sawNul = false, sawBadUTF8 = false, sawSeparator = false, sawMixed = false
        var firstEnding: UInt8 = 0  // 0 unknown, 1 LF, 2 CRLF
        let n = bytes.count
        var i = start
        func at(_ offset: Int) -> SourceLocation {
            SourceLocation(file: file, line: line, column: offset - lineStart + 1)
        }
        while i < n {
            let b = bytes[i]
            if b >= 0x20 && b < 0x80 {
                i += 1
                continue
            }
            if b == lf {
                let ending: UInt8 = (i > start && bytes[i - 1] == cr) ? 2 : 1
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
                            "bare carriage return (CR without LF): rows end with LF or CRLF only; this CR splits the row here",
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
            let len = utf8SequenceLength(bytes, i, n)
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
