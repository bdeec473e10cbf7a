import CityPackCompiler
import CityPackDiagnostics
import Foundation
import Testing

/// The locate-fields stage: CSV field columns looked up from the header and the row's line.
@Suite struct FieldColumnsTests {
    @Test func splitsQuotedFields() {
        let cells = FieldColumns.fields(Array("a,\"b,\"\"c\"\"\",,d".utf8))
        #expect(cells.map(\.text) == ["a", "b,\"c\"", "", "d"])
        #expect(cells.map(\.start) == [0, 2, 12, 13])
    }

    @Test func fillsTheColumnOfANamedField() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("csvcol-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("stop_times.txt").path
        try Data("\u{FEFF}trip_id,arrival_time,\"departure_time\"\nT1,08:00:00,08:01:00\n\"T,2\",09:00:00,09:01:00\n".utf8).write(to: URL(fileURLWithPath: file))
        let d = Diagnostic(
            .error, code: "gtfs.x", message: "m", at: SourceLocation(file: file, line: 3, column: 1, field: "departure_time"),
            notes: [.init("n", at: SourceLocation(file: file, line: 2, column: 1, field: "arrival_time")),
                .init("unknown field", at: SourceLocation(file: file, line: 2, column: 1, field: "nope"))])
        let precise = Diagnostic(.error, code: "csv.x", message: "m", at: SourceLocation(file: file, line: 2, column: 5, field: "trip_id"))
        let columns = FieldColumns.resolve(for: [d, precise])
        #expect(columns.count == 2, "departure_time on line 3 and arrival_time on line 2; nope is not in the header")
        let out = columns.apply(to: [d, precise])
        #expect(out[0].location?.column == 16)
        #expect(out[0].notes.map { $0.location?.column } == [4, 1])
        #expect(out[1].location?.column == 5, "a column the scanner gave is kept")
    }

    @Test func unreadableFilesKeepColumnOne() {
        let d = Diagnostic(
            .warning, code: "gtfs.x", message: "m",
            at: SourceLocation(file: "/nonexistent/feed.zip/stops.txt", line: 2, column: 1, field: "stop_lat"))
        let columns = FieldColumns.resolve(for: [d])
        #expect(columns.count == 0)
        #expect(columns.apply(to: [d]) == [d])
    }
}
