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
    /// Streaming only: bytes asked of the source per read. Default 1 MiB.
    public var readChunkSize: Int = 1 << 20
    /// Streaming only: a record still open after this many bytes is scanned without keeping its bytes (only
    /// its cells' values, at most ``maxFieldLength`` bytes each), so one endless record (an unterminated
    /// quote, a run of NUL bytes) cannot fill memory. Default 4 MiB.
    public var recordBufferSize: Int = 4 << 20
    /// Record a ``CSVRowMark`` for the first data row and then every this many data rows
    /// (``CSVScanSummary/rowMarks``), so a later scan can start there (``CSVScanner/scan(file:options:bag:from:read:onRow:)``).
    /// 0 (default): none.
    public var rowIndexInterval: Int = 0
    /// Run the file-wide byte checks (NUL, UTF-8, line separators, line endings). Default true; a scan that
    /// reads a file again, after its first reading reported them, turns them off.
    public var checkEncoding: Bool = true

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
    /// Row starts the scan recorded (``CSVOptions/rowIndexInterval``), in file order.
    public var rowMarks: [CSVRowMark] = []
}

/// Where a data row the scanner delivered starts: a record boundary, from which a scan can start again with
/// the same rows, lines and columns as the scan that recorded it.
public struct CSVRowMark: Sendable, Hashable {
    /// Physical line of the row.
    public var line: Int
    /// Byte offset of the row's first byte in the file (a UTF-8 byte order mark counted).
    public var offset: Int
    /// Data rows delivered before it.
    public var rowsBefore: Int

    public init(line: Int, offset: Int, rowsBefore: Int) {
        self.line = line
        self.offset = offset
        self.rowsBefore = rowsBefore
    }
}

/// The header of a file and the marks its scan recorded (``CSVScanSummary/rowMarks``): enough to scan it again
/// from one of its rows.
public struct CSVRowIndex: Sendable {
    public var header: CSVHeader
    public var marks: [CSVRowMark]

    public init(header: CSVHeader, marks: [CSVRowMark]) {
        self.header = header
        self.marks = marks
    }

    /// The last mark at or before `line`, or nil.
    public func mark(atOrBefore line: Int) -> CSVRowMark? {
        var low = 0, high = marks.count  // first mark after `line`
        while low < high {
            let mid = (low + high) / 2
            if marks[mid].line <= line { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? marks[low - 1] : nil
    }
}

/// An RFC 4180 scanner over UTF-8 bytes, with GTFS's stricter rules as options.
///
/// Rows are delivered as byte ranges; no per-field allocation happens on the hot path. Lines are physical
/// 1-based lines and columns 1-based byte columns. Problems are reported to the bag with `csv.*` codes.
/// A file is scanned whole from memory (``scan(_:file:options:bag:onRow:)``) or read in chunks from a source
/// (``scan(file:options:bag:read:onRow:)``); both give the same rows, locations and diagnostics.
/// Stateless and thread-safe.
public enum CSVScanner {
    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")

    /// Scans a whole file held in memory.
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
        var state = CSVScanState(file: file, options: options, bag: bag)
        if bytes.count > options.maxFileSize {
            bag.report(
                Rules.csvFileTooLarge, "file is \(bytes.count) bytes, over the limit of \(options.maxFileSize)",
                at: SourceLocation(file: file))
            return state.summary
        }
        guard let start = state.prelude(bytes) else { return state.summary }
        if options.checkEncoding {
            var encoding = CSVEncodingCheck()
            _ = encoding.check(bytes, from: start, base: 0, end: true, file: file, bag: bag)
        }
        _ = state.scanRecords(bytes, from: start, base: 0, end: true, onRow: onRow)
        return state.finish()
    }

    /// Scans a file read in chunks of ``CSVOptions/readChunkSize`` bytes: only the current chunk and the record
    /// it ends in are held (a record longer than ``CSVOptions/recordBufferSize`` is scanned in place, keeping
    /// only its cells' values), so memory does not grow with the file. Rows (each valid only inside `onRow`),
    /// locations and diagnostics are those of ``scan(_:file:options:bag:onRow:)`` on the whole file, wherever
    /// the chunks fall. The source is read to its end even when rows stop early (the rows limit, a UTF-16
    /// file), so the caller sees any error the source reports; only a source that yields more than
    /// ``CSVOptions/maxFileSize`` bytes is abandoned there (`csv.file_too_large`; callers that know the size
    /// check it before, as the whole-file scan does).
    /// - Parameters:
    ///   - read: fills the start of the buffer with the file's next bytes and returns how many (any number up to
    ///     the buffer's size); 0 at the end. A throw stops the scan at once (no end-of-file diagnostics) and is
    ///     rethrown.
    @discardableResult
    public static func scan(
        file: String, options: CSVOptions = CSVOptions(), bag: DiagnosticBag,
        read: (UnsafeMutableRawBufferPointer) throws -> Int, onRow: (CSVRow) -> Void
    ) rethrows -> CSVScanSummary {
        try scan(file: file, options: options, bag: bag, resume: nil, read: read, onRow: onRow)
    }

    /// Scans a file from one of its rows, as ``scan(file:options:bag:read:onRow:)`` does from its start: `read`
    /// gives the file's bytes from `mark`'s offset on, and the rows, lines and columns (and the rows limit) are
    /// those of a scan of the whole file, given `index`, recorded by a scan of the same bytes with the same
    /// options. Diagnostics about the bytes before the mark (the header's, the byte checks') are not repeated.
    @discardableResult
    public static func scan(
        file: String, options: CSVOptions = CSVOptions(), bag: DiagnosticBag, from mark: CSVRowMark,
        index: CSVRowIndex, read: (UnsafeMutableRawBufferPointer) throws -> Int, onRow: (CSVRow) -> Void
    ) rethrows -> CSVScanSummary {
        try scan(file: file, options: options, bag: bag, resume: (mark, index.header), read: read, onRow: onRow)
    }

    private static func scan(
        file: String, options: CSVOptions, bag: DiagnosticBag, resume: (CSVRowMark, CSVHeader)?,
        read: (UnsafeMutableRawBufferPointer) throws -> Int, onRow: (CSVRow) -> Void
    ) rethrows -> CSVScanSummary {
        var state = CSVScanState(file: file, options: options, bag: bag)
        var encoding = CSVEncodingCheck()
        let chunk = max(options.readChunkSize, 1)
        let longRecord = max(options.recordBufferSize, 1)
        var capacity = chunk * 2
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0  // bytes in the buffer
        var position = 0  // first byte not yet scanned for records (a record start unless a long record is open)
        var checked = 0  // first byte not yet checked for encoding
        var base = 0  // file offset of buffer[0]
        var total = 0
        var started = false  // BOM / UTF-16 decided
        var draining = false  // nothing more to scan: read to the end only
        var utf16 = false
        var ended = false
        if let resume {
            state.resume(at: resume.0, header: resume.1)
            base = resume.0.offset
            total = resume.0.offset
            started = true
        }
        while !ended {
            // Room for a whole chunk: drop what is done, then grow if one open record fills the buffer.
            if capacity - filled < chunk {
                let drop = draining ? filled : min(position, checked)
                if drop > 0 {
                    if drop < filled { buffer.copyMemory(from: buffer + drop, byteCount: filled - drop) }  // memmove
                    filled -= drop
                    position -= drop
                    checked -= drop
                    base += drop
                }
                if capacity - filled < chunk {
                    let grown = max(capacity * 2, filled + chunk)
                    let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
                    bigger.copyMemory(from: buffer, byteCount: filled)
                    buffer.deallocate()
                    buffer = bigger
                    capacity = grown
                }
            }
            let n = try read(UnsafeMutableRawBufferPointer(start: buffer + filled, count: chunk))
            if n == 0 { ended = true }
            filled += n
            total += n
            if draining { continue }
            if total > options.maxFileSize {
                bag.report(Rules.csvFileTooLarge, "file is over the limit of \(options.maxFileSize) bytes",
                    at: SourceLocation(file: file))
                return state.summary
            }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: filled)
            if !started {
                if filled < 3 && !ended { continue }
                started = true
                guard let start = state.prelude(bytes) else {
                    draining = true
                    utf16 = true
                    continue
                }
                position = start
                checked = start
            }
            if options.checkEncoding {
                checked = encoding.check(bytes, from: checked, base: base, end: ended, file: file, bag: bag)
            } else {
                checked = filled
            }
            while !state.stopped {
                if state.longRecord != nil {
                    position = state.scanLongRecord(bytes, from: position, base: base, end: ended, onRow: onRow)
                    if state.longRecord != nil { break }
                }
                position = state.scanRecords(bytes, from: position, base: base, end: ended, onRow: onRow)
                guard !ended, !state.stopped, filled - position >= longRecord else { break }
                state.openLongRecord(at: base + position)
            }
            if state.stopped {
                // The rows limit or an unterminated quote: the rest is only checked for encoding.
                position = filled
            }
        }
        return utf16 ? state.summary : state.finish()
    }

    static func fieldName(_ header: CSVHeader, _ index: Int) -> String? {
        index < header.names.count ? header.names[index] : nil
    }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    static func checkHeader(
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
}
