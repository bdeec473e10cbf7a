/// Names and version of the web flavour of a pack (`outputs/<city>/web/`), shared by the writer and by
/// documentation and tests; the reader is `clients/web/citypack.js` (see `docs/WEB.md`).
public enum WebFlavour {
    /// Version of the web parts' JSON layout (`format` in every part and in the manifest's `web`).
    public static let formatVersion = 1
    /// Folder beside the manifest.
    public static let folder = "web"
    /// POIs and stops with details, and the geohash-8 bucket index.
    public static let placesPart = "places"
    /// Search tokens per row and column, for bm25 ranking.
    public static let searchPart = "search"
    /// Cards, situations, actions and walking routes.
    public static let editorialPart = "editorial"
    /// The GTFS timetable for departures (present only in packs with transit).
    public static let transitPart = "transit"
}
