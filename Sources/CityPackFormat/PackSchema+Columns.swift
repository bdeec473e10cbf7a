/// How the pack's tables are spelled: every table is a namespace of ``PackSchema`` (``PackSchema/POI``,
/// ``PackSchema/Stop``, …) holding its name, its columns in CREATE order and the statements that create it, so the
/// writer (`CityPackEmit`), the readers (`CityPackKit`) and the tests name a column in one place and a rename is one
/// edit. SQL still reads as SQL at the call site: a column interpolates as its bare name
/// (`"SELECT \(P.lat), \(P.lon) FROM \(P.table)"`, `"p.\(P.lat)"` for an alias).
///
/// The CREATE text is stored verbatim in `sqlite_master`, so what
/// ``PackSchema/TableSchema/createTable(primaryKey:withoutRowID:)`` builds is part of the file's bytes: one space
/// after each comma, declarations as written here (`PackSchemaTests` holds format 3's text to compare).
extension PackSchema {
    /// A column of a pack table: its name and its declaration in the table's CREATE statement.
    public struct Column: Sendable, Hashable, CustomStringConvertible {
        /// The column's name in SQL.
        public let name: String
        /// What follows the name in the CREATE statement (`TEXT NOT NULL`, `INTEGER PRIMARY KEY`); "" for a column
        /// without one (FTS5 columns, `poi.lat`, …).
        public let declaration: String

        public init(_ name: String, _ declaration: String = "") {
            self.name = name
            self.declaration = declaration
        }

        /// The name, so `"\(column)"` in SQL is the column.
        public var description: String { name }

        /// The column's part of the CREATE statement.
        public var definition: String { declaration.isEmpty ? name : "\(name) \(declaration)" }
    }

    /// An index of a pack table.
    public struct Index: Sendable, Hashable {
        public let name: String
        public let columns: [Column]

        public init(_ name: String, on columns: [Column]) {
            self.name = name
            self.columns = columns
        }
    }

    /// What an INSERT does when the row's key is already there.
    public enum Conflict: String, Sendable {
        case ignore = "IGNORE"
        case replace = "REPLACE"
    }

    /// A pack table: ``PackSchema/tables`` lists them in creation order.
    public protocol TableSchema {
        /// The table's name (from ``PackSchema/Table``).
        static var table: String { get }
        /// The columns in CREATE order, which is also the order of ``insert(or:)``'s parameters.
        static var columns: [Column] { get }
        /// The CREATE statement, exactly as `sqlite_master.sql` holds it.
        static var create: String { get }
        /// The table's indexes, created right after it.
        static var indexes: [Index] { get }
    }

    /// How many tables are named ?1 (0 or 1): readers ask before using a table that older packs of a format lack.
    public static let tableCountQuery = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1"

    /// A comma-separated list of columns, for a SELECT or an INSERT (`id, lat, lon`).
    public static func list(_ columns: [Column]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }
}

extension PackSchema.TableSchema {
    public static var indexes: [PackSchema.Index] { [] }

    /// `CREATE TABLE <table>(<definitions>[, PRIMARY KEY(…)])[ WITHOUT ROWID]`.
    public static func createTable(primaryKey: [PackSchema.Column] = [], withoutRowID: Bool) -> String {
        var parts = columns.map(\.definition)
        if !primaryKey.isEmpty { parts.append("PRIMARY KEY(\(PackSchema.list(primaryKey)))") }
        return "CREATE TABLE \(table)(\(parts.joined(separator: ", ")))" + (withoutRowID ? " WITHOUT ROWID" : "")
    }

    /// The CREATE INDEX statements of ``indexes``.
    public static var createIndexes: [String] {
        indexes.map { "CREATE INDEX \($0.name) ON \(table)(\(PackSchema.list($0.columns)))" }
    }

    /// The INSERT of a whole row, parameters in ``columns`` order: `INSERT [OR …] INTO t(a, b) VALUES (?, ?)`.
    public static func insert(or conflict: PackSchema.Conflict? = nil) -> String {
        let verb = conflict.map { "INSERT OR \($0.rawValue)" } ?? "INSERT"
        let parameters = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "\(verb) INTO \(table)(\(PackSchema.list(columns))) VALUES (\(parameters))"
    }
}
