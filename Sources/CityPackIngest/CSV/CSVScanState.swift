import CityPackDiagnostics

/// What ``CSVScanner`` carries from one piece of a file to the next: the position (line and line start, as file
/// offsets), the header, the row count and the limits already hit. Records are scanned by
/// ``scanRecords(_:from:base:end:onRow:)``, which leaves a record that runs past the bytes at hand for the next
/// call (nothing of it is reported until it is complete), and, once such a record has grown past
/// ``CSVOptions/recordBufferSize``, by ``scanLongRecord(_:from:base:end:onRow:)`` (CSVLongRecord.swift).
struct CSVScanState {
    let file: String
    let options: CSVOptions
    let bag: DiagnosticBag
    var summary = CSVScanSummary(header: nil, headerLine: 0, rows: 0)
    var header: CSVHeader?
    /// Cells the header has.
    var expected = 0
    /// Physical line at the scan position.
    var line = 1
    /// File offset of that line's first byte (a UTF-8 BOM counts as part of line 1).
    var lineStart = 0
    /// The rows limit was hit: no more rows.
    var tooMany = false
    /// A quoted field ran to the end of the file: the scan is over, without the empty-file check.
    var unterminated = false
    /// The open record being scanned in place, when one outgrew the buffer.
    var longRecord: CSVLongRecord?
    /// Scratch cells of the current record.
    var fields = ContiguousArray<CSVField>()
    /// Diagnostics of the record being scanned, reported once it is complete (dropped when it is not).
    private var pending: [Diagnostic] = []
    /// Data rows delivered before the next row to mark (``CSVOptions/rowIndexInterval``).
    private var nextMark = 0

    init(file: String, options: CSVOptions, bag: DiagnosticBag) {
        self.file = file
        self.options = options
        self.bag = bag
        fields.reserveCapacity(32)
    }

    /// Starts at a row recorded by an earlier scan of the file with the same options: the state that scan had
    /// there (no record open, no limit hit, the header read).
    mutating func resume(at mark: CSVRowMark, header: CSVHeader) {
        self.header = header
        summary.header = header
        expected = header.names.count
        line = mark.line
        lineStart = mark.offset
        summary.rows = mark.rowsBefore
        nextMark = options.rowIndexInterval > 0 ? mark.rowsBefore : 0
    }

    /// No more rows will be delivered.
    var stopped: Bool { tooMany || unterminated }

    /// Looks at the first bytes (at least three unless the file is shorter): a UTF-16 byte order mark stops the
    /// file (nil), a UTF-8 one is skipped.
    /// - Returns: where records start.
    func prelude(_ bytes: UnsafeRawBufferPointer) -> Int? {
        if bytes.count >= 2,
            (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)
        {
            bag.report(Rules.csvUTF16, "file is encoded in UTF-16; only UTF-8 is accepted",
                at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bag.report(Rules.csvUTF8BOM, "UTF-8 byte order mark skipped", at: SourceLocation(file: file, line: 1, column: 1))
            return 3
        }
        return 0
    }

    /// The end of the file: reports a file without a header row.
    mutating func finish() -> CSVScanSummary {
        if header == nil && !unterminated {
            bag.report(Rules.csvEmptyFile, "file has no header row", at: SourceLocation(file: file))
        }
        return summary
    }

    @inline(__always)
    private func name(_ index: Int) -> String? {
        header.map { CSVScanner.fieldName($0, index) } ?? nil
    }

    /// Scans the records of `bytes[from...]`.
    /// - Parameters:
    ///   - bytes: the buffer; rows handed to `onRow` point into it.
    ///   - base: file offset of `bytes[0]`.
    ///   - end: `bytes` runs to the end of the file. When false, a record that reaches the end of `bytes` (or
    ///     needs the byte after it to be understood) is not scanned: its start is returned and nothing of it
    ///     has been reported.
    /// - Returns: where scanning stopped: `bytes.count`, or the start of an incomplete record.
    mutating func scanRecords(
        _ bytes: UnsafeRawBufferPointer, from: Int, base: Int, end: Bool, onRow: (CSVRow) -> Void
    ) -> Int {
        let comma = CSVScanner.comma, quote = CSVScanner.quote, lf = CSVScanner.lf, cr = CSVScanner.cr
        let n = bytes.count
        var line = self.line
        var lineStart = self.lineStart - base  // buffer offset of the current physical line's first byte
        var fields = ContiguousArray<CSVField>()
        swap(&fields, &self.fields)
        defer {
            swap(&fields, &self.fields)
            self.line = line
            self.lineStart = lineStart + base
        }
        var i = from
        var recordStart = i, recordLine = line, recordLineStart = lineStart
        var incomplete = false

        records: while i < n && !stopped {
            // Scan one record.
            recordStart = i
            recordLine = line
            recordLineStart = lineStart
            fields.removeAll(keepingCapacity: true)
            let rowLine = line
            var endOfRecord = false
            var broken = false
            var tooWide = false
            while !endOfRecord {
                let fieldLine = line
                let fieldColumn = i - lineStart + 1
                var f = CSVField(start: i, end: i, line: Int32(clamping: fieldLine), column: Int32(clamping: fieldColumn),
                    hasEscapedQuotes: false)
                if i < n && bytes[i] == quote {
                    // Quoted field.
                    var j = i + 1
                    var closed = false
                    var newline = false
                    while j < n {
                        let b = bytes[j]
                        if b == quote {
                            if j + 1 < n {
                                if bytes[j + 1] == quote {
                                    f.hasEscapedQuotes = true
                                    j += 2
                                    continue
                                }
                            } else if !end {
                                incomplete = true
                                break records
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
                            if j + 1 < n {
                                if bytes[j + 1] != lf {
                                    line += 1
                                    lineStart = j + 1
                                }
                            } else if !end {
                                incomplete = true
                                break records
                            } else {
                                line += 1
                                lineStart = j + 1
                            }
                        }
                        j += 1
                    }
                    if !closed {
                        if !end {
                            incomplete = true
                            break records
                        }
                        flushPending()
                        bag.report(Rules.csvUnterminatedQuote, "quoted field is not closed before the end of the file",
                            at: SourceLocation(file: file, line: fieldLine, column: fieldColumn, field: name(fields.count)))
                        unterminated = true
                        i = n
                        break records
                    }
                    f.start = i + 1
                    f.end = j
                    if newline, let sev = options.newLineInValueSeverity {
                        pending.append(Diagnostic(sev, code: Rules.csvNewLineInValue.code,
                            message: "value contains a line break", at: SourceLocation(file: file, line: fieldLine,
                                column: fieldColumn, field: name(fields.count))))
                    }
                    i = j + 1
                    // Spaces after the closing quote are padding, not content: warn and skip them.
                    var k = i
                    while k < n && CSVScanner.isSpace(bytes[k]) { k += 1 }
                    if k == n && !end {
                        incomplete = true
                        break records
                    }
                    if k > i && (k == n || bytes[k] == comma || bytes[k] == lf || bytes[k] == cr) {
                        pending.append(Diagnostic(Rules.csvWhitespace, "whitespace after the closing quote; ignored",
                            at: SourceLocation(file: file, line: line, column: i - lineStart + 1, field: name(fields.count))))
                        i = k
                    }
                    // After the closing quote: delimiter, end of line or end of file.
                    if i < n, bytes[i] != comma, bytes[i] != lf, bytes[i] != cr {
                        pending.append(Diagnostic(Rules.csvStrayQuote, "unexpected text after the closing quote",
                            at: SourceLocation(file: file, line: line, column: i - lineStart + 1, field: name(fields.count))))
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
                        pending.append(Diagnostic(Rules.csvStrayQuote, "`\"` inside an unquoted field",
                            at: SourceLocation(file: file, line: line, column: strayAt - lineStart + 1, field: name(fields.count))))
                        broken = true
                    }
                    f.end = j
                    i = j
                }
                if i >= n && !end {
                    incomplete = true
                    break records
                }
                if options.trimWhitespace { trim(&f, bytes, index: fields.count) }
                if f.end - f.start > options.maxFieldLength {
                    pending.append(Diagnostic(Rules.csvFieldTooLong,
                        "value is \(f.end - f.start) bytes, over the limit of \(options.maxFieldLength)",
                        at: SourceLocation(file: file, line: Int(f.line), column: Int(f.column))))
                    broken = true
                }
                if fields.count < options.maxFieldsPerRow {
                    fields.append(f)
                } else if !tooWide {
                    // Cells past the limit are scanned but not kept, so a row of a million commas stays small.
                    tooWide = true
                    broken = true
                    pending.append(Diagnostic(Rules.csvTooManyFields,
                        "row has more than \(options.maxFieldsPerRow) cells; the row is skipped",
                        at: SourceLocation(file: file, line: Int(f.line), column: Int(f.column))))
                }
                // Delimiter or record end.
                if i >= n {
                    endOfRecord = true
                } else if bytes[i] == comma {
                    i += 1
                } else {
                    if bytes[i] == cr {
                        i += 1
                        if i == n && !end {
                            incomplete = true
                            break records
                        }
                    }
                    if i < n && bytes[i] == lf { i += 1 }
                    line += 1
                    lineStart = i
                    endOfRecord = true
                }
            }
            flushPending()
            finishRecord(&fields, bytes, rowLine: rowLine, broken: broken,
                start: recordStart == recordLineStart ? base + recordStart : -1, onRow: onRow)
        }
        if incomplete {
            pending.removeAll(keepingCapacity: true)
            line = recordLine
            lineStart = recordLineStart
            return recordStart
        }
        return stopped ? n : i
    }

    @inline(__always)
    private mutating func flushPending() {
        guard !pending.isEmpty else { return }
        for d in pending { bag.report(d) }
        pending.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    private mutating func trim(_ f: inout CSVField, _ bytes: UnsafeRawBufferPointer, index: Int) {
        guard f.start < f.end, CSVScanner.isSpace(bytes[f.start]) || CSVScanner.isSpace(bytes[f.end - 1]) else { return }
        while f.start < f.end && CSVScanner.isSpace(bytes[f.start]) { f.start += 1 }
        while f.end > f.start && CSVScanner.isSpace(bytes[f.end - 1]) { f.end -= 1 }
        pending.append(Diagnostic(Rules.csvWhitespace, "value has leading or trailing whitespace; trimmed",
            at: SourceLocation(file: file, line: Int(f.line), column: Int(f.column), field: name(index))))
    }

    /// A complete record (starting at file offset `start` at the start of its line, or -1 when unknown):
    /// skipped when empty, taken as the header when it is the first, else checked against
    /// the header and handed to `onRow` (cells point into `bytes`).
    @inline(__always)
    mutating func finishRecord(
        _ fields: inout ContiguousArray<CSVField>, _ bytes: UnsafeRawBufferPointer, rowLine: Int, broken: Bool,
        start: Int, onRow: (CSVRow) -> Void
    ) {
        // All cells empty (including a blank line): skip.
        var allEmpty = true
        for f in fields where !f.isEmpty {
            allEmpty = false
            break
        }
        if allEmpty {
            if header != nil || fields.count > 1 {
                bag.report(Rules.csvEmptyRow, "row is empty", at: SourceLocation(file: file, line: rowLine, column: 1))
            }
            return
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
            CSVScanner.checkHeader(hdr, fields: fields, file: file, options: options, bag: bag)
            return
        }
        if broken { return }
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
                return
            }
        }
        if summary.rows >= options.maxRows {
            if !tooMany {
                bag.report(Rules.csvTooManyRows, "more than \(options.maxRows) rows; the rest are ignored",
                    at: SourceLocation(file: file, line: rowLine, column: 1))
                tooMany = true
            }
            return
        }
        if options.rowIndexInterval > 0 && summary.rows >= nextMark && start >= 0 {
            summary.rowMarks.append(CSVRowMark(line: rowLine, offset: start, rowsBefore: summary.rows))
            nextMark = summary.rows + options.rowIndexInterval
        }
        summary.rows += 1
        fields.withUnsafeBufferPointer { buf in
            onRow(CSVRow(bytes: bytes, fields: buf, line: rowLine, file: file, header: h))
        }
    }
}
