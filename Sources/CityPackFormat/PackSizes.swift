import CityPackSupport
import CCityPackSQLite
import CityPackStorage
import Foundation

/// Where a pack's bytes go: per table and index (FTS5 shadow tables separately), the SQLite pages it occupies, the
/// bytes of row data in them, and what its pages alone gzip to (level 6, as the pack), measured with SQLite's
/// `dbstat` virtual table on the decompressed database. `inspect --sizes` and `build-stats.json` show it: the
/// emitter measures the database it is about to compress (``CityPackEmit``), the reader an installed pack
/// (`CityPackKit`'s `measure(databasePath:)`).
public struct PackSizes: Sendable, Codable, Equatable {
    /// One table or index.
    public struct Object: Sendable, Codable, Equatable {
        /// Table or index name (`search_data` is the FTS5 index, `sqlite_schema` the schema).
        public var name: String
        /// Pages it occupies.
        public var pages: Int
        /// Bytes of those pages.
        public var bytes: Int
        /// Bytes of cell payload (row data) in them.
        public var payload: Int
        /// What those pages compress to with gzip level 6 on their own: an estimate of the object's share of the
        /// downloaded pack (the sum is near, not equal to, the pack's compressed size).
        public var gzipBytes: Int
    }

    /// SQLite page size in bytes.
    public var pageSize: Int
    /// Size of the database file.
    public var databaseBytes: Int
    /// Every table and index, largest `gzipBytes` first (ties by name).
    public var objects: [Object]

    /// Measures a decompressed pack database, failing with the caller's module error.
    /// - Parameters:
    ///   - databasePath: The SQLite file.
    ///   - known: Compressed sizes already measured, by the SHA-256 of an object's pages (the build cache keeps
    ///     the last build's, so an editorial edit compresses only the objects whose pages changed).
    ///   - measured: Called with every object's pages' SHA-256 and compressed size.
    package static func measure<Failure: SQLiteFailure>(
        databasePath: String, failing: Failure.Type, known: [String: Int] = [:], measured: ((String, Int) -> Void)? = nil
    ) throws(Failure) -> PackSizes {
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
        var objects: [Object] = []
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
            objects.append(Object(
                name: name, pages: pages.count, bytes: pages.count * pageSize, payload: payloadOf[name] ?? 0,
                gzipBytes: gzipBytes))
        }
        objects.sort { ($0.gzipBytes, $1.name) > ($1.gzipBytes, $0.name) }
        return PackSizes(pageSize: pageSize, databaseBytes: data.count, objects: objects)
    }

    /// Aligned text table: name, pages, bytes, payload, gzip bytes, share of the gzip total.
    public var text: String {
        let totalGzip = max(1, objects.reduce(0) { $0 + $1.gzipBytes })
        var out = "page size \(pageSize), database \(databaseBytes) bytes\n"
        out += "object".padding(toLength: 24, withPad: " ", startingAt: 0)
            + "   pages       bytes     payload   gzip bytes  share\n"
        for o in objects {
            out += o.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            out += String(
                format: " %7d %11d %11d %12d %5.1f%%\n", o.pages, o.bytes, o.payload, o.gzipBytes,
                Double(o.gzipBytes) * 100 / Double(totalGzip))
        }
        return out
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
