import CityPackFormat

/// A Swift type a pack column's values bind and read as (``PackSchema/Column``'s `Value`).
package protocol ColumnValue {
    /// The value at result position `index` of the current row.
    static func read<F>(_ statement: SQLiteStatement<F>, at index: Int32) -> Self
    /// Binds the value to parameter `index` (1-based).
    func bind<F>(_ statement: SQLiteStatement<F>, at index: Int32)
}

/// A prepared ``PackSchema/Query``: bind parameters and read results by column. Each column's position is found
/// once, when the statement is prepared (a table by ``PackSchema/AnyColumn/slot``), so binding or reading a row
/// costs an array access, as positional code did. Using a column the query does not name is a programming error
/// and stops the program with the column's name.
///
/// Not thread-safe, as ``SQLiteStatement``.
package final class PackStatement<Failure: SQLiteFailure> {
    /// The underlying statement.
    package let statement: SQLiteStatement<Failure>
    private let sql: String
    /// 1-based parameter index by slot; 0 when the query has no such parameter.
    private let parameterIndex: [Int32]
    /// 0-based result index by slot; -1 when the query has no such result.
    private let resultIndex: [Int32]

    init(_ statement: SQLiteStatement<Failure>, query: PackSchema.Query) {
        self.statement = statement
        sql = query.sql
        var parameters = [Int32](repeating: 0, count: (query.parameters.map(\.slot).max() ?? -1) + 1)
        for (i, column) in query.parameters.enumerated() where parameters[column.slot] == 0 {
            parameters[column.slot] = Int32(i + 1)
        }
        var results = [Int32](repeating: -1, count: (query.results.map(\.slot).max() ?? -1) + 1)
        for (i, column) in query.results.enumerated() where results[column.slot] < 0 { results[column.slot] = Int32(i) }
        parameterIndex = parameters
        resultIndex = results
    }

    /// Binds a parameter.
    @inline(__always)
    package func bind<V: ColumnValue>(_ column: PackSchema.Column<V>, _ value: V) {
        value.bind(statement, at: parameter(column))
    }

    /// The value of a result column in the current row.
    @inline(__always)
    package subscript<V: ColumnValue>(_ column: PackSchema.Column<V>) -> V {
        V.read(statement, at: result(column))
    }

    // Concrete reads and binds of the common column types: chosen over the generic ones by overload resolution, so
    // a writer's or reader's loop in another module calls SQLite's accessor directly instead of going through
    // ColumnValue's witness table per value (the generic forms are not specialised across modules).

    /// The value of an INTEGER result column in the current row.
    package subscript(_ column: PackSchema.Column<Int64>) -> Int64 { statement.int64(result(column)) }
    /// The value of an INTEGER result column in the current row.
    package subscript(_ column: PackSchema.Column<Int>) -> Int { Int(statement.int64(result(column))) }
    /// The value of a REAL result column in the current row.
    package subscript(_ column: PackSchema.Column<Double>) -> Double { statement.double(result(column)) }
    /// The value of a flag result column in the current row.
    package subscript(_ column: PackSchema.Column<Bool>) -> Bool { statement.int64(result(column)) != 0 }
    /// The value of a TEXT result column in the current row ("" for NULL).
    package subscript(_ column: PackSchema.Column<String>) -> String { statement.text(result(column)) ?? "" }
    /// The value of a TEXT result column in the current row, nil for NULL.
    package subscript(_ column: PackSchema.Column<String?>) -> String? { statement.text(result(column)) }
    /// The value of an INTEGER result column in the current row, nil for NULL.
    package subscript(_ column: PackSchema.Column<Int64?>) -> Int64? {
        let i = result(column)
        return statement.isNull(i) ? nil : statement.int64(i)
    }

    /// Binds an INTEGER parameter.
    package func bind(_ column: PackSchema.Column<Int64>, _ value: Int64) { statement.bind(parameter(column), value) }
    /// Binds an INTEGER parameter.
    package func bind(_ column: PackSchema.Column<Int>, _ value: Int) { statement.bind(parameter(column), Int64(value)) }
    /// Binds a REAL parameter.
    package func bind(_ column: PackSchema.Column<Double>, _ value: Double) { statement.bind(parameter(column), value) }
    /// Binds a TEXT parameter.
    package func bind(_ column: PackSchema.Column<String>, _ value: String) { statement.bind(parameter(column), value) }
    /// Binds a TEXT parameter, or NULL.
    package func bind(_ column: PackSchema.Column<String?>, _ value: String?) { statement.bind(parameter(column), value) }
    /// Binds an INTEGER parameter, or NULL.
    package func bind(_ column: PackSchema.Column<Int64?>, _ value: Int64?) { statement.bind(parameter(column), value) }

    /// Whether a result column of the current row is NULL.
    package func isNull(_ column: any PackSchema.AnyColumn) -> Bool { statement.isNull(position(column)) }

    /// Whether a text result of the current row holds exactly `bytes` (no `String` is made; false for NULL).
    package func textEquals(_ column: PackSchema.Column<String>, _ bytes: [UInt8]) -> Bool {
        statement.textEquals(result(column), bytes)
    }

    /// Advances to the next row: true when a row is available.
    /// - Throws: `Failure` for a step failure.
    package func step() throws(Failure) -> Bool { try statement.step() }

    /// Executes an insert with the current bindings, then rewinds (bindings kept).
    /// - Throws: `Failure` for a step failure.
    package func run() throws(Failure) { try statement.run() }

    /// Rewinds the statement and clears its bindings.
    package func reset() { statement.reset() }

    private func parameter<V>(_ column: PackSchema.Column<V>) -> Int32 {
        let slot = column.slot
        guard slot < parameterIndex.count, parameterIndex[slot] > 0 else {
            preconditionFailure("\(column.name) is no parameter of \(sql)")
        }
        return parameterIndex[slot]
    }

    /// The result position of a column of any type (``isNull(_:)``); the typed reads use ``result(_:)``, which
    /// takes the column as it is declared, without boxing it.
    private func position(_ column: any PackSchema.AnyColumn) -> Int32 {
        let slot = column.slot
        guard slot < resultIndex.count, resultIndex[slot] >= 0 else {
            preconditionFailure("\(column.name) is no result of \(sql)")
        }
        return resultIndex[slot]
    }

    private func result<V>(_ column: PackSchema.Column<V>) -> Int32 {
        let slot = column.slot
        guard slot < resultIndex.count, resultIndex[slot] >= 0 else {
            preconditionFailure("\(column.name) is no result of \(sql)")
        }
        return resultIndex[slot]
    }
}

extension SQLiteDatabase {
    /// Prepares a ``PackSchema/Query`` to bind and read by column.
    /// - Parameters:
    ///   - query: The statement and its columns.
    ///   - persistent: Keep it for the connection's lifetime (`SQLITE_PREPARE_PERSISTENT`).
    /// - Throws: `Failure` for a prepare failure.
    package func prepare(_ query: PackSchema.Query, persistent: Bool = false) throws(Failure) -> PackStatement<Failure> {
        PackStatement(try prepare(query.sql, persistent: persistent), query: query)
    }
}

extension PackSchema.TableSchema {
    /// The columns of ``columns`` that a pack's table lacks: columns added to a format after the pack was written
    /// (a nullable column added at the end is a compatible change; readers select what a pack lacks as NULL with
    /// `select(_:where:orderBy:absent:)`).
    /// - Throws: `F` when SQLite fails.
    package static func missingColumns<F>(in db: SQLiteDatabase<F>) throws(F) -> [any PackSchema.AnyColumn] {
        let name = PackSchema.Column<String>("name")
        let info = try db.prepare(PackSchema.Query(
            "SELECT \(name) FROM pragma_table_info(?1)", results: [name], parameters: [PackSchema.tableName]))
        info.bind(PackSchema.tableName, table)
        var present: Set<String> = []
        while try info.step() { present.insert(info[name]) }
        return columns.filter { !present.contains($0.name) }
    }
}
