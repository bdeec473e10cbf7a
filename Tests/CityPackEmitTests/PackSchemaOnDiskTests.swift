import CityPackFormat
import CityPackModel
import CityPackSQLite
import CityPackTestSupport
import Foundation
import Testing

@testable import CityPackEmit

/// A pack the writer makes holds exactly the schema of ``PackSchema``: SQLite keeps each CREATE statement's text,
/// so the statements built from the table namespaces are what every reader of the file finds.
struct PackSchemaOnDiskTests {
    @Test func freshPackSchemaIsPackSchemas() throws {
        let path = try TestPaths.temporaryDirectory("schema-pack").appendingPathComponent("pack.sqlite").path
        let city = City(id: "tiny", name: "Tiny", bbox: BoundingBox(minLon: 9.0, minLat: 45.3, maxLon: 9.3, maxLat: 45.6))
        try PackWriter.write(
            PackInput(city: city, pois: [], categories: [], createdAt: 0, generator: "test", sources: [], transit: []),
            to: path)

        // A table with no rows is left out (format 5): an empty city keeps meta, category, poi and string.
        let omitted = Set(PackSchema.omittedWhenEmpty.map { $0.table })
        var expected: [String: String] = [:]
        for table in PackSchema.tables where !omitted.contains(table.table) {
            expected[table.table] = table.create
            for (index, create) in zip(table.indexes, table.createIndexes) { expected[index.name] = create }
        }
        let db = try PackWriter.Database(path: path, mode: .readOnly)
        defer { db.close() }
        let rows = try db.prepare("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
        var found: [String: String] = [:]
        while try rows.step() { found[rows.text(0) ?? ""] = rows.text(1) ?? "" }
        #expect(found == expected)
    }
}
