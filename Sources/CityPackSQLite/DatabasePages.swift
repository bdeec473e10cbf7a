import CCityPackSQLite
import CityPackStorage
import CityPackSupport
import Foundation

/// Where a SQLite database's bytes go, per table and index (FTS5 shadow tables separately): the pages each
/// occupies, the bytes of row data in them and what its pages alone gzip to (level 6), from SQLite's `dbstat`
/// virtual table. CityPackFormat's `PackSizes` holds the result for a pack (`init(_:)` takes this tuple), so the
/// format module itself links neither SQLite nor zlib.
package enum DatabasePages {
    /// The page size, the file's size and one entry per table or index, in no particular order.
    package typealias Measurement = (
        pageSize: Int, databaseBytes: Int, objects: [(name: String, pages: Int, bytes: Int, payload: Int, gzipBytes: Int)]
    )

    /// Measures a database file, failing with the caller's module error.
    /// - Parameters:
    ///   - databasePath: The SQLite file.
    ///   - known: Compressed sizes already measured, by the SHA-256 of an object's pages (the build cache keeps
    ///     the last build's, so an editorial edit compresses only the objects whose pages changed).
    ///   - measured: Called with every object's pages' SHA-256 and compressed size.
    package static func measure<Failure: SQLiteFailure>(
        databasePath: String, failing: Failure.Type, known: [String: Int] = [:], measured: ((String, Int) -> Void)? = nil
    ) throws(Failure) -> Measurement {
        let db = try SQLiteDatabase<Failure>(path: databasePath, mode: .readOnly)
        defer { db.close() }
        let pageSize = Int(try db.scalarInt("PRAGMA page_size"))
        var pagesOf: [String: [Int]] = [:]
        var payloadOf: [String: Int] = [:]
        let rows = try db.prepare("SELECT name, pageno, payload FROM dbstat ORDER BY name, pageno")
        while try rows.step() {
            let name = rows.text(0) ?? ""
            pagesOf[name, default: []].append(Int(rows.int64(1)))
            payloadOf[name, default: 0] += Int(rows.int64(2))
        }
        guard let file = FileHandle(forReadingAtPath: databasePath) else {
            throw Failure(SQLiteError(operation: .open, path: databasePath, code: SQLITE_CANTOPEN, message: "cannot open"))
        }
        defer { try? file.close() }
        let data = (try? file.readToEnd()) ?? Data()
        var objects: [(name: String, pages: Int, bytes: Int, payload: Int, gzipBytes: Int)] = []
        for (name, pages) in pagesOf {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(pages.count * pageSize)
            for page in pages {
                let start = (page - 1) * pageSize
                guard start >= 0, start + pageSize <= data.count else { continue }
                bytes.append(contentsOf: data[start..<(start + pageSize)])
            }
            let key = FileDigest.sha256(of: bytes)
            let gzipBytes = known[key] ?? deflatedSize(bytes)
            measured?(key, gzipBytes)
            objects.append((name, pages.count, pages.count * pageSize, payloadOf[name] ?? 0, gzipBytes))
        }
        return (pageSize, data.count, objects)
    }

    /// Bytes of `bytes` deflated with gzip level 6.
    package static func deflatedSize(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty, let stream = try? ZlibStream(deflating: .gzip, level: 6) else { return 0 }
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        var total = 0
        bytes.withUnsafeBytes { input in
            stream.setInput(input.baseAddress, count: input.count)
            var result = ZlibResult.progress
            repeat {
                buffer.withUnsafeMutableBytes { b in
                    let produced: Int
                    (result, produced) = stream.run(into: b, finish: true)
                    total += produced
                }
            } while result == .progress
        }
        return total
    }
}
