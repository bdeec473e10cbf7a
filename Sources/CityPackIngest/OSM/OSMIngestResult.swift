import CityPackGeometry
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
    /// The newest element or file timestamp seen, as `YYYY-MM-DDThh:mm:ssZ`, if any: elements' `timestamp`, the root
    /// `<osm timestamp=…>` and Overpass' `<meta osm_base=…>` count alike. XML `timestamp` attributes are read
    /// by their first 14 digits as UTC (text without them, or not naming a valid time, is ignored) and PBF's in
    /// seconds; compared as times.
    public var newestTimestamp: String?
    /// The `<bounds>` element of the last file that had one.
    public var declaredBounds: BoundingBox?
    /// The box around every node with valid coordinates.
    public var dataBounds: BoundingBox?
    /// POIs placed from `type=multipolygon` relations (included in ``pois``).
    public var multipolygonPOIs = 0
    /// Every multipolygon relation assembled, when ``OSMReadOptions/assembleEveryMultipolygon`` is set.
    package var multipolygons: [MultipolygonReport] = []

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

/// What became of one multipolygon relation (conformance figures and tests).
package struct MultipolygonReport: Sendable {
    package var id: Int64
    /// Whether the profile makes the relation a POI.
    package var isPOI: Bool
    /// The closed rings found, in degrees.
    package var rings: [[Coordinate]]
    /// The point inside the rings, or the fallback member node's position; nil when left out.
    package var point: Coordinate?
    /// Whether ``point`` is inside the assembled rings (false for a member-node fallback).
    package var pointFromRings: Bool
    package var problems: [String]
}
