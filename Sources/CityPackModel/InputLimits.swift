/// Bounds on untrusted input, from the `limits:` section of the city file. Every bound that is crossed is an
/// error diagnostic (`osm.limit_exceeded`, `csv.*`, `gtfs.*`) at the place it was crossed, never a crash or an
/// unbounded allocation. The defaults fit every real extract and feed we know with a wide margin; lower them
/// for CI on untrusted pull requests, raise them for a genuine continent-sized source.
///
/// ```yaml
/// limits:
///   file_size: 4294967296        # bytes of one source file, after gunzip / unzip
///   value_size: 65536            # bytes of one OSM tag key or value, or one CSV cell
///   tags_per_element: 5000       # <tag> children of one node, way or relation
///   refs_per_element: 100000     # <nd> of one way, <member> of one relation
///   depth: 32                    # XML element nesting
///   rows: 50000000               # data rows of one CSV table
///   fields_per_row: 1000         # cells of one CSV row
///   zip_size: 2147483648         # decompressed bytes of all entries of one GTFS zip
///   zip_ratio: 200               # decompressed / compressed bytes of one zip entry
///   zip_entries: 10000           # entries of one GTFS zip
/// ```
public struct InputLimits: Sendable, Hashable, Codable {
    /// Largest source file, in bytes: an OSM file on disk and after gunzip, a GTFS table after unzip, a CSV file.
    public var fileSize: Int64 = 4 << 30
    /// Longest OSM tag key or value, and longest CSV cell, in bytes. (OSM allows 255 characters.)
    public var valueSize: Int = 65_536
    /// Most `<tag>` children of one OSM element.
    public var tagsPerElement: Int = 5_000
    /// Most `<nd>` of one way or `<member>` of one relation. (The OSM API allows 2 000 and 32 000.)
    public var refsPerElement: Int = 100_000
    /// Deepest XML element nesting (an OSM file needs 4: osmChange, create, node, tag).
    public var depth: Int = 32
    /// Most data rows of one CSV table.
    public var rows: Int = 50_000_000
    /// Most cells in one CSV row.
    public var fieldsPerRow: Int = 1_000
    /// Largest total decompressed size of one GTFS zip, in bytes.
    public var zipSize: Int64 = 2 << 30
    /// Largest ratio of decompressed to compressed bytes for one zip entry. Real tables stay under 30 (Milan
    /// trips.txt: 29); zeros deflate at ~1030.
    public var zipRatio: Int = 200
    /// Most entries in one GTFS zip.
    public var zipEntries: Int = 10_000

    public init() {}

    /// The city-file keys, in documentation order.
    public static let keys = [
        "file_size", "value_size", "tags_per_element", "refs_per_element", "depth", "rows", "fields_per_row",
        "zip_size", "zip_ratio", "zip_entries",
    ]

    /// The value of a city-file key, or nil for an unknown key.
    public func value(_ key: String) -> Int64? {
        switch key {
        case "file_size": fileSize
        case "value_size": Int64(valueSize)
        case "tags_per_element": Int64(tagsPerElement)
        case "refs_per_element": Int64(refsPerElement)
        case "depth": Int64(depth)
        case "rows": Int64(rows)
        case "fields_per_row": Int64(fieldsPerRow)
        case "zip_size": zipSize
        case "zip_ratio": Int64(zipRatio)
        case "zip_entries": Int64(zipEntries)
        default: nil
        }
    }

    /// Sets a city-file key; false for an unknown key.
    public mutating func set(_ key: String, _ value: Int64) -> Bool {
        let n = Int(clamping: value)
        switch key {
        case "file_size": fileSize = value
        case "value_size": valueSize = n
        case "tags_per_element": tagsPerElement = n
        case "refs_per_element": refsPerElement = n
        case "depth": depth = n
        case "rows": rows = n
        case "fields_per_row": fieldsPerRow = n
        case "zip_size": zipSize = value
        case "zip_ratio": zipRatio = n
        case "zip_entries": zipEntries = n
        default: return false
        }
        return true
    }
}
