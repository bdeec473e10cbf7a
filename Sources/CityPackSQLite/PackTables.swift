import CityPackFormat

/// Tables a pack of format 5 on leaves out when empty (``CityPackFormat/PackSchema/omittedWhenEmpty``): the writer
/// drops them, and every connection that reads a pack adds an empty TEMP table of the same name and columns for
/// each one missing, so queries see an empty table as they did when the pack carried it.
package enum PackTables {
    /// Drops the tables of ``CityPackFormat/PackSchema/omittedWhenEmpty`` that have no rows (with their indexes).
    /// - Returns: The names of the tables dropped.
    @discardableResult
    package static func dropEmpty<F>(in db: SQLiteDatabase<F>) throws(F) -> [String] {
        var dropped: [String] = []
        for schema in PackSchema.omittedWhenEmpty {
            let table = schema.table
            guard try db.scalarInt("SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = '\(table)'") > 0,
                try db.scalarInt("SELECT EXISTS (SELECT 1 FROM main.\(table))") == 0
            else { continue }
            try db.exec("DROP TABLE main.\(table)")
            dropped.append(table)
        }
        return dropped
    }

    /// Creates a table of the pack and its indexes, unless it exists.
    package static func create<F>(_ table: any PackSchema.TableSchema.Type, in db: SQLiteDatabase<F>) throws(F) {
        guard try db.scalarInt("SELECT count(*) FROM main.sqlite_master WHERE type = 'table' AND name = '\(table.table)'") == 0 else { return }
        try db.exec(table.create)
        for index in table.createIndexes { try db.exec(index) }
    }

    /// Adds an empty TEMP table for each table of ``CityPackFormat/PackSchema/tables`` that a pack of format 5 or
    /// later does not carry. A no-op for older formats (readers check for the tables those lack) and for tables
    /// present.
    /// - Returns: The names of the tables added.
    @discardableResult
    package static func addStandIns<F>(in db: SQLiteDatabase<F>, formatVersion: Int32) throws(F) -> [String] {
        guard formatVersion >= 5 else { return [] }
        var present: Set<String> = []
        let rows = try db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'")
        while try rows.step() { present.insert(rows.text(0) ?? "") }
        var added: [String] = []
        for table in PackSchema.tables where !present.contains(table.table) {
            let create = table.create.replacingOccurrences(of: "CREATE TABLE \(table.table)(", with: "CREATE TEMP TABLE IF NOT EXISTS \(table.table)(")
            try db.exec(create)
            added.append(table.table)
        }
        return added
    }
}
