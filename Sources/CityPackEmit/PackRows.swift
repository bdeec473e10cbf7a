import CityPackFormat
import CityPackModel
import CityPackSQLite
import CityPackStorage
import CityPackSupport

/// How a model POI becomes its `poi` row: the one place the writer maps ``CityPackModel/POI``'s fields to
/// ``PackSchema/POI``'s columns (a new per-POI column is one more line here, its column one more declaration there).
extension PackSchema.POI {
    /// Binds every column of `poi`'s row to an insert of ``PackSchema/TableSchema/inserting(or:)``.
    /// - Parameters:
    ///   - poi: The POI.
    ///   - code: Its category's code (``PackSchema/categoryCodes(_:)``); nil stores the id as TEXT.
    ///   - insert: The prepared insert.
    static func bind(_ poi: CityPackModel.POI, code: Int64?, to insert: PackStatement<EmitError>) {
        insert.bind(id, poi.ref.stableID)
        insert.bind(lat, PackSchema.StoredDegrees(poi.coordinate.lat))
        insert.bind(lon, PackSchema.StoredDegrees(poi.coordinate.lon))
        insert.bind(category, code.map { .code($0) } ?? .id(poi.category))
        insert.bind(name, poi.name)
        insert.bind(tags, storedTags(poi.tags))
        insert.bind(wheelchair, PackSchema.Wheelchair(tag: poi.tags["wheelchair"])?.rawValue)
        insert.bind(hours, poi.tags["opening_hours"].flatMap { try? OpeningHours.parse($0).get().compact })
    }

    /// `poi.tags`: compact (``CityPackFormat/PackSchema/encodeTags(_:)``), or a JSON object with sorted keys when a
    /// value holds a separator.
    static func storedTags(_ tags: [String: String]) -> String {
        PackSchema.encodeTags(tags) ?? SortedJSON.text(tags, pretty: false) ?? "{}"
    }
}
