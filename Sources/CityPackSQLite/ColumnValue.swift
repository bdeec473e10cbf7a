import CityPackFormat

// How the Swift types of pack columns bind and read (``ColumnValue``): integers, reals, text, BLOBs, flags, their
// optionals (NULL), and the two stored encodings of `poi` (``PackSchema/StoredDegrees``,
// ``PackSchema/CategoryValue``).

extension Int64: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Int64 { s.int64(i) }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) { s.bind(i, self) }
}

extension Int: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Int { Int(s.int64(i)) }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) { s.bind(i, Int64(self)) }
}

extension Double: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Double { s.double(i) }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) { s.bind(i, self) }
}

/// Text; NULL reads as "".
extension String: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> String { s.text(i) ?? "" }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) { s.bind(i, self) }
}

/// A BLOB; NULL reads as empty.
extension Array: ColumnValue where Element == UInt8 {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> [UInt8] { s.blob(i) }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) { s.bind(i, self) }
}

/// A flag stored as INTEGER 0 / 1 (any non-zero reads as true).
extension Bool: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Bool { s.int64(i) != 0 }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) { s.bind(i, Int64(self ? 1 : 0)) }
}

/// NULL is nil.
extension Optional: ColumnValue where Wrapped: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Wrapped? {
        s.isNull(i) ? nil : Wrapped.read(s, at: i)
    }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) {
        if let self { self.bind(s, at: i) } else { s.bind(i, nil as Int64?) }
    }
}

extension PackSchema.StoredDegrees: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Self {
        Self(s.isInteger(i) ? PackSchema.degrees(integerE7: s.int64(i)) : s.double(i))
    }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) {
        if let e7 = PackSchema.storedDegrees(degrees) { s.bind(i, e7) } else { s.bind(i, degrees) }
    }
}

extension PackSchema.CategoryValue: ColumnValue {
    package static func read<F>(_ s: SQLiteStatement<F>, at i: Int32) -> Self {
        s.isInteger(i) ? .code(s.int64(i)) : .id(s.text(i) ?? "")
    }
    package func bind<F>(_ s: SQLiteStatement<F>, at i: Int32) {
        switch self {
        case .code(let code): s.bind(i, code)
        case .id(let id): s.bind(i, id)
        }
    }
}
