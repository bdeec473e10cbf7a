import CCityPackSQLite
import CityPackCompiler
import CityPackDiagnostics
import CityPackFormat
import CityPackSQLite
import CityPackTestSupport
import Foundation
import Testing

/// The bundled city compiled end to end, compared with goldens in `Golden/monaco/`: the manifest (canonical JSON,
/// as written), a canonical text dump of every table of the pack (never the SQLite bytes), and the diagnostics.
/// `RECORD_GOLDENS=1 swift test --filter MonacoGoldenTests` rewrites them (and fails, so a recording is never
/// mistaken for a pass); review the diff before committing.
@Suite struct MonacoGoldenTests {
    static let golden = TestPaths.root.appendingPathComponent("Tests/CityPackCompilerTests/Golden/monaco")

    @Test func manifestPackAndDiagnosticsMatchTheGoldens() throws {
        let output = try TestPaths.temporaryDirectory("golden-monaco")
        defer { try? FileManager.default.removeItem(at: output) }
        var options = BuildOptions(
            cityPath: TestPaths.root.appendingPathComponent("inputs/monaco").path, outputDirectory: output.path,
            templatesDirectory: TestPaths.root.appendingPathComponent("templates").path, sourceDateEpoch: 1_780_272_000)
        options.buildDate = (2026, 6, 1)
        let bag = DiagnosticBag()
        let report = Compiler.build(options, bag: bag)
        #expect(!bag.hasErrors, "\(bag.diagnostics.filter { $0.severity == .error })")
        let emitted = try #require(report.emitted)
        let city = output.appendingPathComponent("monaco")
        // Source paths are as given (absolute here): shown relative to the repository, so the golden holds anywhere.
        let manifest = Data(try String(contentsOf: city.appendingPathComponent("manifest.json"), encoding: .utf8)
            .replacingOccurrences(of: TestPaths.root.path + "/", with: "").utf8)
        let pack = city.appendingPathComponent(emitted.manifest.artifact.path)
        let dump = try Self.dump(gzippedPack: pack)
        let diagnostics = bag.diagnostics.map {
            "\($0.severity.rawValue) \($0.code) \($0.location.map { "\($0.file.replacingOccurrences(of: TestPaths.root.path + "/", with: "")):\($0.line):\($0.column)" } ?? "-") \($0.message)"
        }.joined(separator: "\n") + "\n"
        try Self.compare("manifest.json", manifest)
        try Self.compare("pack.txt", Data(dump.utf8))
        try Self.compare("diagnostics.txt", Data(diagnostics.utf8))
    }

    static func compare(_ name: String, _ data: Data) throws {
        let url = golden.appendingPathComponent(name)
        if RecordMode.isOn(RecordMode.goldens) {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try data.write(to: url)
            RecordMode.recorded(name, by: RecordMode.goldens)
            return
        }
        let expected = try Data(contentsOf: url)
        if data != expected {
            let a = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let b = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            Issue.record("\(name) differs from its golden at line \(line + 1):\n got: \(line < a.count ? a[line] : "—")\nwant: \(line < b.count ? b[line] : "—")")
        }
    }

    /// Every table of the database (FTS5 shadow tables aside, the search table's tokens per row instead), rows in
    /// key order,
    /// one line each: `table: v1 | v2 | …`, reals with 7 decimals, blobs as hex.
    static func dump(gzippedPack: URL) throws -> String {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gunzip.arguments = ["-dc", gzippedPack.path]
        #expect(FileManager.default.createFile(atPath: database.path, contents: nil))
        gunzip.standardOutput = try FileHandle(forWritingTo: database)
        try gunzip.run()
        gunzip.waitUntilExit()
        #expect(gunzip.terminationStatus == 0)

        var db: OpaquePointer?
        guard sqlite3_open_v2(database.path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            throw CocoaError(.fileReadCorruptFile)
        }
        defer { sqlite3_close(db) }
        func rows(_ sql: String) -> [[String]] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [["error: \(sql)"]] }
            defer { sqlite3_finalize(statement) }
            var out: [[String]] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                out.append((0..<sqlite3_column_count(statement)).map { i in
                    switch sqlite3_column_type(statement, i) {
                    case SQLITE_NULL: return "∅"
                    case SQLITE_INTEGER: return String(sqlite3_column_int64(statement, i))
                    case SQLITE_FLOAT: return String(format: "%.7f", sqlite3_column_double(statement, i))
                    case SQLITE_BLOB:
                        let n = Int(sqlite3_column_bytes(statement, i))
                        guard n > 0, let p = sqlite3_column_blob(statement, i) else { return "x''" }
                        let bytes = UnsafeRawBufferPointer(start: p, count: n)
                        return "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
                    default: return String(cString: sqlite3_column_text(statement, i))
                    }
                })
            }
            return out
        }
        var text = "PRAGMA application_id = \(rows("PRAGMA application_id")[0][0]); user_version = \(rows("PRAGMA user_version")[0][0])\n"
        let tables = rows("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
        let shadows = Set(tables.compactMap { t in t[1].contains("VIRTUAL TABLE") ? t[0] : nil }.flatMap { name in
            ["_data", "_idx", "_content", "_docsize", "_config"].map { name + $0 }
        })
        for table in tables where !shadows.contains(table[0]) {
            text += "\n## \(table[1])\n"
            guard table[1].hasPrefix("CREATE TABLE") || table[1].hasPrefix("CREATE VIRTUAL TABLE") else { continue }
            let name = table[0]
            if table[1].hasPrefix("CREATE VIRTUAL TABLE") {
                // A contentless FTS5 table stores no text: dump what it indexed, the tokens of each row and column
                // in order (fts5vocab over the index), with the row count.
                _ = rows("CREATE VIRTUAL TABLE temp.\(name)_vocab USING fts5vocab(main, \(name), instance)")
                let count = rows("SELECT count(*) FROM \"\(name)_docsize\"")[0][0]
                text += "\(count) rows (tokens per rowid and column)\n"
                let sql = """
                    SELECT doc, col, group_concat(term, ' ') FROM
                      (SELECT doc, col, term FROM temp.\(name)_vocab ORDER BY doc, col, offset) GROUP BY doc, col ORDER BY doc, col
                    """
                for row in rows(sql) { text += "\(name): " + row.joined(separator: " | ") + "\n" }
                continue
            }
            let count = rows("SELECT count(*) FROM \"\(name)\"")[0][0]
            let columns = rows("SELECT count(*) FROM pragma_table_info('\(name)')")[0][0]
            let order = (1...max(Int(columns) ?? 1, 1)).map(String.init).joined(separator: ", ")
            text += "\(count) rows\n"
            for row in rows("SELECT * FROM \"\(name)\" ORDER BY \(order)") {
                text += "\(name): " + row.joined(separator: " | ") + "\n"
            }
        }
        // The index readers build from the rows (format 5 on, ``SearchIndex``), dumped as the pack's own was.
        let derived = try SQLiteDatabase<GoldenFailure>(path: database.path, mode: .readOnly)
        defer { derived.close() }
        let count = try SearchIndex.build(in: derived)
        try derived.exec("CREATE VIRTUAL TABLE temp.search_vocab USING fts5vocab(temp, search, instance)")
        text += "\n## derived: \(PackSchema.Search.create(schema: SearchIndex.schema))\n\(count) rows (tokens per rowid and column)\n"
        let tokens = try derived.prepare("""
            SELECT doc, col, group_concat(term, ' ') FROM
              (SELECT doc, col, term FROM temp.search_vocab ORDER BY doc, col, offset) GROUP BY doc, col ORDER BY doc, col
            """)
        while try tokens.step() { text += "search: \(tokens.int64(0)) | \(tokens.text(1) ?? "") | \(tokens.text(2) ?? "")\n" }
        return text
    }
}

/// The SQLite wrapper's failure for the golden dump.
struct GoldenFailure: SQLiteFailure, CustomStringConvertible {
    var error: SQLiteError
    init(_ error: SQLiteError) { self.error = error }
    var description: String { "\(error)" }
}
