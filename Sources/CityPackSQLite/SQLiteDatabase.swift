import CCityPackSQLite

/// A failure reported by SQLite, with what was being done; each module turns it into its own error type through
/// ``SQLiteFailure``.
package struct SQLiteError: Error, Sendable, Equatable {
    /// What failed.
    package enum Operation: Sendable, Equatable {
        /// Opening the database file.
        case open
        /// `sqlite3_exec` of ``SQLiteError/sql``.
        case exec
        /// Preparing ``SQLiteError/sql``.
        case prepare
        /// Stepping a prepared statement (or a query that returned no row when one was required).
        case step
        /// A call on a database that was already closed.
        case closed
    }

    /// What failed.
    package var operation: Operation
    /// The database file.
    package var path: String
    /// The SQLite result code (`SQLITE_FULL`, …).
    package var code: Int32
    /// SQLite's message (`sqlite3_errmsg`).
    package var message: String
    /// The statement text, for ``Operation/exec`` and ``Operation/prepare``.
    package var sql: String?

    package init(operation: Operation, path: String, code: Int32, message: String, sql: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = message
        self.sql = sql
    }
}

/// An error type the SQLite wrapper can throw directly: Kit's `PackError`, Emit's `EmitError`. The conformance
/// decides how SQLite's failures read in that module.
package protocol SQLiteFailure: Error {
    /// The module's error for a SQLite failure.
    init(_ error: SQLiteError)
}

/// A SQLite connection: the one wrapper over the C API that the pack writer and the reader share. Its methods
/// throw the module's own error type (`Failure`).
///
/// Not thread-safe: callers serialise all use (the reader behind its lock; the writer is single-threaded).
/// Statements may outlive ``close()`` (the connection is closed with `sqlite3_close_v2`, which waits for them).
package final class SQLiteDatabase<Failure: SQLiteFailure> {
    /// How a database file is opened.
    package enum Mode: Sendable {
        /// `SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX`: the reader's mode.
        case readOnly
        /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`: the writer's mode.
        case readWriteCreate
    }

    /// The database file.
    package let path: String
    private var handle: OpaquePointer?

    /// Opens a database file.
    /// - Throws: `Failure` for a ``SQLiteError/Operation/open`` failure. SQLite reads the file lazily, so a file
    ///   that is not a database opens and fails on its first query.
    package init(path: String, mode: Mode) throws(Failure) {
        self.path = path
        let flags = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw Failure(SQLiteError(operation: .open, path: path, code: rc, message: message))
        }
        handle = db
    }

    deinit { close() }

    /// Closes the connection (deferred by SQLite until its statements are finalised). Idempotent.
    package func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// SQLite's message for the last failure on this connection.
    package var errorMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
    }

    /// Runs one or more statements that return no rows (`PRAGMA …`, `BEGIN`, `CREATE TABLE …`).
    /// - Throws: `Failure` for an ``SQLiteError/Operation/exec`` failure.
    package func exec(_ sql: String) throws(Failure) {
        guard let handle else { throw closedError(sql) }
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw Failure(SQLiteError(operation: .exec, path: path, code: sqlite3_errcode(handle), message: message, sql: sql))
        }
    }

    /// Prepares a statement.
    /// - Parameters:
    ///   - sql: One statement; parameters are `?` or `?N`.
    ///   - persistent: The statement is kept for the connection's lifetime (`SQLITE_PREPARE_PERSISTENT`), as the
    ///     reader's are.
    /// - Throws: `Failure` for a ``SQLiteError/Operation/prepare`` failure.
    package func prepare(_ sql: String, persistent: Bool = false) throws(Failure) -> SQLiteStatement<Failure> {
        guard let handle else { throw closedError(sql) }
        var stmt: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(handle, sql, -1, flags, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw Failure(SQLiteError(operation: .prepare, path: path, code: rc, message: errorMessage, sql: sql))
        }
        return SQLiteStatement(stmt, path: path)
    }

    /// One of the connection's FTS5 tokenizers, made once and called directly (``FTS5Tokenizer``).
    /// - Parameters:
    ///   - name: The tokenizer, e.g. `unicode61`.
    ///   - arguments: Its arguments, e.g. `["remove_diacritics", "2"]`.
    /// - Returns: Nil when the connection is closed, SQLite has no FTS5, or the tokenizer refuses the arguments.
    package func fts5Tokenizer(_ name: String, arguments: [String]) -> FTS5Tokenizer? {
        guard let handle else { return nil }
        return FTS5Tokenizer(database: handle, name: name, arguments: arguments)
    }

    /// The integer in the first column of the first row of a query such as `PRAGMA user_version`.
    /// - Throws: `Failure`, also when the query returns no row.
    package func scalarInt(_ sql: String) throws(Failure) -> Int64 {
        let stmt = try prepare(sql)
        guard try stmt.step() else {
            throw Failure(SQLiteError(operation: .step, path: path, code: SQLITE_ERROR, message: "no row for \(sql)"))
        }
        return stmt.int64(0)
    }

    private func closedError(_ sql: String) -> Failure {
        Failure(SQLiteError(operation: .closed, path: path, code: SQLITE_MISUSE, message: "the database is closed", sql: sql))
    }
}

/// A prepared statement of a ``SQLiteDatabase``: bind parameters by 1-based index, then ``step()`` through the
/// rows of a query, or ``run()`` an insert. Finalised when released.
package final class SQLiteStatement<Failure: SQLiteFailure> {
    private let stmt: OpaquePointer
    private let path: String

    init(_ stmt: OpaquePointer, path: String) {
        self.stmt = stmt
        self.path = path
    }

    deinit { sqlite3_finalize(stmt) }

    /// Rewinds the statement and clears its bindings, ready for new parameters.
    package func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    /// Binds an integer.
    package func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(stmt, index, value) }
    /// Binds an integer.
    package func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(stmt, index, Int64(value)) }
    /// Binds a real.
    package func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(stmt, index, value) }
    /// Binds text (copied by SQLite).
    package func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(stmt, index, value, -1, citypack_sqlite_transient())
    }
    /// Binds a BLOB (copied by SQLite; an empty array binds an empty BLOB, not NULL).
    package func bind(_ index: Int32, _ value: [UInt8]) {
        value.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(stmt, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count),
                citypack_sqlite_transient())
        }
    }
    /// Binds an integer, or NULL.
    package func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(stmt, index) }
    }
    /// Binds a real, or NULL.
    package func bind(_ index: Int32, _ value: Double?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(stmt, index) }
    }
    /// Binds text, or NULL.
    package func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(stmt, index) }
    }

    /// Advances to the next row.
    /// - Returns: True when a row is available, false when the statement is done.
    /// - Throws: `Failure` for a ``SQLiteError/Operation/step`` failure.
    package func step() throws(Failure) -> Bool {
        let rc = sqlite3_step(stmt)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw failure(rc)
        }
    }

    /// Executes a statement that returns no rows (an insert) with the current bindings, then rewinds it; the
    /// bindings are kept.
    /// - Throws: `Failure` for a ``SQLiteError/Operation/step`` failure.
    package func run() throws(Failure) {
        let rc = sqlite3_step(stmt)
        sqlite3_reset(stmt)
        if rc != SQLITE_DONE && rc != SQLITE_ROW { throw failure(rc) }
    }

    /// An integer column of the current row.
    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }
    /// A real column of the current row.
    package func double(_ column: Int32) -> Double { sqlite3_column_double(stmt, column) }
    /// A BLOB column of the current row as bytes; empty for NULL or an empty BLOB.
    package func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(stmt, column))
        guard count > 0, let p = sqlite3_column_blob(stmt, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: count))
    }
    /// Whether a column of the current row is NULL.
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_NULL }

    /// Whether the column's value is stored as an INTEGER.
    package func isInteger(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_INTEGER }
    /// A text column of the current row; nil for NULL.
    package func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, column) else { return nil }
        let count = Int(sqlite3_column_bytes(stmt, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
    /// Number of result columns.
    /// Whether a text column holds exactly `bytes` (no `String` is made; false for NULL).
    package func textEquals(_ column: Int32, _ bytes: [UInt8]) -> Bool {
        guard let p = sqlite3_column_text(stmt, column) else { return false }
        let count = Int(sqlite3_column_bytes(stmt, column))
        guard count == bytes.count else { return false }
        for i in 0..<count where p[i] != bytes[i] { return false }
        return true
    }

    package var columnCount: Int32 { sqlite3_column_count(stmt) }
    /// Name of a result column.
    package func columnName(_ column: Int32) -> String {
        sqlite3_column_name(stmt, column).map { String(cString: $0) } ?? ""
    }

    private func failure(_ rc: Int32) -> Failure {
        let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(stmt)))
        return Failure(SQLiteError(operation: .step, path: path, code: rc, message: message))
    }
}
