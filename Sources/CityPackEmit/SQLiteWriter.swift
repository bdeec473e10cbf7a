import CCityPackSQLite
import Foundation

/// A minimal write-side wrapper over the SQLite C API: exec and prepared statements. Not thread-safe.
final class SQLiteWriter {
    private var db: OpaquePointer?
    let path: String

    init(path: String) throws(EmitError) {
        self.path = path
        if sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            db = nil
            throw .sqlite(path: path, message: message)
        }
    }

    deinit { close() }

    func close() {
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    func exec(_ sql: String) throws(EmitError) {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &error) != SQLITE_OK {
            var message = error.map { String(cString: $0) } ?? "unknown error"
            if sqlite3_errcode(db) == SQLITE_FULL { message += " (ENOSPC)" }
            sqlite3_free(error)
            throw .sqlite(path: path, message: "\(message) in: \(sql.prefix(120))")
        }
    }

    func prepare(_ sql: String) throws(EmitError) -> Statement {
        var stmt: OpaquePointer?
        if sqlite3_prepare_v2(db, sql, -1, &stmt, nil) != SQLITE_OK {
            throw .sqlite(path: path, message: String(cString: sqlite3_errmsg(db)) + " in: \(sql.prefix(120))")
        }
        return Statement(stmt: stmt, writer: self)
    }

    var lastError: String { String(cString: sqlite3_errmsg(db)) }

    /// A prepared statement: bind by 1-based index, then `run()`.
    final class Statement {
        private let stmt: OpaquePointer?
        private unowned let writer: SQLiteWriter

        init(stmt: OpaquePointer?, writer: SQLiteWriter) {
            self.stmt = stmt
            self.writer = writer
        }

        deinit { sqlite3_finalize(stmt) }

        func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(stmt, index, value) }
        func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(stmt, index, Int64(value)) }
        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(stmt, index, value) }
        func bind(_ index: Int32, _ value: Int64?) {
            if let value { sqlite3_bind_int64(stmt, index, value) } else { sqlite3_bind_null(stmt, index) }
        }
        func bind(_ index: Int32, _ value: Double?) {
            if let value { sqlite3_bind_double(stmt, index, value) } else { sqlite3_bind_null(stmt, index) }
        }
        func bind(_ index: Int32, _ value: String?) {
            if let value {
                sqlite3_bind_text(stmt, index, value, -1, citypack_sqlite_transient())
            } else {
                sqlite3_bind_null(stmt, index)
            }
        }

        func run() throws(EmitError) {
            let rc = sqlite3_step(stmt)
            sqlite3_reset(stmt)
            if rc != SQLITE_DONE && rc != SQLITE_ROW {
                throw .sqlite(path: writer.path, message: writer.lastError)
            }
        }
    }
}
