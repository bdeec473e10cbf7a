import CityPackDiagnostics
import CityPackModel

/// Finds where the cells that validation names start, with the reader's own scanner over the feed's own files
/// (entries of a zip included), so that every GTFS diagnostic points at its cell.
///
/// The model keeps each row's line but not where its cells start: a column for every cell of millions of
/// stop_times rows would cost more than the rows themselves. Validation ends by asking for the few cells its
/// findings name (``GTFSValidator``); each file holding one is scanned again with the options it was read
/// with, so rows, lines and columns are those of the first reading. The first reading recorded where every
/// 4096th row starts (``rowIndexes``): the scan starts at the last such row before a row asked for (a folder's
/// file seeks there, a zip entry is inflated up to it without CSV work), moves on the same way to the next
/// rows asked for when they are further on, and stops after the last one; the byte checks are not run again.
struct GTFSCellFinder: GTFSCellLocator {
    /// The feed on disk (folder or zip) and its display path, as given to ``GTFSReader/read(path:displayPath:bag:options:)``.
    let path: String
    let displayPath: String
    /// The options the feed was read with (without progress).
    let options: GTFSReadOptions
    /// Where rows start in the files the reader read (display path → header and marks).
    let rowIndexes: [String: CSVRowIndex]

    /// Thrown by the read callback once every line asked for has been seen: the rest of the file is not read.
    private struct Done: Error {}
    /// Thrown by the read callback to start again at a mark further on.
    private struct Jump: Error {
        let mark: CSVRowMark
    }

    /// Bytes read at a time: the scan stops soon after the last row asked for.
    private static let chunkSize = 1 << 16

    func locate(_ cells: Set<GTFSCellReference>) -> [GTFSCellReference: SourceLocation] {
        guard !cells.isEmpty else { return [:] }
        // What the second scan finds is known already (the first reading reported it); nothing is kept.
        let scratch = DiagnosticBag(maxPerCode: 0)
        guard var source = try? GTFSSource.open(path: path, displayPath: displayPath, options: options, bag: scratch)
        else { return [:] }
        var wanted: [String: [Int: Set<String>]] = [:]
        for cell in cells { wanted[cell.file, default: [:]][cell.line, default: []].insert(cell.field) }
        var nameOf: [String: String] = [:]
        for (name, shown) in source.displayPaths where nameOf[shown] == nil { nameOf[shown] = name }
        var found: [GTFSCellReference: SourceLocation] = [:]
        for (file, rows) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let name = nameOf[file], name.hasSuffix(".txt") else { continue }
            let table = String(name.dropLast(4))
            guard let schema = GTFSSchema.tables[table], let stream = source.open(name, bag: scratch) else { continue }
            // The options ``GTFSReader`` reads this table with, less the first reading's own work.
            var csv = options.csv(schema: schema)
            csv.lenientTrailingCells = !GTFSSchema.readOrder.contains(table)
            csv.rowIndexInterval = 0
            csv.checkEncoding = false
            csv.readChunkSize = min(csv.readChunkSize, Self.chunkSize)
            let index = rowIndexes[file]
            let lines = rows.keys.sorted()
            var next = 0
            var at = index?.mark(atOrBefore: lines[0])
            scanning: while next < lines.count {
                do {
                    if let at { try stream.skip(to: at.offset) }
                    let read = { (buffer: UnsafeMutableRawBufferPointer) throws -> Int in
                        if next == lines.count { throw Done() }
                        // Every row before the next line asked for has been seen: a mark past the bytes read
                        // is a row boundary with nothing asked for between here and there.
                        if let index, let mark = index.mark(atOrBefore: lines[next]), mark.offset > stream.bytesRead {
                            throw Jump(mark: mark)
                        }
                        return try stream.read(into: buffer)
                    }
                    let onRow = { (row: CSVRow) in
                        while next < lines.count && lines[next] < row.line { next += 1 }
                        guard next < lines.count, lines[next] == row.line else { return }
                        for field in rows[row.line] ?? [] {
                            guard let index = row.header.index(of: field), index < row.fields.count else { continue }
                            let cell = row.fields[index]
                            found[GTFSCellReference(file: file, line: row.line, field: field)] = SourceLocation(
                                file: file, line: Int(cell.line), column: Int(cell.column), field: field)
                        }
                        next += 1
                    }
                    if let at, let index {
                        try CSVScanner.scan(file: file, options: csv, bag: scratch, from: at, index: index, read: read,
                            onRow: onRow)
                    } else {
                        try CSVScanner.scan(file: file, options: csv, bag: scratch, read: read, onRow: onRow)
                    }
                    break scanning
                } catch let jump as Jump {
                    at = jump.mark
                } catch {
                    break scanning
                }
            }
            source.close(stream, succeeded: false)
        }
        return found
    }
}
