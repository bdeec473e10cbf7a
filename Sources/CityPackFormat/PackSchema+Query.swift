import Synchronization

/// Hands out ``PackSchema/AnyColumn/slot``s: one per column or expression declared, in creation order.
enum ColumnSlots {
    private static let counter = Atomic<Int>(0)

    /// A new slot.
    static func next() -> Int { counter.wrappingAdd(1, ordering: .relaxed).oldValue }
}

extension PackSchema {
    /// A statement of the pack described by columns: its SQL, the columns of its results in SELECT order and those
    /// of its parameters in `?1, ?2, …` order. ``SQLiteDatabase/prepare(_:persistent:)`` resolves each column's
    /// position once; writers then bind and readers read by column (``PackStatement``), so no caller counts
    /// positions and a column added in the middle shifts nothing.
    package struct Query: Sendable {
        /// The statement's SQL; its SELECT list and parameters must follow ``results`` and ``parameters``.
        package let sql: String
        /// The result columns in SELECT order.
        package let results: [any AnyColumn]
        /// The parameters in `?N` order (a parameter may appear more than once in `sql` as its `?N`).
        package let parameters: [any AnyColumn]

        /// A query from its SQL and the columns of its results and parameters.
        package init(_ sql: String, results: [any AnyColumn] = [], parameters: [any AnyColumn] = []) {
            self.sql = sql
            self.results = results
            self.parameters = parameters
        }
    }
}
