import CityPackFormat
import CityPackSQLite

extension PackSizes {
    /// Measures a decompressed pack database (e.g. ``PackReader/databasePath``).
    /// - Throws: `PackError.notAPack` when it cannot be opened, `.sqlite`, `.io`.
    package static func measure(databasePath: String) throws(PackError) -> PackSizes {
        PackSizes(try DatabasePages.measure(databasePath: databasePath, failing: PackError.self))
    }
}
