import CCityPackSQLite
import CityPackFormat
import CityPackKit
import Foundation
import Testing

/// Packs of format 1 (before issue 15) stay readable: an app updated to this reader keeps its installed packs, and
/// `citypack diff` compares a kept format-1 release with a format-2 one. Same answers from both layouts.
@Suite struct Format1PackTests {
    /// The format-1 tables readers touch, as format 1 created them; the other tables are unchanged.
    static let format1Statements = [
        "CREATE TABLE poi(id INTEGER PRIMARY KEY, osm TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, cell INTEGER NOT NULL, category TEXT NOT NULL, name TEXT, tags TEXT NOT NULL)",
        "CREATE TABLE poi_bucket(cell INTEGER NOT NULL, poi INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, PRIMARY KEY(cell, poi)) WITHOUT ROWID",
        "CREATE VIRTUAL TABLE search USING fts5(name, terms, tokenize = 'unicode61 remove_diacritics 2')",
    ]

    /// Writes `pois` as a format-1 pack.
    static func writeFormat1(_ pois: [TestPOI], to url: URL) throws {
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw TestPack.Failure(description: "open") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String, _ values: [Any?] = []) throws {
            var stmt: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
                throw TestPack.Failure(description: String(cString: sqlite3_errmsg(db)))
            }
            defer { sqlite3_finalize(stmt) }
            for (i, v) in values.enumerated() {
                switch v {
                case let x as Int64: sqlite3_bind_int64(stmt, Int32(i + 1), x)
                case let x as Double: sqlite3_bind_double(stmt, Int32(i + 1), x)
                case let x as String: sqlite3_bind_text(stmt, Int32(i + 1), x, -1, citypack_sqlite_transient())
                default: sqlite3_bind_null(stmt, Int32(i + 1))
                }
            }
            guard sqlite3_step(stmt) == SQLITE_DONE else { throw TestPack.Failure(description: String(cString: sqlite3_errmsg(db))) }
        }
        try exec("PRAGMA application_id = \(PackSchema.applicationID)")
        try exec("PRAGMA user_version = 1")
        let replaced = ["CREATE TABLE poi(", "CREATE VIRTUAL TABLE search "]
        for statement in PackSchema.createStatements where !replaced.contains(where: { statement.hasPrefix($0) }) {
            try exec(statement)
        }
        for statement in format1Statements { try exec(statement) }
        for (k, v) in [("format_version", "1"), ("data_version", "7"), ("city_id", "testville"), ("default_locale", "en")] {
            try exec("INSERT INTO meta(key, value) VALUES (?, ?)", [k, v])
        }
        for p in pois {
            let cell = Geohash.cell(lat: p.lat, lon: p.lon, precision: PackSchema.bucketPrecision)
            let tags = String(decoding: try JSONEncoder.sorted.encode(p.tags), as: UTF8.self)
            try exec(
                "INSERT INTO poi(id, osm, lat, lon, cell, category, name, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [p.id, p.osm, p.lat, p.lon, cell, p.category, p.name, tags])
            for (locale, name) in p.names.sorted(by: { $0.key < $1.key }) {
                try exec("INSERT INTO poi_name(poi, locale, name) VALUES (?, ?, ?)", [p.id, locale, name])
            }
            try exec("INSERT INTO poi_bucket(cell, poi, lat, lon) VALUES (?, ?, ?, ?)", [cell, p.id, p.lat, p.lon])
            let allNames = ([p.name].compactMap { $0 } + p.names.sorted(by: { $0.key < $1.key }).map(\.value))
                .joined(separator: " ")
            let terms = ([p.category] + (TestPack.synonyms[p.category] ?? [])).joined(separator: " ")
            try exec("INSERT INTO search(rowid, name, terms) VALUES (?, ?, ?)", [p.id, allNames, terms])
        }
    }

    @Test func aFormat1PackAnswersAsItsFormat2Twin() throws {
        let dir = try TestPack.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pois = namedPOIs + randomPOIs(count: 300, lat: 48.21, lon: 16.37, seed: 15)
        let old = dir.appendingPathComponent("v1.sqlite")
        try Self.writeFormat1(pois, to: old)
        let new = try TestPack.writeDatabase(pois, to: dir.appendingPathComponent("v2.sqlite"))
        let v1 = try PackReader.open(old)
        let v2 = try PackReader.open(new)
        defer {
            v1.close()
            v2.close()
        }
        #expect(v1.formatVersion == 1 && v2.formatVersion == PackSchema.formatVersion)
        for term in ["cafe", "caf", "toilet", "wc", "Apotheke", "Landtmann", "central", "pharm", "k"] {
            let a = try v1.search(term, limit: 100), b = try v2.search(term, limit: 100)
            #expect(a == b, "search \(term) v1=\(a.map { "\($0.id) \($0.category) \($0.named)" }) v2=\(b.map { "\($0.id) \($0.category) \($0.named)" })")
        }
        for k in 0..<40 {
            let lat = 48.20 + Double(k) * 0.0005
            let lon = 16.36 + Double(k % 7) * 0.002
            #expect(try v1.nearby(lat: lat, lon: lon, radius: 300) == v2.nearby(lat: lat, lon: lon, radius: 300))
        }
        #expect(try v1.allPOIs() == v2.allPOIs())
        #expect(try PackDiff.between(v1, v2).isEmpty)
    }
}
