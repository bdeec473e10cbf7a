extension WebFlavour {
    /// Marks around the block of clients/web/constants.js that is generated from ``javaScriptConstants``.
    package static let javaScriptConstantsMarks = (begin: "// <generated: WebFlavour.javaScriptConstants>",
        end: "// </generated>")

    /// The constants the JS reader shares with the Swift format, as JavaScript: the web format version, the Earth
    /// radius of ``GreatCircle``, the cover of ``ProximityIndex`` and ``GeohashCover``, the geohash alphabet, the row
    /// chunking parameters, the search folds of ``SearchFold/table``, the readers' defaults (``ReaderDefaults``,
    /// ``TransitWalking``). The JS
    /// reader holds this block verbatim between ``javaScriptConstantsMarks`` (a test compares them and
    /// `RECORD_GOLDENS=1` rewrites it), so it cannot drift from Swift.
    package static var javaScriptConstants: String {
        """
        \(javaScriptConstantsMarks.begin)
        /** Web format version this reader understands (manifest `web.format` and each part's `format`). */
        export const WEB_FORMAT = \(formatVersion);

        const EARTH_RADIUS = \(GreatCircle.earthRadius); // metres, GreatCircle.earthRadius
        const COVER_CELLS = \(ProximityIndex.coverCells); // ProximityIndex.coverCells
        const PAD_DEGREES = \(GeohashCover.padDegrees); // GeohashCover.padDegrees
        const GEOHASH_ALPHABET = '\(String(Geohash.alphabet))'; // Geohash.alphabet
        /** How the writer cuts the places rows into chunks (WebFlavour.rowChunk*; docs/WEB.md), for tools and tests. */
        export const ROW_CHUNKING = { minBytes: \(rowChunkMinBytes), maxBytes: \(rowChunkMaxBytes), divisor: \(rowChunkDivisor), rowBytes: \(rowChunkRowBytes) };
        /** Letters users type without → what they type instead (SearchFold.table): folded in the index and in queries. */
        export const SEARCH_FOLDS = {\(searchFoldsJavaScript)};

        /** Radius of `nearby`, metres (ReaderDefaults.nearbyRadiusMetres). */
        export const DEFAULT_RADIUS = \(Int(ReaderDefaults.nearbyRadiusMetres));
        /** Results `search` returns when no limit is given (ReaderDefaults.searchLimit). */
        export const DEFAULT_SEARCH_LIMIT = \(ReaderDefaults.searchLimit);
        /** Results `nearby` returns when no limit is given (ReaderDefaults.nearbyLimit). */
        export const DEFAULT_NEARBY_LIMIT = \(ReaderDefaults.nearbyLimit);
        /** Places `places(box)` returns when no limit is given (ReaderDefaults.listingLimit). */
        export const DEFAULT_LISTING_LIMIT = \(ReaderDefaults.listingLimit);
        /** Departures `departures` returns when no limit is given (ReaderDefaults.departuresLimit). */
        export const DEFAULT_DEPARTURES_LIMIT = \(ReaderDefaults.departuresLimit);
        const FIRST_RING_METRES = \(Int(ReaderDefaults.firstRingMetres)); // ReaderDefaults.firstRingMetres
        /** Journey options when none are given (ReaderDefaults, TransitWalking.speed). */
        export const JOURNEY_DEFAULTS = Object.freeze({ maxTransfers: \(ReaderDefaults.maxTransfers), walkSpeed: \(TransitWalking.speed), maxWalkMetres: \(ReaderDefaults.maxWalkMetres), minChangeSeconds: \(ReaderDefaults.minChangeSeconds), wheelchair: false });
        const INF = \(ReaderDefaults.unreachedSeconds); // ReaderDefaults.unreachedSeconds
        const DETOUR = \(TransitWalking.detour); // TransitWalking.detour
        \(javaScriptConstantsMarks.end)
        """
    }

    /// ``SearchFold/table`` as the members of a JavaScript object literal, in the table's order.
    static var searchFoldsJavaScript: String {
        SearchFold.table.map { " \($0.0): '\($0.1)'" }.joined(separator: ",") + " "
    }
}
