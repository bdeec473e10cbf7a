import CCityPackSQLite

/// A read-only SQLite connection. Not thread-safe: ``PackReader`` serialises all use behind its lock.
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?
    let path: String

    /// Opens `path` with `SQLITE_OPEN_READONLY`.
    init(readOnlyPath path: String) throws(PackError) {
        self.path = path
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw PackError.notAPack(path: path, message: message)
        }
        handle = db
    }

    deinit { close() }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    var errorMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
    }

    func prepare(_ sql: String) throws(PackError) -> SQLiteStatement {
        guard let handle else { throw PackError.closed }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw PackError.sqlite(code: rc, message: "\(errorMessage) in: \(sql)")
        }
        return SQLiteStatement(stmt, database: self)
    }

    /// The single integer a statement such as `PRAGMA user_version` returns.
    func scalarInt(_ sql: String) throws(PackError) -> Int64 {
        let stmt = try prepare(sql)
        guard try stmt.step() else { throw PackError.sqlite(code: SQLITE_ERROR, message: "no row for \(sql)") }
        return stmt.int64(0)
    }
}

/// A prepared statement; reset before each use with ``reset()``.
final class SQLiteStatement {
    private var stmt: OpaquePointer?
    private unowned let database: SQLiteDatabase

    init(_ stmt: OpaquePointer, database: SQLiteDatabase) {
        self.stmt = stmt
        self.database = database
    }

    deinit { sqlite3_finalize(stmt) }

    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(stmt, index, value)
    }

    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(stmt, index, value, -1, citypack_sqlite_transient())
    }

    /// Advances; true when a row is available, false when done.
    func step() throws(PackError) -> Bool {
        let rc = sqlite3_step(stmt)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw PackError.sqlite(code: rc, message: database.errorMessage)
        }
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(stmt, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_NULL }
    /// Number of result columns.
    var columnCount: Int32 { sqlite3_column_count(stmt) }
    /// Name of a result column.
    func columnName(_ column: Int32) -> String { sqlite3_column_name(stmt, column).map { String(cString: $0) } ?? "" }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, column) else { return nil }
        let count = Int(sqlite3_column_bytes(stmt, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
}
