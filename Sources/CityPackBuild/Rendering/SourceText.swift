import CityPackCompiler
import Foundation

/// Reads the source lines diagnostics point at, once per file, at render time.
///
/// gzip and bzip2 files are decompressed while reading; reading stops after the last line
/// asked for. Files that do not exist (entries inside a GTFS zip, a deleted file) simply give no lines, and
/// the renderer prints no snippet. Lines longer than ``SourceLines/maxLineBytes`` are cut (the caret window of the human
/// renderer never needs more).
package final class SourceText {
    private var cache: [String: [Int: [UInt8]]] = [:]
    private var requested: [String: Set<Int>] = [:]

    package init() {}

    /// Loads, for each file, the lines listed (1-based). A file is read again only for lines not asked before.
    package func load(_ wanted: [String: Set<Int>]) {
        for (file, lines) in wanted.sorted(by: { $0.key < $1.key }) {
            let missing = lines.subtracting(requested[file] ?? [])
            guard !missing.isEmpty else { continue }
            requested[file, default: []].formUnion(missing)
            cache[file, default: [:]].merge(Self.read(file: file, lines: missing)) { _, new in new }
        }
    }

    /// Bytes of line `line` of `file` (without the line end), if it was loaded and exists.
    package func line(_ line: Int, of file: String) -> [UInt8]? { cache[file]?[line] }

    /// The lines of `file` listed (``SourceLines/read(file:lines:)``).
    package static func read(file: String, lines wanted: Set<Int>) -> [Int: [UInt8]] {
        SourceLines.read(file: file, lines: wanted)
    }
}

/// Turns a source line and a 1-based byte column into the two lines printed under a diagnostic: the source
/// text and a caret (with `~` under the rest of a CSV field when the location names a field).
package enum SourceSnippet {
    /// Display width around the caret before a long line is cut.
    package static let width = 100
    package static let tabWidth = 4

    /// `(text, marker)`; marker is empty when the column is unknown (0). Tabs become spaces up to the next
    /// multiple of ``tabWidth``; other control characters are shown as `?`; lines wider than ``width`` are
    /// cut around the column with `...` at each cut end.
    package static func render(line bytes: [UInt8], column: Int, underlineCSVField: Bool) -> (text: String, marker: String) {
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
    package static func csvFieldLength(_ chars: [String], from start: Int) -> Int {
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
