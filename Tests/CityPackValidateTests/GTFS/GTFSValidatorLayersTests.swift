import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// transitland-lib's validator layers: `base` is valid; each `errors/<case>` overlay marks offending rows in an
/// extra `expect_error` column. We check that an error lands on each marked file and row (or that one of its
/// notes points there: trip-level findings are reported on stop_times with a note at the trip).
@Suite(.needsSharedData) struct GTFSValidatorLayersTests {
    static var layers: URL? { TestPaths.sharedData?.appendingPathComponent("gtfs/broken/transitland/validator-layers") }

    /// Splits a CSV line into raw cells, keeping quotes (the fixtures hold no multi-line values).
    static func rawCells(_ line: Substring) -> [Substring] {
        var cells: [Substring] = []
        var start = line.startIndex
        var inQuotes = false
        var i = line.startIndex
        while i < line.endIndex {
            let ch = line[i]
            if ch == "\"" { inQuotes.toggle() } else if ch == "," && !inQuotes {
                cells.append(line[start..<i])
                start = line.index(after: i)
            }
            i = line.index(after: i)
        }
        cells.append(line[start..<line.endIndex])
        return cells
    }

    struct Mark: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var error: String
        var description: String { "\(file):\(line) \(error)" }
    }

    /// Copies base, overlays the case, strips `expect_error`; returns the feed directory and the marked rows.
    static func build(_ caseDir: URL) throws -> (URL, [Mark], [Mark]) {
        let fm = FileManager.default
        let root = try TestPaths.temporaryDirectory("gtfs-layer")
        let feed = root.appendingPathComponent("feed")
        try fm.copyItem(at: layers!.appendingPathComponent("base"), to: feed)
        var marks: [Mark] = []
        var wholeFile: [Mark] = []
        for name in try fm.contentsOfDirectory(atPath: caseDir.path).sorted() where name.hasSuffix(".txt") {
            let text = try String(contentsOf: caseDir.appendingPathComponent(name), encoding: .utf8)
            if name == "expect_errors.txt" {
                for line in text.split(whereSeparator: \.isNewline).dropFirst() {
                    let cells = rawCells(line)
                    if cells.count > 2 { wholeFile.append(Mark(file: String(cells[2]), line: 0, error: String(cells[0]))) }
                }
                continue
            }
            // "\r\n" is one Character in Swift: split on newline Characters, not on "\n".
            var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let header = rawCells(Substring(lines.first ?? ""))
            let column = header.firstIndex { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "expect_error" }
            var out: [String] = []
            for (i, raw) in lines.enumerated() {
                let line = raw
                guard let column else {
                    out.append(line)
                    continue
                }
                var cells = rawCells(Substring(line))
                if column < cells.count {
                    let mark = cells[column].trimmingCharacters(in: .whitespaces)
                    if i > 0 && !mark.isEmpty { marks.append(Mark(file: name, line: i + 1, error: mark)) }
                    cells.remove(at: column)
                }
                out.append(cells.joined(separator: ","))
            }
            try (out.joined(separator: "\n") + "\n").write(
                to: feed.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return (feed, marks, wholeFile)
    }

    /// transitland error name (before any `:field`) → CityPack codes that express it.
    static let equivalents: [String: Set<String>] = [
        "ConditionallyRequiredFieldError": ["gtfs.missing_agency_id"],
        "DuplicateIDError": ["gtfs.duplicate_key"],
        "DuplicateKeyError": ["gtfs.duplicate_key"],
        "DuplicateServiceExceptionError": ["gtfs.duplicate_key"],
        "EmptyTripError": ["gtfs.unusable_trip", "gtfs.unused_trip"],
        "InvalidFarezoneError": ["gtfs.foreign_key_violation"],
        // transitland also calls a parent of the wrong location_type an invalid reference.
        "InvalidReferenceError": ["gtfs.foreign_key_violation", "gtfs.invalid_parent_station", "gtfs.dangling_parent_station"],
        "InvalidParentStationError": ["gtfs.invalid_parent_station"],
        "InvalidTimezoneError": ["csv.invalid_value"],
        "SequenceError": [
            "gtfs.arrival_before_previous_departure", "gtfs.missing_trip_edge", "gtfs.decreasing_stop_time_distance",
            "gtfs.decreasing_shape_distance", "gtfs.duplicate_shape_sequence", "gtfs.duplicate_stop_sequence",
        ],
        "FileRequiredError": ["gtfs.missing_required_file", "csv.empty_file", "csv.missing_header"],
        "FileDuplicateFieldError": ["csv.duplicated_column"],
    ]

    /// Codes acceptable for a mark such as `DuplicateIDError|EmptyTripError` or `SequenceError:arrival_time`.
    static func codes(for mark: String) -> Set<String> {
        mark.split(separator: "|").reduce(into: Set<String>()) { set, alternative in
            let name = alternative.split(separator: ":").first.map(String.init) ?? ""
            set.formUnion(equivalents[name] ?? [])
        }
    }

    static func hits(_ d: Diagnostic, file: String, line: Int?) -> Bool {
        let locations = [d.location] + d.notes.map(\.location)
        return locations.contains { loc in
            guard let loc else { return false }
            return loc.file == "feed/\(file)" && (line == nil || loc.line == line!)
        }
    }

    /// base is valid for transitland, which tolerates rows that only lack trailing cells or end in empty extra
    /// cells: no errors, and a `csv.trailing_cells` warning for each of its three such rows.
    @Test func baseHasNoErrors() throws {
        let layers = try #require(Self.layers)
        let diagnostics = try GTFSFixture.runPath(layers.appendingPathComponent("base").path, display: "feed")
        #expect(diagnostics.errors.isEmpty, "\(diagnostics.errors.summary)")
        let ragged = diagnostics.filter { $0.code == "csv.trailing_cells" }.map { $0.location?.description ?? "" }
        #expect(ragged == [
            "feed/attributions.txt:2:1", "feed/fare_products.txt:2:1", "feed/rider_categories.txt:2:1",
        ])
    }

    /// Rules that report a transitland error as a warning on purpose, since the pack stays right (issue 33).
    static let warningsByDesign: Set<String> = ["gtfs.dangling_parent_station"]

    /// Minimum agreement we achieve (cases where every marked row gets an error), out of 62.
    static let threshold = 58

    @Test func errorOverlaysAgree() throws {
        let layers = try #require(Self.layers)
        let errorsDir = layers.appendingPathComponent("errors")
        let cases = try FileManager.default.contentsOfDirectory(atPath: errorsDir.path).sorted()
        var matched = 0
        var unmatched: [String] = []
        for name in cases {
            let (feed, marks, wholeFile) = try Self.build(errorsDir.appendingPathComponent(name))
            defer { try? FileManager.default.removeItem(at: feed.deletingLastPathComponent()) }
            let all = try GTFSFixture.runPath(feed.path, display: "feed")
            // A dangling parent_station is a warning by default (the stop is kept, the link dropped): it still
            // answers the overlay's error, as `--werror` would make it one.
            let errors = all.filter { $0.severity == .error || Self.warningsByDesign.contains($0.code) }
            if ProcessInfo.processInfo.environment["GTFS_DUMP"] == name { print(all.summary) }
            let missedRows = marks.filter { m in
                !errors.contains { Self.codes(for: m.error).contains($0.code) && Self.hits($0, file: m.file, line: m.line) }
            }
            let missedFiles = wholeFile.filter { m in
                !errors.contains { Self.codes(for: m.error).contains($0.code) && Self.hits($0, file: m.file, line: nil) }
            }
            if missedRows.isEmpty && missedFiles.isEmpty && !(marks.isEmpty && wholeFile.isEmpty) {
                matched += 1
            } else {
                unmatched.append("\(name): missed \((missedRows + missedFiles).map(\.description).joined(separator: "; "))")
            }
        }
        print("validator-layers: \(matched) of \(cases.count) error cases matched")
        for u in unmatched { print("  unmatched \(u)") }
        #expect(cases.count == 62)
        #expect(matched >= Self.threshold)
    }
}
