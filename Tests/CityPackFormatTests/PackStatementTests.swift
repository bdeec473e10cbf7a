import CityPackSQLite
import CityPackTestSupport
import Foundation
import Testing

// @testable: PackStatement, ColumnValue and missingColumns are package-level; the tests use them directly.
@testable import CityPackFormat

/// Binding and reading by column (``PackStatement``), the column types, NULL for columns an older pack lacks, and
/// the one-alias-per-table rule.
@Suite struct PackStatementTests {
    typealias P = PackSchema.POI
    typealias ST = PackSchema.Stop

    static func database() throws -> (SQLiteDatabase<SchemaFailure>, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pack-statement-\(UUID().uuidString).sqlite").path
        let db = try SQLiteDatabase<SchemaFailure>(path: path, mode: .readWriteCreate)
        for statement in PackSchema.createStatements { try db.exec(statement) }
        return (db, path)
    }

    /// Values bound by column in any order come back by column from a SELECT of another order, every type
    /// included: NULL, stored degrees (integer × 10⁷ when exact, else REAL) and category codes or ids.
    @Test func bindAndReadByColumnWhateverTheOrder() throws {
        let (db, path) = try Self.database()
        defer { db.close(); try? FileManager.default.removeItem(atPath: path) }
        let insert = try db.prepare(P.inserting())
        for (id, lat, category, name) in [(Int64(4), 43.7384, PackSchema.CategoryValue.code(2), "WC" as String?),
                                          (8, 0.123456789012, .id("bench"), nil)] {
            insert.bind(P.tags, "")
            insert.bind(P.name, name)
            insert.bind(P.category, category)
            insert.bind(P.lon, PackSchema.StoredDegrees(7.4246))
            insert.bind(P.lat, PackSchema.StoredDegrees(lat))
            insert.bind(P.id, id)
            try insert.run()
        }
        let rows = try db.prepare(P.select([P.name, P.category, P.lat, P.id, P.lon], orderBy: [P.id]))
        #expect(try rows.step())
        #expect(rows[P.id] == 4 && rows[P.name] == "WC" && rows[P.category] == .code(2))
        #expect(rows[P.lat].degrees == 43.7384 && rows[P.lon].degrees == 7.4246)
        #expect(try rows.step())
        #expect(rows[P.id] == 8 && rows[P.name] == nil && rows.isNull(P.name) && rows[P.category] == .id("bench"))
        #expect(rows[P.lat].degrees == 0.123456789012)
        #expect(try !rows.step())
        let kinds = try db.prepare("SELECT typeof(lat) FROM poi ORDER BY id")
        var stored: [String] = []
        while try kinds.step() { stored.append(kinds.text(0) ?? "") }
        #expect(stored == ["integer", "real"])
        #expect(PackSchema.CategoryValue.code(1).id(codes: ["a", "b"]) == "b")
        #expect(PackSchema.CategoryValue.code(9).id(codes: ["a"]) == "9")
    }

    /// `select(…, absent:)` reads a column the pack lacks as NULL, and `missingColumns` finds such columns.
    @Test func columnsAnOlderPackLacksReadAsNull() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pack-old-\(UUID().uuidString).sqlite").path
        let db = try SQLiteDatabase<SchemaFailure>(path: path, mode: .readWriteCreate)
        defer { db.close(); try? FileManager.default.removeItem(atPath: path) }
        try db.exec("CREATE TABLE stop(id INTEGER PRIMARY KEY, feed, stop_id, name, lat, lon, cell, location_type, parent)")
        try db.exec("INSERT INTO stop VALUES (3, 0, 'S', 'Stop', NULL, NULL, NULL, 0, NULL)")
        let missing = try ST.missingColumns(in: db)
        #expect(missing.map(\.name) == [ST.wheelchair.name])
        let rows = try db.prepare(ST.select([ST.id, ST.wheelchair, ST.lat], absent: missing))
        #expect(try rows.step())
        #expect(rows[ST.id] == 3 && rows[ST.wheelchair] == nil && rows[ST.lat] == nil)
    }

    /// A NULL reads as nil through every optional column type (issue 40: a read that skipped the NULL check gave 0
    /// for a missing coordinate and passed). The types checked here must cover every optional type the schema
    /// declares, so a new one cannot be left out; each is read through the generic subscript and, where one
    /// exists, the concrete one overload resolution picks.
    @Test func nullReadsAsNilForEveryOptionalColumnType() throws {
        let (db, path) = try Self.database()
        defer { db.close(); try? FileManager.default.removeItem(atPath: path) }
        typealias C = PackSchema.Column
        let text = C<String?>("t"), int64 = C<Int64?>("i64"), int = C<Int?>("i"), real = C<Double?>("r"),
            flag = C<Bool?>("b"), blob = C<[UInt8]?>("x"), degrees = C<PackSchema.StoredDegrees?>("g"),
            category = C<PackSchema.CategoryValue?>("c")
        let columns: [any PackSchema.AnyColumn] = [text, int64, int, real, flag, blob, degrees, category]
        let checked = Set(columns.map { "\(type(of: $0))" })
        let declared = Set(PackSchema.tables.flatMap { $0.columns }.map { "\(type(of: $0))" }.filter { $0.contains("Optional<") })
        #expect(declared.count >= 3, "\(declared)")
        #expect(declared.isSubset(of: checked), "optional column types without a NULL read here: \(declared.subtracting(checked).sorted())")

        for row in ["NULL", "1"] {
            let list = columns.map { "\(row) AS \($0.name)" }.joined(separator: ", ")
            let rows = try db.prepare(PackSchema.Query("SELECT \(list)", results: columns, parameters: []))
            #expect(try rows.step())
            if row == "NULL" {
                #expect(rows[text] == nil && rows[int64] == nil && rows[int] == nil && rows[real] == nil)
                #expect(rows[flag] == nil && rows[blob] == nil && rows[degrees] == nil && rows[category] == nil)
                func generic<V: ColumnValue>(_ column: C<V>) -> V { rows[column] }
                #expect(generic(text) == nil && generic(int64) == nil)
            } else {
                // The same reads give values when the column holds one (a nil for everything would pass above).
                #expect(rows[text] == "1" && rows[int64] == 1 && rows[int] == 1 && rows[real] == 1)
                #expect(rows[flag] == true && rows[degrees] != nil && rows[category] == .code(1))
            }
        }
    }

    /// Every table has its own alias, every column its own slot, and every Swift typealias of a table namespace in
    /// the sources is the table's alias upper-cased (`typealias ST = PackSchema.Stop`), so a letter means one table.
    @Test func oneAliasPerTable() throws {
        let aliases = PackSchema.tables.map { $0.alias }
        #expect(Set(aliases).count == aliases.count, "\(aliases)")
        let slots = PackSchema.tables.flatMap { table in table.columns.map { $0.slot } }
        #expect(Set(slots).count == slots.count)
        let byName = Dictionary(uniqueKeysWithValues: PackSchema.tables.map { (String(describing: $0), $0.alias) })
        let sources = TestPaths.root.appendingPathComponent("Sources").path
        let pattern = try NSRegularExpression(pattern: #"typealias (\w+) = PackSchema\.(\w+)\b"#)
        var wrong: [String] = []
        var checked = 0
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources).filter { $0.hasSuffix(".swift") }
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8) as NSString
            for match in pattern.matches(in: text as String, range: NSRange(location: 0, length: text.length)) {
                let name = text.substring(with: match.range(at: 1))
                let table = text.substring(with: match.range(at: 2))
                guard let alias = byName[table] else { continue }
                checked += 1
                if name != alias.uppercased() { wrong.append("\(file): typealias \(name) = PackSchema.\(table) (alias \(alias))") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(checked > 20)
    }
}
