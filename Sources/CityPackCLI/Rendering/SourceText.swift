import CCityPackZlib
import CityPackDiagnostics
import Foundation

/// Reads the source lines diagnostics point at, once per file, at render time.
///
/// Plain files are read with `fread`, `.gz` files through zlib's `gzread`; reading stops after the last line
/// asked for. Files that do not exist (entries inside a GTFS zip, a deleted file) simply give no lines, and
/// the renderer prints no snippet. Lines longer than ``maxLineBytes`` are cut (the caret window of the human
/// renderer never needs more).
final class SourceText {
    /// Longest line kept, in bytes.
    static let maxLineBytes = 64 * 1024

    private var cache: [String: [Int: [UInt8]]] = [:]
    private var requested: [String: Set<Int>] = [:]

    /// Loads, for each file, the lines listed (1-based). A file is read again only for lines not asked before.
    func load(_ wanted: [String: Set<Int>]) {
        for (file, lines) in wanted.sorted(by: { $0.key < $1.key }) {
            let missing = lines.subtracting(requested[file] ?? [])
            guard !missing.isEmpty else { continue }
            requested[file, default: []].formUnion(missing)
            cache[file, default: [:]].merge(Self.read(file: file, lines: missing)) { _, new in new }
        }
    }

    /// Bytes of line `line` of `file` (without the line end), if it was loaded and exists.
    func line(_ line: Int, of file: String) -> [UInt8]? { cache[file]?[line] }

    /// Streams `file` and keeps the requested lines.
    static func read(file: String, lines wanted: Set<Int>) -> [Int: [UInt8]] {
        guard let last = wanted.max(), last > 0 else { return [:] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { return [:] }
        var out: [Int: [UInt8]] = [:]
        var current: [UInt8] = []
        var lineNumber = 1
        var keeping = wanted.contains(1)
        var done = false
        func consume(_ buffer: UnsafeBufferPointer<UInt8>) {
            for byte in buffer {
                if byte == 0x0A {
                    if keeping {
                        if current.last == 0x0D { current.removeLast() }
                        out[lineNumber] = current
                    }
                    current.removeAll(keepingCapacity: true)
                    lineNumber += 1
                    if lineNumber > last { done = true; return }
                    keeping = wanted.contains(lineNumber)
                } else if keeping && current.count < maxLineBytes {
                    current.append(byte)
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        if file.hasSuffix(".gz") {
            guard let gz = gzopen(file, "rb") else { return [:] }
            defer { gzclose(gz) }
            while !done {
                let n = chunk.withUnsafeMutableBytes { gzread(gz, $0.baseAddress, UInt32($0.count)) }
                if n <= 0 { break }
                chunk.withUnsafeBufferPointer { consume(UnsafeBufferPointer(rebasing: $0[0..<Int(n)])) }
            }
        } else {
            guard let fp = fopen(file, "rb") else { return [:] }
            defer { fclose(fp) }
            while !done {
                let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, fp) }
                if n == 0 { break }
                chunk.withUnsafeBufferPointer { consume(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
        }
        if !done && keeping && !current.isEmpty {
            if current.last == 0x0D { current.removeLast() }
            out[lineNumber] = current
        }
        return out
    }
}

/// Turns a source line and a 1-based byte column into the two lines printed under a diagnostic: the source
/// text and a caret (with `~` under the rest of a CSV field when the location names a field).
enum SourceSnippet {
    /// Display width around the caret before a long line is cut.
    static let width = 100
    static let tabWidth = 4

    /// `(text, marker)`; marker is empty when the column is unknown (0). Tabs become spaces up to the next
    /// multiple of ``tabWidth``; other control characters are shown as `?`; lines wider than ``width`` are
    /// cut around the column with `...` at each cut end.
    static func render(line bytes: [UInt8], column: Int, underlineCSVField: Bool) -> (text: String, marker: String) {
        // Decode to characters, remembering the byte offset each one starts at.
        let text = String(decoding: bytes, as: UTF8.self)
        var cells: [(display: String, startByte: Int)] = []
        var byteOffset = 0
        var displayColumn = 0
        for ch in text {
            let n = String(ch).utf8.count
            var shown: String
            if ch == "\t" {
                let spaces = tabWidth - displayColumn % tabWidth
                shown = String(repeating: " ", count: spaces)
            } else if ch.unicodeScalars.allSatisfy({ $0.value < 0x20 || $0.value == 0x7F }) {
                shown = "?"
            } else {
                shown = String(ch)
            }
            cells.append((shown, byteOffset))
            displayColumn += shown.count
            byteOffset += n
        }
        // The character the column points into (past the end: one after the last character).
        let targetByte = max(column - 1, 0)
        var caretIndex = cells.count
        for (i, cell) in cells.enumerated() where cell.startByte >= targetByte {
            caretIndex = cell.startByte == targetByte || i == 0 ? i : i - 1
            break
        }
        if caretIndex == cells.count, let lastStart = cells.last?.startByte, targetByte < byteOffset, targetByte >= lastStart {
            caretIndex = cells.count - 1
        }
        var underline = 0
        if underlineCSVField && caretIndex < cells.count {
            underline = csvFieldLength(cells.map(\.display), from: caretIndex) - 1
        }
        // Window: whole line when it fits, else `width` cells around the caret.
        var from = 0, to = cells.count
        let total = cells.reduce(0) { $0 + $1.display.count }
        if total > width {
            from = max(0, min(caretIndex - width / 2, cells.count - width))
            to = min(cells.count, from + width)
        }
        var line = from > 0 ? "..." : ""
        var marker = from > 0 ? "   " : ""
        for i in from..<to {
            let shown = cells[i].display
            line += shown
            if column > 0 {
                if i < caretIndex {
                    marker += String(repeating: " ", count: shown.count)
                } else if i == caretIndex {
                    marker += "^" + String(repeating: "~", count: max(shown.count - 1, 0))
                } else if i <= caretIndex + underline {
                    marker += String(repeating: "~", count: shown.count)
                }
            }
        }
        if to < cells.count { line += "..." }
        if column > 0 && caretIndex >= to { marker += "^" }
        return (line, column > 0 ? marker : "")
    }

    /// Characters from `start` to the end of the CSV field that starts there (quotes respected).
    static func csvFieldLength(_ chars: [String], from start: Int) -> Int {
        var i = start
        if chars[i] == "\"" {
            i += 1
            while i < chars.count {
                if chars[i] == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { i += 2; continue }
                    return i - start + 1
                }
                i += 1
            }
            return i - start
        }
        while i < chars.count && chars[i] != "," { i += 1 }
        return max(i - start, 1)
    }
}

/// Finds the byte column of a named CSV field when a diagnostic only knows the row.
///
/// Validation rules work on the model, which keeps each row's line but not the byte column of every cell, so
/// they report column 1 and the field's name. Before anything is rendered, the CLI looks the field up in the
/// file's header (line 1) and finds where that cell starts on the row's line, so every format — terminal,
/// JSON, SARIF, GitHub annotations, reports — points at the cell itself.
enum CSVFieldColumn {
    /// Start byte offset and unquoted text of each field of one CSV line (quotes respected, `""` inside
    /// quotes is one quote character).
    static func fields(_ line: [UInt8]) -> [(start: Int, text: String)] {
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

    /// Whether this location is a CSV row whose field column should be looked up.
    static func needsColumn(_ location: SourceLocation?) -> Bool {
        guard let location, location.field != nil, location.line > 1, location.column <= 1 else { return false }
        return location.file.hasSuffix(".txt") || location.file.hasSuffix(".csv")
    }

    /// The diagnostics with the columns of their (and their notes') CSV fields filled in where the file can
    /// be read and the header names the field.
    static func refine(_ diagnostics: [Diagnostic], sources: SourceText) -> [Diagnostic] {
        var wanted: [String: Set<Int>] = [:]
        for d in diagnostics {
            for location in [d.location] + d.notes.map(\.location) where needsColumn(location) {
                wanted[location!.file, default: []].formUnion([1, location!.line])
            }
        }
        guard !wanted.isEmpty else { return diagnostics }
        sources.load(wanted)
        var headers: [String: [String: Int]] = [:]
        func refined(_ location: SourceLocation?) -> SourceLocation? {
            guard needsColumn(location), var location, let field = location.field else { return location }
            if headers[location.file] == nil {
                var header = sources.line(1, of: location.file) ?? []
                if header.starts(with: [0xEF, 0xBB, 0xBF]) { header.removeFirst(3) }
                var names: [String: Int] = [:]
                for (i, f) in fields(header).enumerated() where names[f.text.trimmingCharacters(in: .whitespaces)] == nil {
                    names[f.text.trimmingCharacters(in: .whitespaces)] = i
                }
                headers[location.file] = names
            }
            guard let index = headers[location.file]?[field], let row = sources.line(location.line, of: location.file) else {
                return location
            }
            let cells = fields(row)
            if index < cells.count { location.column = cells[index].start + 1 }
            return location
        }
        return diagnostics.map { d in
            var d = d
            d.location = refined(d.location)
            d.notes = d.notes.map { Diagnostic.Note($0.message, at: refined($0.location)) }
            return d
        }
    }
}
