extension Rules {
    public static let csvEmptyFile = RuleDescription(
        "csv.empty_file", .csv, .error, "The file has no header row",
        rationale: "A table without a header cannot be mapped to columns, so all of its data is lost.")
    public static let csvMissingHeader = RuleDescription(
        "csv.missing_header", .csv, .error, "The header row names none of the columns the table defines",
        rationale: "Usually the header line was dropped and the first data row was read as the header.")
    public static let csvEmptyColumnName = RuleDescription(
        "csv.empty_column_name", .csv, .error, "A header cell is blank",
        rationale: "Values under a nameless column cannot be interpreted.")
    public static let csvDuplicatedColumn = RuleDescription(
        "csv.duplicated_column", .csv, .error, "The header names the same column twice",
        rationale: "Which of the two values is meant is ambiguous; consumers disagree on the choice.")
    public static let csvInvalidRowLength = RuleDescription(
        "csv.invalid_row_length", .csv, .error, "A row has more cells than the header and an extra one is not empty",
        rationale: "Cells of a ragged row cannot be matched to columns reliably, and a value would be lost; the row "
            + "is skipped. Rows that only lack trailing cells or end in empty extra cells are csv.trailing_cells.")
    public static let csvTrailingCells = RuleDescription(
        "csv.trailing_cells", .csv, .warning,
        "A row of a table the pack does not use lacks trailing cells or ends in empty extra cells; read as if it matched the header",
        rationale: "The cells still line up with the columns and no value is lost (missing cells read as empty), "
            + "so GTFS consumers accept such rows; the file is still sloppy, often a stray or missing comma.")
    public static let csvUnterminatedQuote = RuleDescription(
        "csv.unterminated_quote", .csv, .error, "A quoted field is still open at the end of the file",
        rationale: "RFC 4180 §2.5–2.7: the rest of the file would be swallowed into one value.")
    public static let csvStrayQuote = RuleDescription(
        "csv.stray_quote", .csv, .error, "A `\"` appears inside an unquoted field or after a closing quote",
        rationale: "RFC 4180 §2.5 forbids it; parsers disagree on what such a field means.")
    public static let csvNewLineInValue = RuleDescription(
        "csv.new_line_in_value", .csv, .error, "A quoted value contains a line break",
        rationale: "GTFS forbids CR and LF in values; editorial CSV may allow them (severity is set per source).")
    public static let csvWhitespace = RuleDescription(
        "csv.leading_or_trailing_whitespace", .csv, .warning, "A value has leading or trailing spaces; it is trimmed",
        rationale: "Padded IDs silently fail to match their references in other files.")
    public static let csvEmptyRow = RuleDescription(
        "csv.empty_row", .csv, .warning, "A row is blank or has only empty cells; it is skipped",
        rationale: "Blank rows are usually editing leftovers; some consumers read them as records.")
    public static let csvInvalidUTF8 = RuleDescription(
        "csv.invalid_utf8", .csv, .error, "The file contains bytes that are not valid UTF-8",
        rationale: "GTFS and CityPack text is UTF-8; undecodable bytes would show as U+FFFD.")
    public static let csvUTF8BOM = RuleDescription(
        "csv.utf8_bom", .csv, .info, "The file starts with a UTF-8 byte order mark; it is skipped",
        rationale: "Allowed by GTFS, but it would corrupt the first column name if not stripped.")
    public static let csvUTF16 = RuleDescription(
        "csv.utf16_encoding", .csv, .error, "The file starts with a UTF-16 byte order mark; it is not read",
        rationale: "Only UTF-8 is allowed; reading UTF-16 as bytes gives NUL-riddled garbage.")
    public static let csvNulByte = RuleDescription(
        "csv.nul_byte", .csv, .error, "The file contains a NUL byte",
        rationale: "NUL is never valid text; it signals a binary or wrongly encoded file and truncates C strings.")
    public static let csvMixedLineEndings = RuleDescription(
        "csv.mixed_line_endings", .csv, .warning, "The file mixes CRLF and LF line endings",
        rationale: "Mixed endings betray files concatenated from different tools; some readers miscount rows.")
    public static let csvBareCarriageReturn = RuleDescription(
        "csv.bare_carriage_return", .csv, .error, "A carriage return not followed by a line feed ends or splits a row",
        rationale: "GTFS and RFC 4180 end rows with CRLF or LF only; readers disagree on a lone CR (old Mac line "
            + "end or a stray byte), so one tool sees a row break where another sees part of a value.")
    public static let csvInvalidLineSeparator = RuleDescription(
        "csv.invalid_line_separator", .csv, .warning, "A form feed, U+2028, U+2029 or U+0085 appears",
        rationale: "Readers disagree on whether these end a line, so row numbers and values drift.")
    public static let csvMisspelledColumn = RuleDescription(
        "csv.misspelled_column", .csv, .warning, "An unknown column is one small edit away from a column the table lacks",
        rationale: "`stop_uri` for `stop_url` or `Route_Text_Color` for `route_text_color` means the data in it is "
            + "silently ignored; an unrelated extra column is only csv.unknown_column (info).")
    public static let csvUnknownColumn = RuleDescription(
        "csv.unknown_column", .csv, .info, "A column is not part of the table's schema; it is ignored",
        rationale: "Often a misspelt column name, whose data is then silently lost.")
    public static let csvMissingRequiredColumn = RuleDescription(
        "csv.missing_required_column", .csv, .error, "A column the table requires is absent",
        rationale: "Every row then lacks a value the pack needs.")
    public static let csvMissingRequiredField = RuleDescription(
        "csv.missing_required_field", .csv, .error, "A required cell is empty",
        rationale: "The row cannot be used without it.")
    public static let csvInvalidValue = RuleDescription(
        "csv.invalid_value", .csv, .error,
        "A value does not parse as its type (integer, number, date, time, colour, enum, URL, timezone)",
        rationale: "An unparsable value is dropped, which changes what riders are told.")
    public static let csvTooManyRows = RuleDescription(
        "csv.too_many_rows", .csv, .error, "The file has more rows than the configured limit; the rest are ignored",
        rationale: "Bounds memory and time on hostile or runaway inputs.")
    public static let csvFileTooLarge = RuleDescription(
        "csv.file_too_large", .csv, .error, "The file is larger than the configured limit; it is not read",
        rationale: "Bounds memory on hostile or runaway inputs (the whole table is held in memory).")
    public static let csvFieldTooLong = RuleDescription(
        "csv.field_too_long", .csv, .error, "A value is longer than the configured limit",
        rationale: "No legitimate GTFS or editorial value is that long; it usually means a runaway quote.")
    public static let csvTooManyFields = RuleDescription(
        "csv.too_many_fields", .csv, .error, "A row has more cells than the configured limit; the row is skipped",
        rationale: "Every cell costs memory before the row can be checked; a row of a million commas must not.")
    public static let csvNonPrintableInID = RuleDescription(
        "csv.non_printable_in_id", .csv, .warning, "An ID contains control or non-ASCII characters",
        rationale: "Such IDs look equal to their references on screen while failing to match byte for byte.")

    static let csvRules: [RuleDescription] = [
        csvEmptyFile, csvMissingHeader, csvEmptyColumnName, csvDuplicatedColumn, csvInvalidRowLength,
        csvUnterminatedQuote, csvStrayQuote, csvNewLineInValue, csvWhitespace, csvEmptyRow, csvTrailingCells, csvInvalidUTF8,
        csvUTF8BOM, csvUTF16, csvNulByte, csvMixedLineEndings, csvBareCarriageReturn, csvInvalidLineSeparator, csvMisspelledColumn, csvUnknownColumn,
        csvMissingRequiredColumn, csvMissingRequiredField, csvInvalidValue, csvTooManyRows, csvFileTooLarge,
        csvFieldTooLong, csvNonPrintableInID, csvTooManyFields,
    ]
}
