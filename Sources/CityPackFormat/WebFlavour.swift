/// Names, version and chunking parameters of the web flavour of a pack (`outputs/<city>/web/`), shared by the
/// writer and by documentation and tests; the reader is `clients/web/citypack.js` (see `docs/WEB.md`).
package enum WebFlavour {
    /// Version of the web parts' layout (`format` in every file and in the manifest's `web`). Format 2 lists each
    /// part as a small head file plus content-addressed chunks (`Manifest.WebPart.chunks`); readers refuse formats
    /// they do not know.
    package static let formatVersion = 2
    /// Folder beside the manifest.
    package static let folder = "web"
    /// POIs and stops with details (head: shared tables; chunks: rows in proximity-index order, with their search
    /// tokens).
    package static let placesPart = "places"
    /// Search: the head holds the bm25 weights and the `terms` column's token strings by reference; the rows'
    /// tokens are in the places chunks, so loading search loads places.
    package static let searchPart = "search"
    /// Cards, situations, actions and walking routes (one file).
    package static let editorialPart = "editorial"
    /// The GTFS timetable for departures (present only in packs with transit), its JSON text in pieces.
    package static let transitPart = "transit"
    /// File name prefix of the row chunks of `places` (`web/rows-<sha16>.json.gz`).
    package static let rowsPrefix = "rows"
    /// The columns of a row chunk, in the order of its JSON array (the places head lists them as `columns`).
    package static let rowColumns = [
        "indexed", "id", "lat7", "lon7", "lat", "lon", "category", "name", "names", "tags", "stopId", "also", "tokens", "terms",
        "links", "groups", "wheelchair", "hours",
    ]

    /// Row chunking (places): a chunk ends after the last row of a geohash-8 cell (or of an unindexed stop) once it
    /// holds at least ``rowChunkMinBytes`` (estimated bytes of its rows, ``rowChunkRowBytes``) and either the FNV-1a hash of
    /// the cell is divisible by ``rowChunkDivisor`` or it holds ``rowChunkMaxBytes``: boundaries depend on the
    /// rows nearby only, so a local edit changes one chunk (or two, when a row moves).
    package static let rowChunkMinBytes = 1000
    /// See ``rowChunkMinBytes``.
    package static let rowChunkMaxBytes = 2500
    /// See ``rowChunkMinBytes``.
    package static let rowChunkDivisor: UInt32 = 4
    /// A row's estimated bytes: this, plus the UTF-8 bytes of its name, its search tokens, and its localized names'
    /// and tags' keys and values (ids, coordinates and codes weigh about as much as a short name once compressed).
    package static let rowChunkRowBytes = 80
    /// Text chunking (transit): the part's JSON text is cut after a `,` once a piece holds ``textChunkMinBytes``
    /// and either the FNV-1a hash of the 32 bytes before the cut is divisible by ``textChunkDivisor`` or the
    /// piece holds ``textChunkMaxBytes``.
    package static let textChunkMinBytes = 64 * 1024
    /// See ``textChunkMinBytes``.
    package static let textChunkMaxBytes = 512 * 1024
    /// See ``textChunkMinBytes``.
    package static let textChunkDivisor: UInt32 = 8192
}
