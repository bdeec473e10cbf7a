import CityPackFormat
import CityPackIngest
import CityPackModel

// The build cache's layout of the OSM stage's result: each type's encode beside its decode (CacheCodec.swift has
// the primitives).

extension Coordinate: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.double(lat)
        w.double(lon)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(lat: try r.double(), lon: try r.double())
    }
}

extension BoundingBox: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        for v in array { w.double(v) }
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init(minLon: try r.double(), minLat: try r.double(), maxLon: try r.double(), maxLat: try r.double())
    }
}

extension POI: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.u8(ref.kind.rawValue)
        w.fixed(ref.id)
        w.value(coordinate)
        w.string(category)
        w.strings(alsoCategories)
        w.string(name)
        w.dictionary(localizedNames)
        w.dictionary(tags)
        w.value(location)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        guard let kind = OSMRef.Kind(rawValue: try r.u8()) else { throw CacheReader.Malformed() }
        let ref = OSMRef(kind, try r.fixed(Int64.self))
        let coordinate: Coordinate = try r.value()
        let category = try r.string()
        let also = try r.strings()
        let name = try r.optionalString()
        let names = try r.dictionary()
        let tags = try r.dictionary()
        self.init(
            ref: ref, coordinate: coordinate, category: category, name: name, localizedNames: names, tags: tags,
            location: try r.value())
        alsoCategories = also
    }
}

extension OSMIngestResult: CacheCodable {
    package func encode(to w: inout CacheWriter) {
        w.array(pois) { $0.value($1) }
        w.int(nodes)
        w.int(ways)
        w.int(relations)
        w.fixed(bytesRead)
        w.string(newestTimestamp)
        w.optional(declaredBounds) { $0.value($1) }
        w.optional(dataBounds) { $0.value($1) }
        w.int(multipolygonPOIs)
    }

    package init(from r: inout CacheReader) throws(CacheReader.Malformed) {
        self.init()
        pois = try r.array { r throws(CacheReader.Malformed) in try r.value(POI.self) }
        nodes = try r.int()
        ways = try r.int()
        relations = try r.int()
        bytesRead = try r.fixed(Int64.self)
        newestTimestamp = try r.optionalString()
        declaredBounds = try r.optional { r throws(CacheReader.Malformed) in try r.value(BoundingBox.self) }
        dataBounds = try r.optional { r throws(CacheReader.Malformed) in try r.value(BoundingBox.self) }
        multipolygonPOIs = try r.int()
    }
}

extension CacheWriter {
    /// The OSM stage's result (what the stage cache stores for `ingestOSM`).
    package mutating func osm(_ result: OSMIngestResult) { value(result) }
}

extension CacheReader {
    /// What ``CacheWriter/osm(_:)`` wrote.
    package mutating func osm() throws(Malformed) -> OSMIngestResult { try value() }
}
