import CityPackGeometry

/// Maps world positions into one tile's coordinate space and gives the box geometry is clipped to: the tile plus a
/// buffer on every side, so lines and polygon edges running out of the tile are drawn to its edge without seams.
///
/// All work before quantisation is done in `Double` tile units (``TilePoint``): clipping, simplification and the
/// intersections clipping creates keep their fractions, and only ``TileGeometryBuilder`` rounds to integers once,
/// at the end. A value type, `Sendable`; nothing is cached.
public struct TileProjection: Sendable, Hashable {
    /// The tile projected into.
    public let tile: TileID
    /// Tile units per tile side (MVT `extent`). Default 4096.
    public let extent: Int
    /// Tile units kept around the tile on every side when clipping. Default 64 (1/64 of a 4096 tile).
    public let buffer: Double

    /// A projection into one tile.
    /// - Parameters:
    ///   - tile: the tile.
    ///   - extent: tile units per side, default 4096; must be positive.
    ///   - buffer: tile units kept around the tile, default 64; must be ≥ 0.
    public init(tile: TileID, extent: Int = 4096, buffer: Double = 64) {
        precondition(extent > 0 && buffer >= 0, "extent must be positive and buffer non-negative")
        self.tile = tile
        self.extent = extent
        self.buffer = buffer
        let n = Double(1 << tile.z)
        scale = n * Double(extent)
        offsetX = Double(tile.x) * Double(extent)
        offsetY = Double(tile.y) * Double(extent)
    }

    /// World units to tile units: `2^z × extent`.
    @usableFromInline let scale: Double
    /// The tile's west edge in global tile units.
    @usableFromInline let offsetX: Double
    /// The tile's north edge in global tile units.
    @usableFromInline let offsetY: Double

    /// The tile-space position of a world point (may lie outside the tile).
    @inlinable
    public func project(_ w: WorldPoint) -> TilePoint {
        TilePoint(x: w.x * scale - offsetX, y: w.y * scale - offsetY)
    }

    /// The tile-space position of a WGS 84 coordinate (latitude clamped to ±85.0511°).
    @inlinable
    public func project(_ c: Coordinate) -> TilePoint {
        project(WorldPoint(c))
    }

    /// Appends the projection of each world point to `parts.points` and closes one part after them.
    /// - Parameters:
    ///   - points: the part's points, world fractions.
    ///   - parts: where the projected part is appended.
    @inlinable
    public func appendPart<C: Collection>(_ points: C, to parts: inout TileParts) where C.Element == WorldPoint {
        parts.points.reserveCapacity(parts.points.count + points.count)
        for w in points { parts.points.append(project(w)) }
        parts.closePart()
    }

    /// Appends the projection of each coordinate to `parts.points` and closes one part after them.
    /// - Parameters:
    ///   - coordinates: the part's points, degrees.
    ///   - parts: where the projected part is appended.
    @inlinable
    public func appendPart<C: Collection>(_ coordinates: C, to parts: inout TileParts) where C.Element == Coordinate {
        parts.points.reserveCapacity(parts.points.count + coordinates.count)
        for c in coordinates { parts.points.append(project(c)) }
        parts.closePart()
    }

    /// The clip box: the tile, `0…extent` on both axes, grown by ``buffer`` on every side.
    public var clipBox: TileClipBox {
        TileClipBox(minX: -buffer, minY: -buffer, maxX: Double(extent) + buffer, maxY: Double(extent) + buffer)
    }
}
