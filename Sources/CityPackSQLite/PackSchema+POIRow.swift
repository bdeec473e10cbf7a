import CityPackFormat

extension PackSchema.POI.Row {
    /// The current row of a ``PackSchema/POI/Row/query(absent:)`` or ``PackSchema/POI/Row/byID(absent:)`` statement:
    /// the one place a `poi` row's columns turn into Swift values.
    package init<F>(_ row: PackStatement<F>) {
        typealias P = PackSchema.POI
        self.init(
            id: row[P.id], lat: row[P.lat].degrees, lon: row[P.lon].degrees, category: row[P.category],
            name: row[P.name], tags: row[P.tags],
            wheelchair: row[P.wheelchair].flatMap(PackSchema.Wheelchair.init(rawValue:)))
        hours = row[P.hours]
    }
}
