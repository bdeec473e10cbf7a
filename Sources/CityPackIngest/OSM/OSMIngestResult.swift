import CityPackModel

/// What the OSM ingest stage produced from all files given to one ``OSMReader``.
public struct OSMIngestResult: Sendable {
    /// POIs from nodes and ways, sorted by ``OSMRef``; one per element (the first occurrence wins).
    public var pois: [POI]
    /// Number of `<node>`, `<way>` and `<relation>` elements read (duplicates and invalid ones included).
    public var nodes: Int
    public var ways: Int
    public var relations: Int
    /// Bytes of XML parsed (after decompression for `.osm.gz`).
    public var bytesRead: Int64
    /// The newest `timestamp` attribute seen (ISO 8601 as written; compared as text), if any.
    public var newestTimestamp: String?
    /// The `<bounds>` element of the last file that had one.
    public var declaredBounds: BoundingBox?
    /// The box around every node with valid coordinates.
    public var dataBounds: BoundingBox?

    public init(
        pois: [POI] = [], nodes: Int = 0, ways: Int = 0, relations: Int = 0, bytesRead: Int64 = 0,
        newestTimestamp: String? = nil, declaredBounds: BoundingBox? = nil, dataBounds: BoundingBox? = nil
    ) {
        self.pois = pois
        self.nodes = nodes
        self.ways = ways
        self.relations = relations
        self.bytesRead = bytesRead
        self.newestTimestamp = newestTimestamp
        self.declaredBounds = declaredBounds
        self.dataBounds = dataBounds
    }
}
