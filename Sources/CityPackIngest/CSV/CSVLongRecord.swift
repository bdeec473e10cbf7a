import CityPackDiagnostics

/// A record scanned byte by byte without holding its bytes: what ``CSVScanner`` does with a record that is still
/// open after ``CSVOptions/recordBufferSize`` bytes (an unterminated quote that would run to the end of the
/// file, a line of NUL bytes, a row of a million commas). Only each cell's value is kept, at most
/// ``CSVOptions/maxFieldLength`` bytes of it (a longer value makes the row invalid anyway; a header cell is
/// kept up to 64 KiB even when the limit is lower, and cut there), and cells past ``CSVOptions/maxFieldsPerRow`` are not kept at all, so memory stays bounded by
/// the limits whatever the record's length.
///
/// The grammar, the locations and the diagnostics are those of ``CSVScanState/scanRecords(_:from:base:end:onRow:)``,
/// restated as a state machine that needs no lookahead: a byte whose meaning depends on the next one (a quote
/// inside quotes, a CR) leaves the machine in a waiting state. `CSVStreamingTests` holds the two to the same
/// output by forcing every record through here.
struct CSVLongRecord {
    enum Phase {
        /// Before the first byte of a cell.
        case cellStart
        case unquoted
        case quoted
        /// Inside quotes, after a quote: a second quote is an escaped one, anything else closes the cell.
        case quotedQuote
        /// Inside quotes, after a CR: the line count waits for the next byte.
        case quotedCR
        /// After the closing quote, counting spaces.
        case afterClose
        /// After the closing quote and text that should not be there, up to the delimiter.
        case strayText
        /// After the CR that ends the record: an LF there belongs to it.
        case recordCR
    }

    var phase = Phase.cellStart
    let rowLine: Int
    var broken = false
    var tooWide = false
    /// The kept values of the record's cells, one after the other.
    var store: [UInt8] = []

    // The current cell.
    var cellLine: Int
    var cellColumn: Int
    var hasEscapedQuotes = false
    var newline = false
    var strayLine = 0, strayColumn = 0
    var hasStray = false
    var closeLine = 0, closeColumn = 0
    var spaces = 0
    /// File offset of the CR being waited on (`quotedCR`, `recordCR`).
    var crOffset = 0

    // The current cell's value: its length, the spaces and tabs around it, and its first bytes in `store`.
    var valueStart = 0
    var rawLength = 0
    var leading = 0
    var trailing = 0
    var allSpace = true
    var firstIsSpace = false
    var lastIsSpace = false
    var keeping = true
    /// Most bytes of the value kept.
    var keepLimit = 0

    init(line: Int, column: Int) {
        rowLine = line
        cellLine = line
        cellColumn = column
    }
}

extension CSVScanState {
    /// Starts scanning the record at file offset `offset` (a record start) in place.
    mutating func openLongRecord(at offset: Int) {
        longRecord = CSVLongRecord(line: line, column: offset - lineStart + 1)
        fields.removeAll(keepingCapacity: true)
        longRecord!.keeping = true
    }

    /// Feeds `bytes[from...]` to the open long record.
    /// - Parameters:
    ///   - base: file offset of `bytes[0]`.
    ///   - end: `bytes` runs to the end of the file.
    /// - Returns: the first byte not consumed: `bytes.count` while the record stays open, else the byte after it
    ///   (``longRecord`` is then nil).
    mutating func scanLongRecord(
        _ bytes: UnsafeRawBufferPointer, from: Int, base: Int, end: Bool, onRow: (CSVRow) -> Void
    ) -> Int {
        guard var r = longRecord else { return from }
        longRecord = nil
        var i = from
        let n = bytes.count
        var done = false
        while i < n && !done {
            let b = bytes[i]
            let offset = base + i
            var consumed = true
            step(&r, b, offset, &done, &consumed)
            if consumed { i += 1 }
        }
        if !done && end {
            endOfFile(&r)
            done = true
        }
        if done {
            if !unterminated {
                var cells = ContiguousArray<CSVField>()
                swap(&cells, &fields)
                r.store.withUnsafeBytes { finishRecord(&cells, $0, rowLine: r.rowLine, broken: r.broken, start: -1, onRow: onRow) }
                swap(&cells, &fields)
            }
            fields.removeAll(keepingCapacity: true)
        } else {
            longRecord = r
        }
        return i
    }

    @inline(__always)
    private func cellName(_ index: Int) -> String? {
        header.map { CSVScanner.fieldName($0, index) } ?? nil
    }

    /// One byte at file offset `offset`. Sets `done` when the record ended (the byte is consumed unless
    /// `consumed` is cleared: a byte after a record-ending CR belongs to the next record).
    private mutating func step(_ r: inout CSVLongRecord, _ b: UInt8, _ offset: Int, _ done: inout Bool, _ consumed: inout Bool) {
        let comma = CSVScanner.comma, quote = CSVScanner.quote, lf = CSVScanner.lf, cr = CSVScanner.cr
        switch r.phase {
        case .cellStart:
            startValue(&r)
            if b == quote {
                r.phase = .quoted
                r.newline = false
                return
            }
            r.phase = .unquoted
            r.hasStray = false
            step(&r, b, offset, &done, &consumed)
        case .unquoted:
            if b == comma || b == lf || b == cr {
                endCell(&r, quoted: false)
                delimiter(&r, b, offset, &done)
                return
            }
            if b == quote && !r.hasStray {
                r.hasStray = true
                r.strayLine = line
                r.strayColumn = offset - lineStart + 1
            }
            append(&r, b)
        case .quoted:
            if b == quote {
                r.phase = .quotedQuote
            } else if b == lf {
                r.newline = true
                line += 1
                lineStart = offset + 1
                append(&r, b)
            } else if b == cr {
                r.newline = true
                r.crOffset = offset
                r.phase = .quotedCR
                append(&r, b)
            } else {
                append(&r, b)
            }
        case .quotedCR:
            r.phase = .quoted
            if b != lf {
                line += 1
                lineStart = r.crOffset + 1
            }
            step(&r, b, offset, &done, &consumed)
        case .quotedQuote:
            if b == quote {
                r.hasEscapedQuotes = true
                append(&r, quote)
                append(&r, quote)
                r.phase = .quoted
                return
            }
            close(&r, at: offset)
            step(&r, b, offset, &done, &consumed)
        case .afterClose:
            if CSVScanner.isSpace(b) {
                r.spaces += 1
            } else if b == comma || b == lf || b == cr {
                if r.spaces > 0 { reportSpaceAfterQuote(r) }
                endCell(&r, quoted: true)
                delimiter(&r, b, offset, &done)
            } else {
                bag.report(Rules.csvStrayQuote, "unexpected text after the closing quote",
                    at: SourceLocation(file: file, line: r.closeLine, column: r.closeColumn, field: cellName(fields.count)))
                r.broken = true
                r.phase = .strayText
            }
        case .strayText:
            if b == comma || b == lf || b == cr {
                endCell(&r, quoted: true)
                delimiter(&r, b, offset, &done)
            }
        case .recordCR:
            line += 1
            done = true
            if b == lf {
                lineStart = offset + 1
            } else {
                lineStart = r.crOffset + 1
                consumed = false
            }
        }
    }

    /// The file ends inside the record.
    private mutating func endOfFile(_ r: inout CSVLongRecord) {
        switch r.phase {
        case .cellStart:
            // After a delimiter: one more, empty cell.
            startValue(&r)
            r.hasStray = false
            endCell(&r, quoted: false)
        case .unquoted:
            endCell(&r, quoted: false)
        case .quoted, .quotedCR:
            bag.report(Rules.csvUnterminatedQuote, "quoted field is not closed before the end of the file",
                at: SourceLocation(file: file, line: r.cellLine, column: r.cellColumn, field: cellName(fields.count)))
            unterminated = true
        case .quotedQuote:
            // The last byte closed the cell: nothing follows it.
            close(&r, at: lineStart)
            endCell(&r, quoted: true)
        case .afterClose:
            if r.spaces > 0 { reportSpaceAfterQuote(r) }
            endCell(&r, quoted: true)
        case .strayText:
            endCell(&r, quoted: true)
        case .recordCR:
            line += 1
            lineStart = r.crOffset + 1
        }
    }

    private func reportSpaceAfterQuote(_ r: CSVLongRecord) {
        bag.report(Rules.csvWhitespace, "whitespace after the closing quote; ignored",
            at: SourceLocation(file: file, line: r.closeLine, column: r.closeColumn, field: cellName(fields.count)))
    }

    /// The quote before file offset `offset` closed the cell.
    private mutating func close(_ r: inout CSVLongRecord, at offset: Int) {
        if r.newline, let sev = options.newLineInValueSeverity {
            bag.report(Diagnostic(sev, code: Rules.csvNewLineInValue.code, message: "value contains a line break",
                at: SourceLocation(file: file, line: r.cellLine, column: r.cellColumn, field: cellName(fields.count))))
        }
        r.phase = .afterClose
        r.spaces = 0
        r.closeLine = line
        r.closeColumn = offset - lineStart + 1
    }

    @inline(__always)
    private func startValue(_ r: inout CSVLongRecord) {
        r.valueStart = r.store.count
        r.hasEscapedQuotes = false
        r.rawLength = 0
        r.leading = 0
        r.trailing = 0
        r.allSpace = true
        r.firstIsSpace = false
        r.lastIsSpace = false
        // Values are kept while they can still be used: a cell past the limit, or any cell of a row already
        // skipped once there is a header, never is.
        r.keeping = fields.count < options.maxFieldsPerRow && (header == nil || !r.broken)
        // A longer value is an error (`csv.field_too_long`) and its row is skipped; a header cell names a column,
        // so it is kept up to 64 KiB even when the limit is lower.
        r.keepLimit = header == nil ? max(options.maxFieldLength, 1 << 16) : options.maxFieldLength
    }

    @inline(__always)
    private func append(_ r: inout CSVLongRecord, _ b: UInt8) {
        let space = CSVScanner.isSpace(b)
        r.rawLength += 1
        if r.rawLength == 1 { r.firstIsSpace = space }
        r.lastIsSpace = space
        if options.trimWhitespace && r.allSpace && space {
            r.leading += 1
            return
        }
        r.allSpace = false
        r.trailing = space ? r.trailing + 1 : 0
        if r.keeping && r.store.count - r.valueStart < r.keepLimit { r.store.append(b) }
    }

    /// The cell is complete: the checks of the in-memory scan, in its order, then the cell is kept.
    private mutating func endCell(_ r: inout CSVLongRecord, quoted: Bool) {
        if !quoted && r.hasStray {
            bag.report(Rules.csvStrayQuote, "`\"` inside an unquoted field",
                at: SourceLocation(file: file, line: r.strayLine, column: r.strayColumn, field: cellName(fields.count)))
            r.broken = true
        }
        var length = r.rawLength
        if options.trimWhitespace && r.rawLength > 0 && (r.firstIsSpace || r.lastIsSpace) {
            length = r.allSpace ? 0 : r.rawLength - r.leading - r.trailing
            bag.report(Rules.csvWhitespace, "value has leading or trailing whitespace; trimmed",
                at: SourceLocation(file: file, line: r.cellLine, column: r.cellColumn, field: cellName(fields.count)))
        }
        if length > options.maxFieldLength {
            bag.report(Rules.csvFieldTooLong, "value is \(length) bytes, over the limit of \(options.maxFieldLength)",
                at: SourceLocation(file: file, line: r.cellLine, column: r.cellColumn))
            r.broken = true
        }
        var end = min(r.valueStart + length, r.store.count)
        r.store.removeSubrange(end...)
        if !r.keeping && length > 0 {
            // Not kept, but a row of empty cells is told apart from others (`csv.empty_row`).
            r.store.append(0)
            end += 1
        }
        let cell = CSVField(start: r.valueStart, end: end, line: Int32(clamping: r.cellLine),
            column: Int32(clamping: r.cellColumn), hasEscapedQuotes: r.hasEscapedQuotes)
        if fields.count < options.maxFieldsPerRow {
            fields.append(cell)
        } else if !r.tooWide {
            r.tooWide = true
            r.broken = true
            bag.report(Rules.csvTooManyFields, "row has more than \(options.maxFieldsPerRow) cells; the row is skipped",
                at: SourceLocation(file: file, line: r.cellLine, column: r.cellColumn))
        }
    }

    /// A delimiter at file offset `offset` after a complete cell.
    private mutating func delimiter(_ r: inout CSVLongRecord, _ b: UInt8, _ offset: Int, _ done: inout Bool) {
        if b == CSVScanner.comma {
            r.phase = .cellStart
            r.cellLine = line
            r.cellColumn = offset + 1 - lineStart + 1
        } else if b == CSVScanner.lf {
            line += 1
            lineStart = offset + 1
            done = true
        } else {
            r.crOffset = offset
            r.phase = .recordCR
        }
    }
}
