import CityPackDiagnostics
import Foundation

/// The byte columns of the CSV fields diagnostics name, found by the ``StageKind/locateFields`` stage.
///
/// Validation rules work on the model, which keeps each row's line but not where every cell starts, so they
/// report column 1 and the field's name. This stage reads the header (line 1) and the row's line of each such
/// file once, and records where the named cell starts, so that every format — terminal, JSON, SARIF, GitHub
/// annotations, reports — points at the cell itself. Locations whose file cannot be read (an entry inside a
/// GTFS zip), whose header lacks the field, or whose row has fewer cells keep column 1.
public struct FieldColumns: Sendable {
    private struct Key: Hashable, Sendable {
        var file: String
        var line: Int
        var field: String
    }

    private var columns: [Key: Int] = [:]

    /// No columns.
    public init() {}

    /// How many (file, line, field) columns were found.
    public var count: Int { columns.count }

    /// The columns of every CSV field the diagnostics (and their notes) name without a column.
    /// - Parameter diagnostics: the findings to look fields up for.
    public static func resolve(for diagnostics: [Diagnostic]) -> FieldColumns {
        var wanted: [String: Set<Int>] = [:]
        var keys: Set<Key> = []
        for d in diagnostics {
            for location in [d.location] + d.notes.map(\.location) {
                guard let location, needsColumn(location), let field = location.field else { continue }
                wanted[location.file, default: []].formUnion([1, location.line])
                keys.insert(Key(file: location.file, line: location.line, field: field))
            }
        }
        var result = FieldColumns()
        var lines: [String: [Int: [UInt8]]] = [:]
        var headers: [String: [String: Int]] = [:]
        for (file, numbers) in wanted {
            let read = SourceLines.read(file: file, lines: numbers)
            lines[file] = read
            var header = read[1] ?? []
            if header.starts(with: [0xEF, 0xBB, 0xBF]) { header.removeFirst(3) }
            var names: [String: Int] = [:]
            for (i, cell) in fields(header).enumerated() {
                let name = cell.text.trimmingCharacters(in: .whitespaces)
                if names[name] == nil { names[name] = i }
            }
            headers[file] = names
        }
        for key in keys {
            guard let index = headers[key.file]?[key.field], let row = lines[key.file]?[key.line] else { continue }
            let cells = fields(row)
            if index < cells.count { result.columns[key] = cells[index].start + 1 }
        }
        return result
    }

    /// The diagnostics, in the same order, with the columns found filled into their and their notes' locations.
    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !columns.isEmpty else { return diagnostics }
        func located(_ location: SourceLocation?) -> SourceLocation? {
            guard var location, Self.needsColumn(location), let field = location.field,
                let column = columns[Key(file: location.file, line: location.line, field: field)]
            else { return location }
            location.column = column
            return location
        }
        return diagnostics.map { d in
            var d = d
            d.location = located(d.location)
            for i in d.notes.indices { d.notes[i].location = located(d.notes[i].location) }
            return d
        }
    }

    /// Whether a location is a CSV row (`.txt` or `.csv`, below the header) naming a field but not its column.
    package static func needsColumn(_ location: SourceLocation) -> Bool {
        guard location.field != nil, location.line > 1, location.column <= 1 else { return false }
        return location.file.hasSuffix(".txt") || location.file.hasSuffix(".csv")
    }

    /// Start byte offset and unquoted text of each field of one CSV line (quotes respected, `""` inside quotes
    /// is one quote character).
    package static func fields(_ line: [UInt8]) -> [(start: Int, text: String)] {
        var out: [(Int, String)] = []
        var i = 0
        var start = 0
        var text: [UInt8] = []
        var quoted = false
        while i <= line.count {
            if i == line.count {
                out.append((start, String(decoding: text, as: UTF8.self)))
                break
            }
            let b = line[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < line.count && line[i + 1] == UInt8(ascii: "\"") {
                        text.append(b)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    text.append(b)
                }
            } else if b == UInt8(ascii: ",") {
                out.append((start, String(decoding: text, as: UTF8.self)))
                text.removeAll(keepingCapacity: true)
                start = i + 1
            } else if b == UInt8(ascii: "\"") && i == start {
                quoted = true
            } else {
                text.append(b)
            }
            i += 1
        }
        return out
    }
}
