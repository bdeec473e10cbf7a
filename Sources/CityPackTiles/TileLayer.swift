/// One MVT 2.1 layer being built: its name, extent, and features whose tags are deduplicated into the layer's
/// `keys` and `values` tables in first-seen order. Features are encoded as they are added (the layer keeps their
/// bytes, not the geometry), so memory stays that of the output. Same features in the same order give the same
/// bytes. A value type, `Sendable`; build one per tile and layer.
public struct TileLayer: Sendable {
    /// The layer's name (`Tile.Layer.name`), unique within a tile.
    public let name: String
    /// Tile units per tile side (`Tile.Layer.extent`), 4096 by default.
    public let extent: UInt32
    /// Features added so far.
    public private(set) var featureCount = 0

    /// Key strings in first-seen order; a tag's key index points here.
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    /// Values in first-seen order; a tag's value index points here.
    private var values: [EncodedValue] = []
    private var valueIndex: [EncodedValue: UInt32] = [:]
    /// The encoded features (field 2 of the layer, key and length included), one after the other.
    private var features = ProtobufWriter()
    /// Reused per feature: its tag indices, its command integers and its message body.
    private var tags: [UInt32] = []
    private var commands: [UInt32] = []
    private var feature = ProtobufWriter()

    /// An empty layer.
    /// - Parameters:
    ///   - name: the layer's name (e.g. OpenMapTiles' `transportation`).
    ///   - extent: tile units per side, default 4096; the geometry added must be in the same units.
    public init(name: String, extent: UInt32 = 4096) {
        self.name = name
        self.extent = extent
    }

    /// Whether no feature has been added (an empty layer is not written into a tile).
    public var isEmpty: Bool { featureCount == 0 }

    /// Number of distinct keys in the layer's table.
    public var keyCount: Int { keys.count }
    /// Number of distinct values in the layer's table.
    public var valueCount: Int { values.count }

    /// Adds a feature. Nothing is added, and false returned, when the geometry has no part or a part too short for
    /// its type (a line under 2 points, a ring under 3): ``TileGeometryBuilder`` never returns such geometry.
    /// - Parameters:
    ///   - id: the feature's `id` (written only when given).
    ///   - geometry: quantised in this layer's extent, polygon rings already wound (see ``TileGeometry``).
    ///   - tags: attributes in the order to write them; a key given twice keeps its first value.
    /// - Returns: whether the feature was added.
    @discardableResult
    public mutating func addFeature(id: UInt64? = nil, geometry: TileGeometry, tags: [(String, TileValue)] = []) -> Bool {
        guard Self.isEncodable(geometry) else { return false }
        self.tags.removeAll(keepingCapacity: true)
        for (key, value) in tags {
            let k = index(ofKey: key)
            if self.tags.count > 0, Self.hasKey(k, in: self.tags) { continue }
            self.tags.append(k)
            self.tags.append(index(ofValue: value.encodedKey))
        }
        commands.removeAll(keepingCapacity: true)
        GeometryCommands.encode(geometry, into: &commands)

        feature.bytes.removeAll(keepingCapacity: true)
        if let id { feature.field(1, varint: id) }
        feature.packed(2, self.tags)
        feature.field(3, varint: UInt64(geometry.type.rawValue))
        feature.packed(4, commands)
        features.field(2, bytes: feature.bytes)
        featureCount += 1
        return true
    }

    /// Adds a feature whose tags come from a dictionary, written in key order (so the output does not depend on
    /// the dictionary's order). See ``addFeature(id:geometry:tags:)``.
    @discardableResult
    public mutating func addFeature(id: UInt64? = nil, geometry: TileGeometry, tags: [String: TileValue]) -> Bool {
        addFeature(id: id, geometry: geometry, tags: tags.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The `Tile.Layer` message body: name (1), features (2), keys (3), values (4), extent (5), version 2 (15).
    public func encoded() -> [UInt8] {
        var w = ProtobufWriter()
        w.bytes.reserveCapacity(features.bytes.count + 64 + keys.count * 16 + values.count * 12)
        w.field(1, string: name)
        w.bytes.append(contentsOf: features.bytes)
        for key in keys { w.field(3, string: key) }
        var value = ProtobufWriter()
        for v in values {
            value.bytes.removeAll(keepingCapacity: true)
            v.write(to: &value)
            w.field(4, bytes: value.bytes)
        }
        w.field(5, varint: UInt64(extent))
        w.field(15, varint: 2)
        return w.bytes
    }

    /// The key table index of a key, adding it when new.
    private mutating func index(ofKey key: String) -> UInt32 {
        if let i = keyIndex[key] { return i }
        let i = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = i
        return i
    }

    /// The value table index of a value, adding it when new.
    private mutating func index(ofValue value: EncodedValue) -> UInt32 {
        if let i = valueIndex[value] { return i }
        let i = UInt32(values.count)
        values.append(value)
        valueIndex[value] = i
        return i
    }

    /// Whether a key index is already among the even positions of a tag list.
    private static func hasKey(_ key: UInt32, in tags: [UInt32]) -> Bool {
        var i = 0
        while i < tags.count {
            if tags[i] == key { return true }
            i += 2
        }
        return false
    }

    /// Whether every part is long enough for the geometry's type and there is at least one.
    static func isEncodable(_ g: TileGeometry) -> Bool {
        guard g.partCount > 0, g.ends.last == g.points.count else { return false }
        let minimum = switch g.type {
        case .point: 1
        case .lineString: 2
        case .polygon: 3
        }
        var start = 0
        for end in g.ends {
            if end - start < minimum { return false }
            start = end
        }
        return true
    }
}
