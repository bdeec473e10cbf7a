import CCityPackSQLite
import CityPackFormat
import CityPackKit
import CityPackStorage
import CityPackSupport
import Foundation

/// A POI as the test writes it into a pack.
struct TestPOI {
    var id: Int64
    var lat: Double
    var lon: Double
    var category: String = "cafe"
    var name: String? = nil
    var names: [String: String] = [:]
    var tags: [String: String] = [:]
    var osm: String { "n\(id / 4)" }
}

/// Writes packs with raw SQL following ``PackSchema`` (no CityPackEmit), and gzips them with zlib.
enum TestPack {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Category synonyms written into the `terms` column.
    static let synonyms: [String: [String]] = [
        "toilet": ["toilet", "wc", "restroom", "Toilette", "vessa"],
        "cafe": ["cafe", "coffee", "Kaffee"],
        "pharmacy": ["pharmacy", "Apotheke"],
    ]

    /// A fresh temporary directory for one test.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("citypackkit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a SQLite pack.
    /// - Parameters:
    ///   - applicationID: `PRAGMA application_id` to set (default the pack's).
    ///   - userVersion: `PRAGMA user_version` to set (default the format version).
    @discardableResult
    static func writeDatabase(
        _ pois: [TestPOI], to url: URL, applicationID: Int32 = PackSchema.applicationID,
        userVersion: Int32 = PackSchema.formatVersion
    ) throws -> URL {
        try? FileManager.default.removeItem(at: url)
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw Failure(description: "open failed") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String) throws {
            var err: UnsafeMutablePointer<CChar>?
            if sqlite3_exec(db, sql, nil, nil, &err) != SQLITE_OK {
                let message = err.map { String(cString: $0) } ?? "?"
                sqlite3_free(err)
                throw Failure(description: "\(message) in \(sql)")
            }
        }
        func insert(_ sql: String, _ values: [Any?]) throws {
            var stmt: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
                throw Failure(description: String(cString: sqlite3_errmsg(db)))
            }
            defer { sqlite3_finalize(stmt) }
            for (i, v) in values.enumerated() {
                let index = Int32(i + 1)
                switch v {
                case let x as Int64: sqlite3_bind_int64(stmt, index, x)
                case let x as Int: sqlite3_bind_int64(stmt, index, Int64(x))
                case let x as Double: sqlite3_bind_double(stmt, index, x)
                case let x as String: sqlite3_bind_text(stmt, index, x, -1, citypack_sqlite_transient())
                default: sqlite3_bind_null(stmt, index)
                }
            }
            guard sqlite3_step(stmt) == SQLITE_DONE else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
        }

        try exec("PRAGMA application_id = \(applicationID)")
        try exec("PRAGMA user_version = \(userVersion)")
        try exec("BEGIN")
        for statement in PackSchema.createStatements { try exec(statement) }
        let meta: [(String, String)] = [
            (PackSchema.MetaKey.formatVersion, "\(PackSchema.formatVersion)"),
            (PackSchema.MetaKey.dataVersion, "7"),
            (PackSchema.MetaKey.cityID, "testville"),
            (PackSchema.MetaKey.cityName, "Testville"),
            (PackSchema.MetaKey.defaultLocale, "en"),
            (PackSchema.MetaKey.locales, "en,de,fr"),
            (PackSchema.MetaKey.createdAt, "2026-01-02T03:04:05Z"),
            (PackSchema.MetaKey.attribution, "© OpenStreetMap contributors"),
            (PackSchema.MetaKey.poiCount, "\(pois.count)"),
        ]
        for (k, v) in meta { try insert(PackSchema.Meta.insert(), [k, v]) }
        for (category, priority) in [("toilet", 1), ("cafe", 2), ("pharmacy", 3)] {
            try insert(PackSchema.Category.insert(), [category, priority, category])
        }
        for p in pois {
            let tags = String(decoding: try JSONEncoder.sorted.encode(p.tags), as: UTF8.self)
            // Coordinates as the writer stores them: integer degrees × 10⁷ when exact, else REAL.
            let lat: Any = PackSchema.storedDegrees(p.lat) ?? p.lat
            let lon: Any = PackSchema.storedDegrees(p.lon) ?? p.lon
            try insert(PackSchema.POI.insert(), [p.id, lat, lon, p.category, p.name, tags])
            for (locale, name) in p.names.sorted(by: { $0.key < $1.key }) {
                try insert(PackSchema.POIName.insert(), [p.id, locale, name])
            }
        }
        // From format 5 readers build `search` from the rows and meta `search_terms`; older packs carry it, its
        // rowids ranks in PackSchema.searchIDsQuery's order: by category, then id.
        if userVersion >= 5 {
            let terms = Dictionary(uniqueKeysWithValues: Set(pois.map(\.category)).map { c in
                (c, ([c] + (synonyms[c] ?? [])).joined(separator: " "))
            })
            try insert(PackSchema.Meta.insert(), [PackSchema.MetaKey.searchTerms, PackSchema.SearchTerms.encode(terms)])
            try exec("COMMIT")
            return url
        }
        try exec(PackSchema.Search.create)
        for (rank, p) in pois.sorted(by: { ($0.category, $0.id) < ($1.category, $1.id) }).enumerated() {
            let allNames = ([p.name].compactMap { $0 } + p.names.sorted(by: { $0.key < $1.key }).map(\.value))
                .joined(separator: " ")
            let terms = ([p.category] + (synonyms[p.category] ?? [])).joined(separator: " ")
            try insert(PackSchema.Search.insertRanked, [Int64(rank + 1), allNames, terms])
        }
        try exec("COMMIT")
        return url
    }

    /// Gzips a file (RFC 1952, no name or time in the header) with zlib, at level 6.
    @discardableResult
    static func gzip(_ source: URL, to destination: URL) throws -> URL {
        let input = [UInt8](try Data(contentsOf: source))
        let output = try ZlibStream.deflated(input, into: .gzip, level: 6)
        try Data(output).write(to: destination)
        return destination
    }

    /// A manifest whose artifact describes the given compressed and decompressed files.
    static func manifest(compressed: URL, database: URL, path: String) throws -> Manifest {
        let artifact = Manifest.Artifact(
            path: path, bytes: try size(compressed), sha256: try FileDigest(path: compressed.path).sha256,
            uncompressedBytes: try size(database), uncompressedSha256: try FileDigest(path: database.path).sha256)
        return Manifest(
            formatVersion: Int(PackSchema.formatVersion), dataVersion: 7, minReaderVersion: 1,
            createdAt: "2026-01-02T03:04:05Z", generator: "tests",
            city: .init(id: "testville", name: "Testville", names: [:], defaultLocale: "en", locales: ["en"]),
            bbox: [0, 0, 1, 1], counts: .init(pois: 0, categories: [:]), artifact: artifact,
            etag: "\"\(artifact.sha256.prefix(16))\"", contentSha256: artifact.uncompressedSha256, sources: [],
            attribution: "© OpenStreetMap contributors")
    }

    static func size(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? -1
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }
}

extension TestPack {
    /// Replaces one POI's `tags` text, to test how the reader treats malformed rows.
    static func overwriteTags(of id: Int64, with text: String, in url: URL) throws {
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw Failure(description: "open failed") }
        defer { sqlite3_close(db) }
        let escaped = text.replacingOccurrences(of: "'", with: "''")
        typealias P = PackSchema.POI
        guard sqlite3_exec(db, "UPDATE \(P.table) SET \(P.tags) = '\(escaped)' WHERE \(P.id) = \(id)", nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }
}
