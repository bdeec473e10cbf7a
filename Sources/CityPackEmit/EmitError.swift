import CCityPackSQLite
import CityPackSQLite
import CityPackStorage

/// Unrecoverable failures while writing artifacts. Data problems are diagnostics, not errors.
package enum EmitError: Error, Sendable, CustomStringConvertible {
    case sqlite(path: String, message: String)
    case io(path: String, message: String)
    case compression(path: String, message: String)

    /// The file or folder the failure is about.
    package var path: String {
        switch self {
        case .sqlite(let path, _), .io(let path, _), .compression(let path, _): path
        }
    }

    /// What went wrong, without the path.
    package var message: String {
        switch self {
        case .sqlite(_, let message): "SQLite: \(message)"
        case .io(_, let message): message
        case .compression(_, let message): "compression: \(message)"
        }
    }

    package var description: String {
        switch self {
        case .sqlite(let path, let message): "\(path): SQLite: \(message)"
        case .io(let path, let message): "\(path): \(message)"
        case .compression(let path, let message): "\(path): compression: \(message)"
        }
    }
}

extension EmitError: SQLiteFailure {
    /// A SQLite failure located at the database file: SQLite's message, the statement (first 120 characters) for
    /// failed `exec`s and `prepare`s, and `(ENOSPC)` when the disk is full.
    package init(_ error: SQLiteError) {
        var message = error.message
        if error.operation == .exec && error.code == SQLITE_FULL { message += " (ENOSPC)" }
        if let sql = error.sql { message += " in: \(sql.prefix(120))" }
        self = .sqlite(path: error.path, message: message)
    }
}
