import CityPackDiagnostics
import CityPackIngest
import Testing

/// The CSV scanner's edge cases, each with exact `line:col` (physical line, 1-based byte column).
@Suite struct CSVScannerTests {
    struct Result {
        var rows: [[String]] = []
        var lines: [Int] = []
        var diagnostics: [Diagnostic] = []
        /// `code@line:col` for each diagnostic, in order.
        var found: [String] { diagnostics.map { "\($0.code)@\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } }
    }

    func scan(_ bytes: [UInt8], options: CSVOptions = CSVOptions()) -> Result {
        let bag = DiagnosticBag()
        var result = Result()
        bytes.withUnsafeBytes { raw -> Void in
            CSVScanner.scan(raw, file: "t.csv", options: options, bag: bag) { row in
                result.rows.append((0..<row.fields.count).map { row.string($0) ?? "" })
                result.lines.append(row.line)
            }
        }
        result.diagnostics = bag.diagnostics
        return result
    }

    func scan(_ text: String, options: CSVOptions = CSVOptions()) -> Result { scan(Array(text.utf8), options: options) }

    @Test func plainLFAndCRLFAndMissingFinalNewline() {
        let lf = scan("a,b\n1,2\n3,4")
        #expect(lf.rows == [["1", "2"], ["3", "4"]])
        #expect(lf.lines == [2, 3])
        #expect(lf.diagnostics.isEmpty)
        let crlf = scan("a,b\r\n1,2\r\n3,4\r\n")
        #expect(crlf.rows == [["1", "2"], ["3", "4"]])
        #expect(crlf.diagnostics.isEmpty)
    }

    @Test func utf8BOMIsSkippedWithInfo() {
        let r = scan([0xEF, 0xBB, 0xBF] + Array("a,b\n1,2\n".utf8))
        #expect(r.found == ["csv.utf8_bom@1:1"])
        #expect(r.diagnostics[0].severity == .info)
        #expect(r.rows == [["1", "2"]])
    }

    @Test func utf16BOMIsRejected() {
        let r = scan([0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00])
        #expect(r.found == ["csv.utf16_encoding@1:1"])
        #expect(r.rows.isEmpty)
    }

    @Test func mixedLineEndingsWarnAtTheFirstDifferentEnding() {
        let r = scan("a,b\r\n1,2\n3,4\r\n")
        #expect(r.found == ["csv.mixed_line_endings@2:4"])
        #expect(r.diagnostics[0].severity == .warning)
        #expect(r.rows.count == 2)
    }

    @Test func misspelledColumnsAreWarningsOthersInfo() {
        var options = CSVOptions()
        options.schema = CSVSchema(known: ["stop_id", "stop_url", "route_text_color"], required: ["stop_id"])
        let r = scan("stop_id,stop_uri,Route_Text_Color,vendor_code\n1,2,3,4\n", options: options)
        #expect(r.found == ["csv.misspelled_column@1:9", "csv.misspelled_column@1:18", "csv.unknown_column@1:35"])
        #expect(r.diagnostics[0].message.contains("did you mean `stop_url`?"))
        #expect(NameSimilarity.closest(to: "frecuencias.txt", in: ["frequencies.txt", "shapes.txt"]) == "frequencies.txt")
        #expect(NameSimilarity.closest(to: "to_stop", in: ["to_stop_id"]) == "to_stop_id")
        #expect(NameSimilarity.closest(to: "color", in: ["stop_url"]) == nil)
    }

    /// A lone CR ends the row (as gtfs-validator reads it), so it is a warning that says so (issue 33).
    @Test func bareCarriageReturnIsAWarningReadAsRowEnd() {
        let r = scan("a,b\r1,2\r")
        #expect(r.found == ["csv.bare_carriage_return@1:4"])
        #expect(r.diagnostics[0].severity == .warning)
        #expect(r.diagnostics[0].message.contains("read as a row end"))
        #expect(r.rows == [["1", "2"]])
        #expect(scan("a,b\r\n1,2\r\n").diagnostics.isEmpty, "CRLF is fine")
    }

    @Test func quotedFieldsWithCommasAndDoubledQuotes() {
        let r = scan("a,b\n\"x,y\",\"he said \"\"hi\"\"\"\n")
        #expect(r.rows == [["x,y", "he said \"hi\""]])
        #expect(r.diagnostics.isEmpty)
    }

    @Test func newLineInValueIsAnErrorForGTFSAndConfigurable() {
        let text = "a,b\n\"l1\nl2\",z\n3,4\n"
        let gtfs = scan(text)
        #expect(gtfs.found == ["csv.new_line_in_value@2:1"])
        #expect(gtfs.diagnostics[0].severity == .error)
        #expect(gtfs.diagnostics[0].location?.field == "a")
        #expect(gtfs.rows == [["l1\nl2", "z"], ["3", "4"]])
        #expect(gtfs.lines == [2, 4])
        let editorial = scan(text, options: CSVOptions(newLineInValueSeverity: .info))
        #expect(editorial.diagnostics.map(\.severity) == [.info])
        let silent = scan(text, options: CSVOptions(newLineInValueSeverity: nil))
        #expect(silent.diagnostics.isEmpty)
    }

    @Test func columnsAfterAMultiLineValueArePhysical() {
        // "z" starts on physical line 3, column 5; a stray quote after it is reported there.
        let r = scan("a,b\n\"l1\nl2\",z\"\n", options: CSVOptions(newLineInValueSeverity: nil))
        #expect(r.found == ["csv.stray_quote@3:6"])
    }

    @Test func unterminatedQuoteIsReportedAtTheOpeningQuote() {
        let r = scan("a,b\n1,\"abc\n2,3\n")
        #expect(r.found == ["csv.unterminated_quote@2:3"])
        #expect(r.rows.isEmpty)
    }

    @Test func strayQuotesInsideAndAfterFields() {
        let inside = scan("a,b\n1,ab\"c\n")
        #expect(inside.found == ["csv.stray_quote@2:5"])
        #expect(inside.rows.isEmpty)
        let after = scan("a,b\n\"x\"y,2\n")
        #expect(after.found == ["csv.stray_quote@2:4"])
    }

    @Test func spacesAfterAClosingQuoteAreOnlyWhitespace() {
        let r = scan("a,b\n\"x\"  ,2\n")
        #expect(r.found == ["csv.leading_or_trailing_whitespace@2:4"])
        #expect(r.rows == [["x", "2"]])
    }

    @Test func raggedRows() {
        let extra = scan("a,b\n1,2,3\n")
        #expect(extra.found == ["csv.invalid_row_length@2:1"])
        #expect(extra.rows.isEmpty)
        // Extra empty trailing cells, or missing trailing cells: still read (cells line up), but an error for a
        // table the pack uses, and a csv.trailing_cells warning for one it does not.
        let trailingComma = scan("a,b\n1,2,,\n")
        #expect(trailingComma.found == ["csv.invalid_row_length@2:1"])
        #expect(trailingComma.rows == [["1", "2"]])
        let short = scan("a,b,c\n1\n")
        #expect(short.found == ["csv.invalid_row_length@2:1"])
        #expect(short.rows == [["1", "", ""]])
        var lenient = CSVOptions()
        lenient.lenientTrailingCells = true
        let lenientComma = scan("a,b\n1,2,,\n", options: lenient)
        #expect(lenientComma.found == ["csv.trailing_cells@2:1"])
        #expect(lenientComma.rows == [["1", "2"]])
        #expect(scan("a,b,c\n1\n", options: lenient).found == ["csv.trailing_cells@2:1"])
        // An extra non-empty cell after empty ones is still an error.
        let hidden = scan("a,b\n1,2,,x\n")
        #expect(hidden.found == ["csv.invalid_row_length@2:1"])
        #expect(hidden.rows.isEmpty)
    }

    @Test func invalidUTF8AndNulBytes() {
        let bad = scan(Array("a,b\n1,".utf8) + [0xFF] + Array("\n".utf8))
        #expect(bad.found == ["csv.invalid_utf8@2:3"])
        let overlong = scan(Array("a,b\n1,".utf8) + [0xC0, 0xAF] + Array("\n".utf8))
        #expect(overlong.found == ["csv.invalid_utf8@2:3"])
        let nul = scan(Array("a,b\n1,x".utf8) + [0x00] + Array("\n".utf8))
        #expect(nul.found == ["csv.nul_byte@2:4"])
        let fine = scan("a,b\n1,Ō ⇒ 🚋\n")
        #expect(fine.diagnostics.isEmpty)
    }

    @Test func unicodeLineSeparatorIsFlagged() {
        let r = scan("a,b\n1,x\u{2028}y\n")
        #expect(r.found == ["csv.invalid_line_separator@2:4"])
    }

    @Test func whitespaceIsTrimmedWithAWarningPerValue() {
        let r = scan("a,b\n 1,2 \n")
        #expect(r.found == ["csv.leading_or_trailing_whitespace@2:1", "csv.leading_or_trailing_whitespace@2:4"])
        #expect(r.rows == [["1", "2"]])
        let kept = scan("a,b\n 1,2\n", options: CSVOptions(trimWhitespace: false))
        #expect(kept.rows == [[" 1", "2"]])
        #expect(kept.diagnostics.isEmpty)
    }

    @Test func emptyFileAndEmptyRows() {
        #expect(scan("").found == ["csv.empty_file@0:0"])
        #expect(scan("\n\n").found == ["csv.empty_file@0:0"])
        let r = scan("a,b\n1,2\n\n,\n3,4\n")
        #expect(r.found == ["csv.empty_row@3:1", "csv.empty_row@4:1"])
        #expect(r.rows == [["1", "2"], ["3", "4"]])
    }

    @Test func headerProblems() {
        #expect(scan("a,a,b\n1,2,3\n").found == ["csv.duplicated_column@1:3"])
        #expect(scan("a,,b\n1,2,3\n").found == ["csv.empty_column_name@1:3"])
        let schema = CSVSchema(known: ["b"], required: ["a", "c"])
        let r = scan("a,b,zz\n1,2,3\n", options: CSVOptions(schema: schema))
        #expect(r.found == ["csv.missing_required_column@1:1", "csv.unknown_column@1:5"])
        #expect(r.diagnostics.map(\.severity) == [.error, .info])
        let noHeader = scan("1,2\n3,4\n", options: CSVOptions(schema: schema))
        #expect(noHeader.found == ["csv.missing_header@1:1"])
    }

    @Test func headerLookupIsByName() {
        let bag = DiagnosticBag()
        var picked: [String] = []
        Array("x,stop_id,y\n1,S9,2\n".utf8).withUnsafeBytes { raw -> Void in
            CSVScanner.scan(raw, file: "t.csv", bag: bag) { row in
                let c = row.header.index(of: "stop_id")
                picked.append(row.string(c) ?? "")
                #expect(row.header.index(of: "missing") == nil)
                #expect(row.isEmpty(nil))
                #expect(row.location(c) == SourceLocation(file: "t.csv", line: 2, column: 3, field: "stop_id"))
            }
        }
        #expect(picked == ["S9"])
    }

    @Test func limitsBecomeDiagnostics() {
        let big = scan("a,b\n1,2\n", options: CSVOptions(maxFileSize: 4))
        #expect(big.found == ["csv.file_too_large@0:0"])
        let many = scan("a\n1\n2\n3\n", options: CSVOptions(maxRows: 2))
        #expect(many.found == ["csv.too_many_rows@4:1"])
        #expect(many.rows == [["1"], ["2"]])
        let long = scan("a,b\n1,123456789\n", options: CSVOptions(maxFieldLength: 4))
        #expect(long.found == ["csv.field_too_long@2:3"])
        #expect(long.rows.isEmpty)
    }

    @Test func typedValueParsers() {
        func bytes<T>(_ s: String, _ f: (UnsafeRawBufferPointer) -> T) -> T {
            Array(s.utf8).withUnsafeBytes(f)
        }
        #expect(bytes("25:10:05", CSVValues.time) == 90605)
        #expect(bytes("8:00:00", CSVValues.time) == 28800)
        #expect(bytes("08:60:00", CSVValues.time) == nil)
        #expect(bytes("600", CSVValues.time) == nil)
        #expect(bytes("20240229", CSVValues.date) == 20240229)
        #expect(bytes("20230229", CSVValues.date) == nil)
        #expect(bytes("2023-01-01", CSVValues.date) == nil)
        #expect(bytes("-122.353449", CSVValues.double) == -122.353449)
        #expect(bytes("1e3", CSVValues.double) == 1000)
        #expect(bytes("1.2.3", CSVValues.double) == nil)
        #expect(bytes(".", CSVValues.double) == nil)
        #expect(bytes("-12", CSVValues.int) == -12)
        #expect(bytes("1x", CSVValues.int) == nil)
        #expect(bytes("FF9933", CSVValues.isColor))
        #expect(!bytes("#FF993", CSVValues.isColor))
        #expect(CSVValues.isURL("https://a.example/x"))
        #expect(!CSVValues.isURL("www.example.com"))
    }
}
