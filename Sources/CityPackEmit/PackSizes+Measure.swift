import CityPackFormat
import CityPackSQLite

extension PackSizes {
    /// Measures a decompressed pack database (``DatabasePages``), failing with the caller's module error.
    /// - Parameters:
    ///   - known: Compressed sizes already measured, by the SHA-256 of an object's pages.
    ///   - measured: Called with every object's pages' SHA-256 and compressed size.
    package static func measure<Failure: SQLiteFailure>(
        databasePath: String, failing: Failure.Type, known: [String: Int] = [:], measured: ((String, Int) -> Void)? = nil
    ) throws(Failure) -> PackSizes {
        PackSizes(try DatabasePages.measure(databasePath: databasePath, failing: failing, known: known, measured: measured))
    }
}
