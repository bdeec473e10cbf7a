import CityPackFormat

extension PackReader {
    /// Every POI of the pack (no stops), ordered by stable id (for `citypack inspect --pois` and diff tools).
    /// - Parameter locale: Locale for ``PlaceResult/name``.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func allPOIs(locale: String? = nil) throws(PackError) -> [PlaceResult] {
        var out: [PlaceResult] = []
        out.reserveCapacity(poiCount)
        for id in ids.sorted() where !PackSchema.isStopID(id) {
            if let poi = try poi(id: id, locale: locale) { out.append(poi) }
        }
        return out
    }
}
