import CityPackDiagnostics
import CityPackModel
import Foundation

/// Limits for reading a feed.
public struct GTFSReadOptions: Sendable {
    /// Largest accepted single file (decompressed), in bytes. Default 1 GiB.
    public var maxFileSize: Int
    /// Largest accepted total decompressed size of a zip feed, in bytes. Default 2 GiB.
    public var maxTotalSize: Int
    /// Most rows read per table. Default 50 million.
    public var maxRows: Int
    /// Longest accepted value, in bytes. Default 64 KiB.
    public var maxFieldLength: Int
    /// Called while a table is read with its display path, rows read so far and an estimate of all rows (the
    /// file's line count); at most every 16 384 rows and once at the end of each table. On the reading thread.
    public var progress: (@Sendable (_ file: String, _ rowsDone: Int64, _ rowsTotal: Int64) -> Void)?
    /// Most cells in one row. Default 1 000.
    public var maxFieldsPerRow: Int = 1_000
    /// Most entries in a zip feed. Default 10 000.
    public var maxEntries: Int = 10_000
    /// Largest decompressed / compressed ratio of one zip entry, checked while inflating. Default 200.
    public var maxCompressionRatio: Int = 200
    /// Bytes read from a file or inflated from an entry at a time. Tables are parsed piece by piece and never
    /// held whole. Default 1 MiB; tests make it tiny to cut rows at every possible place.
    public var readChunkSize: Int = 1 << 20
    /// A CSV record longer than this is scanned in place instead of being held (``CSVOptions/recordBufferSize``).
    public var recordBufferSize: Int = 4 << 20
    /// Data rows between the row starts the reader records in each file, so that finding the cells validation
    /// names (``GTFSFeed/cellLocator``) scans from near them instead of from the top (a few dozen marks for
    /// millions of rows). Default 4096; tests make it tiny; 0 records none.
    public var rowIndexInterval: Int = 4096

    public init(maxFileSize: Int = 1 << 30, maxTotalSize: Int = 2 << 30, maxRows: Int = 50_000_000,
        maxFieldLength: Int = 64 << 10)
    {
        self.maxFileSize = maxFileSize
        self.maxTotalSize = maxTotalSize
        self.maxRows = maxRows
        self.maxFieldLength = maxFieldLength
    }
}

extension GTFSReadOptions {
    /// The bounds of a city file's `limits:` section.
    public init(limits: InputLimits) {
        self.init(
            maxFileSize: Int(clamping: limits.fileSize), maxTotalSize: Int(clamping: limits.zipSize), maxRows: limits.rows,
            maxFieldLength: limits.valueSize)
        maxFieldsPerRow = limits.fieldsPerRow
        maxEntries = limits.zipEntries
        maxCompressionRatio = limits.zipRatio
    }

    /// CSV options for one table of the feed.
    func csv(schema: CSVSchema, newLineInValueSeverity: Severity? = .error) -> CSVOptions {
        var options = CSVOptions(
            newLineInValueSeverity: newLineInValueSeverity, maxFileSize: maxFileSize, maxRows: maxRows,
            maxFieldLength: maxFieldLength, trimWhitespace: true, schema: schema)
        options.maxFieldsPerRow = maxFieldsPerRow
        options.readChunkSize = readChunkSize
        options.recordBufferSize = recordBufferSize
        options.rowIndexInterval = rowIndexInterval
        return options
    }
}

/// Reads a GTFS feed (directory or `.zip`) into a ``GTFSFeed``.
///
/// Syntax problems (`csv.*`), missing files and columns, and values that do not parse are reported here, at
/// `file:line:col` with the field name. Semantic checks are the validator's. Never prints; thread-safe.
public enum GTFSReader {
    /// Reads a feed.
    /// - Parameters:
    ///   - path: directory or zip archive on disk.
    ///   - displayPath: how to name the feed in diagnostics (defaults to `path`).
    ///   - bag: receives diagnostics.
    ///   - options: size and row limits.
    /// - Returns: the feed, or nil when the path is not a readable feed at all (reported to the bag).
    /// - Throws: ``GTFSReadError/notFound(_:)`` when nothing exists at `path`.
    public static func read(
        path: String, displayPath: String? = nil, bag: DiagnosticBag, options: GTFSReadOptions = GTFSReadOptions()
    ) throws -> GTFSFeed? {
        let shown = displayPath ?? path
        guard var source = try GTFSSource.open(path: path, displayPath: shown, options: options, bag: bag) else {
            return nil
        }
        var feed = GTFSFeed(displayPath: shown, allFileNames: source.fileNames)
        feed.archiveTime = source.archiveTime
        for name in source.fileNames where name.hasSuffix(".txt") || name.hasSuffix(".geojson") {
            let table = String(name.dropLast(name.hasSuffix(".txt") ? 4 : 8))
            if GTFSSchema.tables[table] != nil { feed.files[table] = source.displayPaths[name] }
        }
        let present = Set(source.fileNames)
        let absentTables = GTFSSchema.tables.keys.map { "\($0).txt" }.filter { !present.contains($0) }.sorted()
        for name in source.fileNames where !GTFSSchema.isKnownFile(name) {
            let at = SourceLocation(file: source.displayPaths[name] ?? name)
            if name.hasSuffix(".txt"), let guess = NameSimilarity.closest(to: name, in: absentTables) {
                bag.report(Rules.gtfsMisspelledFile, "unknown file `\(name)` is ignored; did you mean `\(guess)`?", at: at)
            } else {
                bag.report(Rules.gtfsUnknownFile, "unknown file `\(name)` is ignored", at: at)
            }
        }
        for table in ["agency", "stops", "routes", "trips", "stop_times"] where feed.files[table] == nil {
            bag.report(Rules.gtfsMissingRequiredFile, "required file `\(table).txt` is missing",
                at: SourceLocation(file: "\(shown)/\(table).txt"))
        }
        if feed.files["calendar"] == nil && feed.files["calendar_dates"] == nil {
            bag.report(Rules.gtfsMissingCalendar, "neither `calendar.txt` nor `calendar_dates.txt` is present",
                at: SourceLocation(file: "\(shown)/calendar.txt"))
        }

        var parser = GTFSTableParser(bag: bag)
        let reading = GTFSTableReading(bag: bag, options: options)
        // Order matters: stop_times resolves trip and stop indices.
        for table in GTFSSchema.readOrder {
            guard let file = feed.files[table] else { continue }
            let csvOptions = options.csv(schema: GTFSSchema.tables[table]!)
            reading.read("\(table).txt", file: file, source: &source, feed: &feed, parser: &parser, countRows: true) {
                try $0.parse(table: table, input: $2, options: csvOptions, into: &$1)
            }
        }
        // Tables CityPack does not model still get their syntax checked.
        for (table, schema) in GTFSSchema.tables where !GTFSSchema.readOrder.contains(table) {
            guard let file = feed.files[table] else { continue }
            var csvOptions = options.csv(schema: schema)
            csvOptions.lenientTrailingCells = true
            reading.read("\(table).txt", file: file, source: &source, feed: &feed, parser: &parser, countRows: false) {
                try $0.parseOther(table: table, input: $2, options: csvOptions, into: &$1)
            }
        }
        GTFSTableParser.indexStopTimes(&feed)
        var quiet = options
        quiet.progress = nil
        feed.cellLocator = GTFSCellFinder(path: path, displayPath: shown, options: quiet, rowIndexes: parser.rowIndexes)
        return feed
    }

    /// A cell locator for a feed read earlier (the build cache loads feeds without reading them): it scans the
    /// feed's files from their start, as the first reading would have (no row marks), with `options`.
    /// Whether `path` holds a feed a build can read, without reading its tables: the problems that stop it
    /// (not an archive, no GTFS file where one is looked for, files split across folders) go to `bag`.
    /// - Returns: false when the feed cannot be read at all.
    public static func probe(path: String, displayPath: String, bag: DiagnosticBag) -> Bool {
        (try? GTFSSource.open(path: path, displayPath: displayPath, options: GTFSReadOptions(), bag: bag)) != nil
    }

    public static func cellLocator(path: String, displayPath: String, options: GTFSReadOptions) -> any GTFSCellLocator {
        var quiet = options
        quiet.progress = nil
        return GTFSCellFinder(path: path, displayPath: displayPath, options: quiet, rowIndexes: [:])
    }
}
