/// Assembles one Mapbox Vector Tile 2.1 (`Tile` message: repeated `layers`, field 3) from ``TileLayer``s, in the
/// order they were added; layers without features are left out. The bytes are the raw protobuf (not gzipped:
/// MBTiles conventionally gzips them, PMTiles records its own compression). Deterministic: the same layers with the
/// same features in the same order give the same bytes. A value type, `Sendable`.
public struct VectorTileEncoder: Sendable {
    /// The layers added, in order (empty ones included; ``encode()`` skips them).
    public private(set) var layers: [TileLayer] = []

    /// An encoder without layers.
    public init() {}

    /// Adds a layer. A tile's layer names are unique: a layer whose name is already taken is not added.
    /// - Parameter layer: a built layer.
    /// - Returns: whether the layer was added.
    @discardableResult
    public mutating func addLayer(_ layer: TileLayer) -> Bool {
        guard !layers.contains(where: { $0.name == layer.name }) else { return false }
        layers.append(layer)
        return true
    }

    /// Whether the tile would have no layer (every layer added is empty, or none was).
    public var isEmpty: Bool { layers.allSatisfy(\.isEmpty) }

    /// The tile's protobuf bytes; an empty array when ``isEmpty``.
    public func encode() -> [UInt8] {
        var w = ProtobufWriter()
        for layer in layers where !layer.isEmpty {
            w.field(3, bytes: layer.encoded())
        }
        return w.bytes
    }
}
