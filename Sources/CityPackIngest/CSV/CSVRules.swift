import CityPackDiagnostics

// The rules the shared CSV scanner and the table readers (GTFS, editorial) report while reading: syntax,
// encoding, header and value checks. They fire in `CSVScanner` and the readers; `RuleCatalog` lists them.

private typealias Base = RuleExampleCity

extension Rules {
    public static let csvEmptyFile = RuleDescription(
        "csv.empty_file", .csv, .error, "The file has no header row",
        title: "Empty file",
        rationale: "A table without a header cannot be mapped to columns, so all of its data is lost.",
        example: RuleExample(file: "gtfs/agency.txt", triggering: "", passing: Base.agency))
    public static let csvMissingHeader = RuleDescription(
        "csv.missing_header", .csv, .error, "The header row names none of the columns the table defines",
        title: "Missing header row",
        rationale: "Usually the header line was dropped and the first data row was read as the header.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n", ""),
            passing: Base.stops))
    public static let csvEmptyColumnName = RuleDescription(
        "csv.empty_column_name", .csv, .error, "A header cell is blank",
        title: "Empty column name",
        rationale: "Values under a nameless column cannot be interpreted.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "route_short_name,route_long_name,", "route_short_name,,"),
            passing: Base.routes))
    public static let csvDuplicatedColumn = RuleDescription(
        "csv.duplicated_column", .csv, .error, "The header names the same column twice",
        title: "Duplicated column",
        rationale: "Which of the two values is meant is ambiguous; consumers disagree on the choice.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "route_short_name,route_long_name,", "route_short_name,route_short_name,"),
            passing: Base.routes))
    public static let csvInvalidRowLength = RuleDescription(
        "csv.invalid_row_length", .csv, .error, "A row has more cells than the header and an extra one is not empty",
        title: "Invalid row length",
        rationale: "Cells of a ragged row cannot be matched to columns reliably, and a value would be lost; the row "
            + "is skipped. Rows that only lack trailing cells or end in empty extra cells are csv.trailing_cells.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "Larvotto,3\n", "Larvotto,3,x\n"),
            passing: Base.routes))
    public static let csvTrailingCells = RuleDescription(
        "csv.trailing_cells", .csv, .warning,
        "A row of a table the pack does not use lacks trailing cells or ends in empty extra cells; read as if it matched the header",
        title: "Missing or empty trailing cells",
        rationale: "The cells still line up with the columns and no value is lost (missing cells read as empty), "
            + "so GTFS consumers accept such rows; the file is still sloppy, often a stray or missing comma.",
        example: RuleExample(
            file: "gtfs/levels.txt",
            triggering: "level_id,level_index,level_name\nL0,0\n",
            passing: "level_id,level_index,level_name\nL0,0,Street\n"))
    public static let csvUnterminatedQuote = RuleDescription(
        "csv.unterminated_quote", .csv, .error, "A quoted field is still open at the end of the file",
        title: "Unterminated quote",
        rationale: "RFC 4180 §2.5–2.7: the rest of the file would be swallowed into one value.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "Port – Larvotto,", "\"Port – Larvotto,"),
            passing: Base.edit(Base.routes, "Port – Larvotto,", "\"Port – Larvotto\",")))
    public static let csvStrayQuote = RuleDescription(
        "csv.stray_quote", .csv, .error, "A `\"` appears inside an unquoted field or after a closing quote",
        title: "Stray quote",
        rationale: "RFC 4180 §2.5 forbids it; parsers disagree on what such a field means.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "Port – Larvotto,", "Port – \"Larvotto\","),
            passing: Base.edit(Base.routes, "Port – Larvotto,", "\"Port – \"\"Larvotto\"\"\",")))
    public static let csvNewLineInValue = RuleDescription(
        "csv.new_line_in_value", .csv, .error, "A quoted value contains a line break",
        title: "Line break in value",
        rationale: "GTFS forbids CR and LF in values; editorial CSV may allow them (severity is set per source).",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "Port – Larvotto,", "\"Port –\nLarvotto\","),
            passing: Base.edit(Base.routes, "Port – Larvotto,", "\"Port – Larvotto\",")))
    public static let csvWhitespace = RuleDescription(
        "csv.leading_or_trailing_whitespace", .csv, .warning, "A value has leading or trailing spaces; it is trimmed",
        title: "Leading or trailing whitespace",
        rationale: "Padded IDs silently fail to match their references in other files.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.routes, "Port – Larvotto,", " Port – Larvotto,"),
            passing: Base.routes))
    public static let csvEmptyRow = RuleDescription(
        "csv.empty_row", .csv, .warning, "A row is blank or has only empty cells; it is skipped",
        title: "Empty row",
        rationale: "Blank rows are usually editing leftovers; some consumers read them as records.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,", ",,,,,\nS2,"),
            passing: Base.stops))
    public static let csvInvalidUTF8 = RuleDescription(
        "csv.invalid_utf8", .csv, .error, "The file contains bytes that are not valid UTF-8",
        title: "Invalid UTF-8",
        rationale: "GTFS and CityPack text is UTF-8; undecodable bytes would show as U+FFFD.",
        exampleWaiver: "Examples are UTF-8 text and cannot hold undecodable bytes; CSVScannerTests.invalidUTF8AndNulBytes and the bad_utf8 case of GTFSRealFeedTests cover it.")
    public static let csvUTF8BOM = RuleDescription(
        "csv.utf8_bom", .csv, .info, "The file starts with a UTF-8 byte order mark; it is skipped",
        title: "UTF-8 byte order mark",
        rationale: "Allowed by GTFS, but it would corrupt the first column name if not stripped.",
        example: RuleExample(file: "gtfs/agency.txt", triggering: "\u{FEFF}" + Base.agency, passing: Base.agency))
    public static let csvUTF16 = RuleDescription(
        "csv.utf16_encoding", .csv, .error, "The file starts with a UTF-16 byte order mark; it is not read",
        title: "UTF-16 encoding",
        rationale: "Only UTF-8 is allowed; reading UTF-16 as bytes gives NUL-riddled garbage.",
        exampleWaiver: "Examples are UTF-8 text and cannot hold a UTF-16 file; CSVScannerTests.utf16BOMIsRejected and the utf16 case of GTFSRealFeedTests cover it.")
    public static let csvNulByte = RuleDescription(
        "csv.nul_byte", .csv, .error, "The file contains a NUL byte",
        title: "NUL byte",
        rationale: "NUL is never valid text; it signals a binary or wrongly encoded file and truncates C strings.",
        example: RuleExample(
            file: "gtfs/agency.txt",
            triggering: Base.edit(Base.agency, "Example Transit", "Example Transit\u{0}"),
            passing: Base.agency))
    public static let csvMixedLineEndings = RuleDescription(
        "csv.mixed_line_endings", .csv, .warning, "The file mixes CRLF and LF line endings",
        title: "Mixed line endings",
        rationale: "Mixed endings betray files concatenated from different tools; some readers miscount rows.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "parent_station\n", "parent_station\r\n"),
            passing: Base.stops.replacingOccurrences(of: "\n", with: "\r\n")))
    public static let csvBareCarriageReturn = RuleDescription(
        "csv.bare_carriage_return", .csv, .warning, "A carriage return not followed by a line feed ends or splits a row",
        title: "Bare carriage return",
        rationale: "GTFS and RFC 4180 end rows with CRLF or LF only; readers disagree on a lone CR (old Mac line "
            + "end or a stray byte), so one tool sees a row break where another sees part of a value. CityPack "
            + "reads it as a row end, as gtfs-validator does (which accepts it); a row it splits is then reported by "
            + "the row-length and value rules, so the lone CR itself is a warning. `--werror` or the rule setting "
            + "make it an error.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.stops.replacingOccurrences(of: "\n", with: "\r"),
            passing: Base.stops.replacingOccurrences(of: "\n", with: "\r\n")))
    public static let csvInvalidLineSeparator = RuleDescription(
        "csv.invalid_line_separator", .csv, .warning, "A form feed, U+2028, U+2029 or U+0085 appears",
        title: "Unusual line separator",
        rationale: "Readers disagree on whether these end a line, so row numbers and values drift.",
        example: RuleExample(
            file: "gtfs/stops.txt",
            triggering: Base.edit(Base.stops, "S2,Casino,", "S2,Casino\u{2028},"),
            passing: Base.stops))
    public static let csvMisspelledColumn = RuleDescription(
        "csv.misspelled_column", .csv, .warning, "An unknown column is one small edit away from a column the table lacks",
        title: "Misspelt column",
        rationale: "`stop_uri` for `stop_url` or `Route_Text_Color` for `route_text_color` means the data in it is "
            + "silently ignored; an unrelated extra column is only csv.unknown_column (info).",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.edit(Base.routes, "route_type\n", "route_type,route_colour\n"), ",3\n", ",3,C8102E\n"),
            passing: Base.edit(Base.edit(Base.routes, "route_type\n", "route_type,route_color\n"), ",3\n", ",3,C8102E\n")))
    public static let csvUnknownColumn = RuleDescription(
        "csv.unknown_column", .csv, .info, "A column is not part of the table's schema; it is ignored",
        title: "Unknown column",
        rationale: "Often a misspelt column name, whose data is then silently lost.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.edit(Base.routes, "route_type\n", "route_type,vehicle_model\n"), ",3\n", ",3,Citaro\n"),
            passing: Base.routes))
    public static let csvMissingRequiredColumn = RuleDescription(
        "csv.missing_required_column", .csv, .error, "A column the table requires is absent",
        title: "Missing required column",
        rationale: "Every row then lacks a value the pack needs.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.edit(Base.routes, ",route_type\n", "\n"), ",3\n", "\n"),
            passing: Base.routes))
    public static let csvMissingRequiredField = RuleDescription(
        "csv.missing_required_field", .csv, .error, "A required cell is empty",
        title: "Missing required value",
        rationale: "The row cannot be used without it.",
        example: RuleExample(
            file: "gtfs/agency.txt",
            triggering: Base.edit(Base.agency, "A,Example Transit,", "A,,"),
            passing: Base.agency))
    public static let csvInvalidValue = RuleDescription(
        "csv.invalid_value", .csv, .error,
        "A value does not parse as its type (integer, number, date, time, colour, enum, URL, timezone)",
        title: "Invalid value",
        rationale: "An unparsable value is dropped, which changes what riders are told.",
        example: RuleExample(
            file: "gtfs/routes.txt",
            triggering: Base.edit(Base.edit(Base.routes, "route_type\n", "route_type,route_color\n"), ",3\n", ",3,red\n"),
            passing: Base.edit(Base.edit(Base.routes, "route_type\n", "route_type,route_color\n"), ",3\n", ",3,C8102E\n")))
    public static let csvTooManyRows = RuleDescription(
        "csv.too_many_rows", .csv, .error, "The file has more rows than the configured limit; the rest are ignored",
        title: "Too many rows",
        rationale: "Bounds memory and time on hostile or runaway inputs.",
        exampleWaiver: "The default limit (50 million rows per table) is too large for a readable example; CSVScannerTests.limitsBecomeDiagnostics lowers it and checks the rule.")
    public static let csvFileTooLarge = RuleDescription(
        "csv.file_too_large", .csv, .error, "The file is larger than the configured limit; it is not read",
        title: "File too large",
        rationale: "Bounds memory on hostile or runaway inputs (the whole table is held in memory).",
        exampleWaiver: "The default limit (1 GiB per file) is too large for a readable example; CSVScannerTests.limitsBecomeDiagnostics lowers it and checks the rule.")
    public static let csvFieldTooLong = RuleDescription(
        "csv.field_too_long", .csv, .error, "A value is longer than the configured limit",
        title: "Value too long",
        rationale: "No legitimate GTFS or editorial value is that long; it usually means a runaway quote.",
        exampleWaiver: "The default limit (64 KiB per value) is too large for a readable example; CSVScannerTests.limitsBecomeDiagnostics lowers it and checks the rule.")
    public static let csvTooManyFields = RuleDescription(
        "csv.too_many_fields", .csv, .error, "A row has more cells than the configured limit; the row is skipped",
        title: "Too many fields in a row",
        rationale: "Every cell costs memory before the row can be checked; a row of a million commas must not.",
        exampleWaiver: "The default limit is too large for a readable example; HostileInputTests.fieldsPerRowLimit lowers it and checks the rule.")
    public static let csvNonPrintableInID = RuleDescription(
        "csv.non_printable_in_id", .csv, .warning, "An ID contains control or non-ASCII characters",
        title: "Non-printable character in ID",
        rationale: "Such IDs look equal to their references on screen while failing to match byte for byte.",
        example: RuleExample(
            file: "gtfs/trips.txt",
            triggering: Base.edit(Base.trips, "T1,B1,", "T1,Bé1,"),
            passing: Base.edit(Base.trips, "T1,B1,", "T1,Be1,")))
}
