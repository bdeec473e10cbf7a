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
    /// A column of a pack table, or a result a query names (``Column/expression(_:)``): what ``Column`` is without its
    /// Swift type, so a table lists its columns in one array.
    package protocol AnyColumn: Sendable, CustomStringConvertible {
        /// The column's name in SQL (an expression's SQL text).
        var name: String { get }
        /// What follows the name in the CREATE statement (`TEXT NOT NULL`, `INTEGER PRIMARY KEY`); "" for a column
        /// without one (FTS5 columns, `poi.lat`, …).
        var declaration: String { get }
        /// The column's identity, unique in the process: statements find a column's position by it in O(1)
        /// (``PackStatement``). Not stored anywhere; it differs from run to run.
        var slot: Int { get }
    }

    /// A column of a pack table with the Swift type its values bind and read as (`Column<Int64>`, `Column<String?>`,
    /// ``StoredDegrees``, ``CategoryValue``): writers bind and readers read it by this value, never by a position
    /// (``PackStatement``). The type is part of the declaration, so a column's type is written once.
    package struct Column<Value>: AnyColumn, Hashable {
        package let name: String
        package let declaration: String
        package let slot: Int

        /// A column named `name`, declared in the CREATE statement as `declaration`.
        package init(_ name: String, _ declaration: String = "") {
            self.name = name
            self.declaration = declaration
            slot = ColumnSlots.next()
        }

        /// A query's result or parameter that is no column of a table (`count(*)`, `p.name IS NOT NULL`, a MATCH
        /// expression): its SQL text and its Swift type. Declare it once (a `static let`) like a column.
        package static func expression(_ sql: String) -> Column { Column(sql) }
    }

    /// An index of a pack table.
    package struct Index: Sendable {
        package let name: String
        package let columns: [any AnyColumn]

        package init(_ name: String, on columns: [any AnyColumn]) {
            self.name = name
            self.columns = columns
        }
    }

    /// What an INSERT does when the row's key is already there.
    package enum Conflict: String, Sendable {
        case ignore = "IGNORE"
        case replace = "REPLACE"
    }

    /// A pack table: ``PackSchema/tables`` lists them in creation order.
    package protocol TableSchema {
        /// The table's name (from ``PackSchema/Table``).
        static var table: String { get }
        /// The columns in CREATE order, which is also the order of ``insert(or:)``'s parameters.
        static var columns: [any AnyColumn] { get }
        /// The table's alias in every query that names one (`FROM poi p`), the same in every file.
        static var alias: String { get }
        /// The CREATE statement, exactly as `sqlite_master.sql` holds it.
        static var create: String { get }
        /// The table's indexes, created right after it.
        static var indexes: [Index] { get }
    }

    /// How many tables are named ?1 (0 or 1): readers ask before using a table that older packs of a format lack.
    package static let tableCountQuery = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1"
    /// A `count(*)` result.
    package static let count = Column<Int64>.expression("count(*)")
    /// The table name ``tableCount`` asks about.
    package static let tableName = Column<String>.expression("?1")
    /// ``tableCountQuery``, bound and read by column (``tableName``, ``count``).
    package static let tableCount = Query(tableCountQuery, results: [count], parameters: [tableName])

    /// A comma-separated list of columns, for a SELECT or an INSERT (`id, lat, lon`).
    package static func list(_ columns: [any AnyColumn]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }
}

extension PackSchema.AnyColumn {
    /// The name, so `"\(column)"` in SQL is the column.
    package var description: String { name }

    /// The column's part of the CREATE statement.
    package var definition: String { declaration.isEmpty ? name : "\(name) \(declaration)" }
}

extension PackSchema.TableSchema {
    package static var indexes: [PackSchema.Index] { [] }


    /// `CREATE TABLE <table>(<definitions>[, PRIMARY KEY(…)])[ WITHOUT ROWID]`.
    package static func createTable(primaryKey: [any PackSchema.AnyColumn] = [], withoutRowID: Bool) -> String {
        var parts = columns.map(\.definition)
        if !primaryKey.isEmpty { parts.append("PRIMARY KEY(\(PackSchema.list(primaryKey)))") }
        return "CREATE TABLE \(table)(\(parts.joined(separator: ", ")))" + (withoutRowID ? " WITHOUT ROWID" : "")
    }

    /// The CREATE INDEX statements of ``indexes``.
    package static var createIndexes: [String] {
        indexes.map { "CREATE INDEX \($0.name) ON \(table)(\(PackSchema.list($0.columns)))" }
    }

    /// `<table> <alias>`, for a FROM or JOIN clause.
    package static var aliased: String { "\(table) \(alias)" }

    /// A column qualified by the table's alias (`p.lat`), for queries that join.
    package static func qualified(_ column: any PackSchema.AnyColumn) -> String { "\(alias).\(column.name)" }

    /// Qualified columns, comma-separated (`p.id, p.lat`).
    package static func qualified(_ columns: [any PackSchema.AnyColumn]) -> String {
        columns.map { qualified($0) }.joined(separator: ", ")
    }

    /// The INSERT of a whole row, as a ``PackSchema/Query`` whose parameters are ``columns``: bind it by column.
    package static func inserting(or conflict: PackSchema.Conflict? = nil) -> PackSchema.Query {
        PackSchema.Query(insert(or: conflict), parameters: columns)
    }

    /// `SELECT <results> FROM <table>[ WHERE c = ?1 AND …][ ORDER BY …]`, its parameters the `where` columns.
    /// - Parameters:
    ///   - results: The columns read.
    ///   - keys: Columns compared with the parameters, in order.
    ///   - order: The ORDER BY columns.
    ///   - absent: Result columns the pack lacks (older packs of a format): selected as `NULL AS <name>`, so they
    ///     read as nil.
    package static func select(
        _ results: [any PackSchema.AnyColumn], where keys: [any PackSchema.AnyColumn] = [],
        orderBy order: [any PackSchema.AnyColumn] = [], absent: [any PackSchema.AnyColumn] = []
    ) -> PackSchema.Query {
        let absentSlots = Set(absent.map(\.slot))
        let list = results.map { absentSlots.contains($0.slot) ? "NULL AS \($0.name)" : $0.name }.joined(separator: ", ")
        var sql = "SELECT \(list) FROM \(table)"
        if !keys.isEmpty {
            sql += " WHERE " + keys.enumerated().map { "\($1.name) = ?\($0 + 1)" }.joined(separator: " AND ")
        }
        if !order.isEmpty { sql += " ORDER BY \(PackSchema.list(order))" }
        return PackSchema.Query(sql, results: results, parameters: keys)
    }

    /// The INSERT of a whole row, parameters in ``columns`` order: `INSERT [OR …] INTO t(a, b) VALUES (?, ?)`.
    package static func insert(or conflict: PackSchema.Conflict? = nil) -> String {
        let verb = conflict.map { "INSERT OR \($0.rawValue)" } ?? "INSERT"
        let parameters = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "\(verb) INTO \(table)(\(PackSchema.list(columns))) VALUES (\(parameters))"
    }
}
