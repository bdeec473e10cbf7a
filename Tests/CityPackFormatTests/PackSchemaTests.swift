import CityPackFormat
import CityPackSQLite
import CityPackStorage
import Foundation
import Testing

/// Format 3's compact columns: tags and category codes, and reading the older JSON form; the table namespaces
/// (columns, CREATE statements, shared queries) against the format's CREATE text and against SQLite.
struct PackSchemaTests {
    @Test func compactTagsRoundTrip() throws {
        let tags = ["wheelchair": "yes", "addr:street": "Städtle", "opening_hours": "Mo-Fr 08:00-12:00; Sa off", "a=b": "{x}"]
        let text = try #require(PackSchema.encodeTags(tags))
        #expect(text == "a=b\u{1F}{x}\u{1E}addr:street\u{1F}Städtle\u{1E}opening_hours\u{1F}Mo-Fr 08:00-12:00; Sa off\u{1E}wheelchair\u{1F}yes")
        #expect(PackSchema.decodeTags(text) == tags)
        #expect(PackSchema.encodeTags([:]) == "")
        #expect(PackSchema.decodeTags("") == [:])
        #expect(PackSchema.decodeTags("k\u{1F}") == ["k": ""])
    }

    @Test func separatorsInValuesFallBackToJSON() {
        #expect(PackSchema.encodeTags(["note": "a\u{1E}b"]) == nil)
        #expect(PackSchema.decodeTags(#"{"note":"a\u001eb"}"#) == ["note": "a\u{1E}b"])
    }

    @Test func malformedTagsAreNil() {
        #expect(PackSchema.decodeTags("[1, 2]") == nil)
        #expect(PackSchema.decodeTags("k\u{1F}v\u{1E}orphan") == nil)
        #expect(PackSchema.decodeTags(#"{"k": 1}"#) == nil)
    }

    @Test func categoryCodesFollowBinaryOrder() {
        #expect(PackSchema.categoryCodes(["toilet", "atm", "bus_stop", "bank"]) == ["atm": 0, "bank": 1, "bus_stop": 2, "toilet": 3])
    }

    /// The CREATE text of format 3, verbatim: SQLite stores it in `sqlite_master`, so it is part of every pack's
    /// bytes and the statements built from the table namespaces must spell it exactly.
    static let format3CreateText: [String] = [
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE category(id TEXT PRIMARY KEY, priority INTEGER NOT NULL, label TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE category_label(category TEXT NOT NULL, locale TEXT NOT NULL, label TEXT NOT NULL, PRIMARY KEY(category, locale)) WITHOUT ROWID",
        "CREATE TABLE poi(id INTEGER PRIMARY KEY, lat NOT NULL, lon NOT NULL, category NOT NULL, name TEXT, tags TEXT NOT NULL, wheelchair TEXT, hours TEXT)",
        "CREATE TABLE poi_name(poi INTEGER NOT NULL, locale TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY(poi, locale)) WITHOUT ROWID",
        "CREATE TABLE poi_category(poi INTEGER NOT NULL, category NOT NULL, PRIMARY KEY(poi, category)) WITHOUT ROWID",
        "CREATE TABLE stop(id INTEGER PRIMARY KEY, feed INTEGER NOT NULL, stop_id TEXT NOT NULL, name TEXT, lat REAL, lon REAL, cell INTEGER, location_type INTEGER NOT NULL, parent INTEGER, wheelchair INTEGER)",
        "CREATE INDEX stop_by_stop_id ON stop(stop_id, feed)",
        "CREATE INDEX stop_by_parent ON stop(parent)",
        "CREATE TABLE stop_bucket(cell INTEGER NOT NULL, stop INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, PRIMARY KEY(cell, stop)) WITHOUT ROWID",
        "CREATE TABLE line(id INTEGER PRIMARY KEY, feed INTEGER NOT NULL, route_id TEXT NOT NULL, agency TEXT, short_name TEXT, long_name TEXT, type INTEGER NOT NULL, colour TEXT, text_colour TEXT)",
        "CREATE TABLE service(id INTEGER PRIMARY KEY, feed INTEGER NOT NULL, service_id TEXT NOT NULL, start_date INTEGER, end_date INTEGER, days INTEGER)",
        "CREATE TABLE service_date(service INTEGER NOT NULL, date INTEGER NOT NULL, type INTEGER NOT NULL, PRIMARY KEY(service, date)) WITHOUT ROWID",
        "CREATE TABLE trip(id INTEGER PRIMARY KEY, trip_id TEXT NOT NULL, line INTEGER NOT NULL, service INTEGER NOT NULL, headsign TEXT, direction INTEGER, wheelchair INTEGER)",
        "CREATE TABLE pattern(id INTEGER PRIMARY KEY, flags INTEGER NOT NULL, stops BLOB NOT NULL, trips BLOB NOT NULL, times BLOB NOT NULL)",
        "CREATE TABLE frequency(trip INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, headway INTEGER NOT NULL, exact_times INTEGER NOT NULL, PRIMARY KEY(trip, start)) WITHOUT ROWID",
        "CREATE TABLE footpath(from_stop INTEGER NOT NULL, to_stop INTEGER NOT NULL, metres INTEGER NOT NULL, seconds INTEGER, PRIMARY KEY(from_stop, to_stop)) WITHOUT ROWID",
        "CREATE TABLE card(id TEXT PRIMARY KEY, position INTEGER NOT NULL, icon TEXT, home INTEGER NOT NULL, title TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE situation(id TEXT PRIMARY KEY, card TEXT NOT NULL, position INTEGER NOT NULL, title TEXT NOT NULL, body TEXT) WITHOUT ROWID",
        "CREATE INDEX situation_by_card ON situation(card, position)",
        "CREATE TABLE action(id TEXT PRIMARY KEY, situation TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL, target TEXT, label TEXT NOT NULL, text TEXT) WITHOUT ROWID",
        "CREATE INDEX action_by_situation ON action(situation, position)",
        "CREATE TABLE route(id TEXT PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL, description TEXT, length_m REAL NOT NULL, min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL) WITHOUT ROWID",
        "CREATE TABLE route_waypoint(route TEXT NOT NULL, sequence INTEGER NOT NULL, poi INTEGER, lat REAL NOT NULL, lon REAL NOT NULL, radius REAL NOT NULL, name TEXT, PRIMARY KEY(route, sequence)) WITHOUT ROWID",
        "CREATE TABLE string(key TEXT NOT NULL, locale TEXT NOT NULL, form TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(key, locale, form)) WITHOUT ROWID",
    ]

    @Test func createStatementsSpellFormat3Exactly() {
        // Format 5 without `search`, which readers build (`SearchIndex`), in formats 1–4 spelled as here.
        #expect(PackSchema.createStatements == Self.format3CreateText)
        #expect(PackSchema.Search.create == "CREATE VIRTUAL TABLE search USING fts5(name, terms, content = '', tokenize = 'unicode61 remove_diacritics 2')")
        #expect(PackSchema.Search.create(schema: "temp") == "CREATE VIRTUAL TABLE temp.search USING fts5(name, terms, content = '', tokenize = 'unicode61 remove_diacritics 2')")
    }

    @Test func everyColumnIsInItsCreateStatement() {
        var tableNames: Set<String> = []
        for table in PackSchema.tables {
            #expect(tableNames.insert(table.table).inserted, "\(table.table) listed twice")
            #expect(
                table.create.hasPrefix("CREATE TABLE \(table.table)(") || table.create.hasPrefix("CREATE VIRTUAL TABLE \(table.table) "),
                "\(table.create)")
            #expect(Set(table.columns.map(\.name)).count == table.columns.count, "\(table.table): duplicate column")
            for column in table.columns {
                #expect(table.create.contains("(\(column.definition),") || table.create.contains(" \(column.definition),")
                    || table.create.contains(" \(column.definition))"), "\(table.table).\(column.name) not in \(table.create)")
            }
            for index in table.indexes {
                #expect(index.columns.allSatisfy { c in table.columns.contains { $0.slot == c.slot } }, "\(index.name)")
            }
        }
    }

    @Test func insertNamesEveryColumnInOrder() {
        #expect(PackSchema.Meta.insert() == "INSERT INTO meta(key, value) VALUES (?, ?)")
        #expect(PackSchema.Frequency.insert(or: .ignore)
            == "INSERT OR IGNORE INTO frequency(trip, start, end, headway, exact_times) VALUES (?, ?, ?, ?, ?)")
        #expect(PackSchema.ServiceDate.insert(or: .replace) == "INSERT OR REPLACE INTO service_date(service, date, type) VALUES (?, ?, ?)")
    }

    /// SQLite's own view of a schema made from ``PackSchema/createStatements``: each table's and index's stored
    /// text is its statement, each table's columns are the namespace's in order, and the shared queries prepare.
    @Test func sqliteMasterMatchesTheNamespaces() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("pack-schema-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try SQLiteDatabase<SchemaFailure>(path: path, mode: .readWriteCreate)
        defer { db.close() }
        for statement in PackSchema.createStatements { try db.exec(statement) }
        try db.exec(PackSchema.Search.create(schema: "temp"))

        let stored = try db.prepare("SELECT name, sql FROM sqlite_master WHERE name = ?1")
        func storedSQL(_ name: String) throws -> String? {
            stored.reset()
            stored.bind(1, name)
            defer { stored.reset() }
            return try stored.step() ? stored.text(1) : nil
        }
        for table in PackSchema.tables {
            #expect(try storedSQL(table.table) == table.create)
            for (index, create) in zip(table.indexes, table.createIndexes) { #expect(try storedSQL(index.name) == create) }
            let info = try db.prepare("SELECT name FROM pragma_table_info('\(table.table)') ORDER BY cid")
            var names: [String] = []
            while try info.step() { names.append(info.text(0) ?? "") }
            #expect(names == table.columns.map(\.name), "\(table.table)")
            _ = try db.prepare(table.insert())
        }
        let queries = [
            PackSchema.searchIDsQuery, PackSchema.categoryCodesQuery, PackSchema.Meta.selectAll, PackSchema.Meta.valueQuery,
            PackSchema.POI.pointsQuery, PackSchema.StopBucket.pointsQuery, PackSchema.Search.matchQuery,
            PackSchema.Search.insertRanked, PackSchema.Search.optimize, PackSchema.tableCountQuery,
            "SELECT \(PackSchema.categorySQL("p")) FROM \(PackSchema.POI.table) p \(PackSchema.categoryJoinSQL("p"))",
        ]
        for sql in queries { _ = try db.prepare(sql) }
    }
}

/// The SQLite wrapper's failure for these tests.
struct SchemaFailure: SQLiteFailure, CustomStringConvertible {
    var error: SQLiteError
    init(_ error: SQLiteError) { self.error = error }
    var description: String { "\(error)" }
}
