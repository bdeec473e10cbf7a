import Foundation

/// Where a pack's bytes go: per table and index (FTS5 shadow tables separately), the SQLite pages it occupies, the
/// bytes of row data in them, and what its pages alone gzip to (level 6, as the pack), measured with SQLite's
/// `dbstat` virtual table on the decompressed database. `inspect --sizes` and `build-stats.json` show it: the
/// emitter measures the database it is about to compress (``CityPackEmit``), the reader an installed pack
/// (`CityPackKit`'s `measure(databasePath:)`). The measuring is CityPackSQLite's `DatabasePages`: this module
/// links neither SQLite nor zlib.
package struct PackSizes: Sendable, Codable, Equatable {
    /// One table or index.
    package struct Object: Sendable, Codable, Equatable {
        /// Table or index name (`search_data` is the FTS5 index, `sqlite_schema` the schema).
        package var name: String
        /// Pages it occupies.
        package var pages: Int
        /// Bytes of those pages.
        package var bytes: Int
        /// Bytes of cell payload (row data) in them.
        package var payload: Int
        /// What those pages compress to with gzip level 6 on their own: an estimate of the object's share of the
        /// downloaded pack (the sum is near, not equal to, the pack's compressed size).
        package var gzipBytes: Int
    }

    /// SQLite page size in bytes.
    package var pageSize: Int
    /// Size of the database file.
    package var databaseBytes: Int
    /// Every table and index, largest `gzipBytes` first (ties by name).
    package var objects: [Object]

    /// The sizes `DatabasePages.measure` (CityPackSQLite) found, objects ordered largest `gzipBytes` first.
    package init(
        _ measured: (
            pageSize: Int, databaseBytes: Int, objects: [(name: String, pages: Int, bytes: Int, payload: Int, gzipBytes: Int)]
        )
    ) {
        pageSize = measured.pageSize
        databaseBytes = measured.databaseBytes
        objects = measured.objects.map {
            Object(name: $0.name, pages: $0.pages, bytes: $0.bytes, payload: $0.payload, gzipBytes: $0.gzipBytes)
        }
        objects.sort { ($0.gzipBytes, $1.name) > ($1.gzipBytes, $0.name) }
    }

    /// Aligned text table: name, pages, bytes, payload, gzip bytes, share of the gzip total.
    package var text: String {
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
}
