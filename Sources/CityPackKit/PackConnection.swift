import CityPackSQLite
import CityPackStorage
import Foundation

/// The open database of a reader and the lock that serialises every use of it, shared by ``PackReader``,
/// ``TransitReader`` and ``EditorialReader``: one query at a time, whichever of them asks.
///
/// Closing is idempotent; afterwards every ``withDatabase(_:)`` throws `PackError.closed`.
final class PackConnection: @unchecked Sendable {
    /// The shared SQLite wrapper, failing with ``PackError``.
    typealias Database = SQLiteDatabase<PackError>
    /// A statement of ``Database``.
    typealias Statement = SQLiteStatement<PackError>
    /// A statement of ``Database`` bound and read by column (``CityPackFormat/PackSchema/Query``).
    typealias Rows = PackStatement<PackError>

    private let lock = NSLock()
    private var database: Database?
    /// A decompressed copy to delete on close, if the reader made one.
    private let ownedFile: String?

    init(database: Database, ownedFile: String?) {
        self.database = database
        self.ownedFile = ownedFile
    }

    /// Runs `body` with the lock held.
    /// - Throws: `PackError.closed` after ``close(releasing:)``, else what `body` throws.
    func withDatabase<T>(_ body: (Database) throws(PackError) -> T) throws(PackError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let database else { throw PackError.closed }
        return try body(database)
    }

    /// Runs `release` (the users' statements are dropped there) with the lock held, then closes the database and
    /// deletes the owned file.
    func close(releasing release: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        release()
        database?.close()
        database = nil
        if let ownedFile { unlink(ownedFile) }
    }
}
