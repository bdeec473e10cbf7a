/// A position in one tile's coordinate space before quantisation, in tile units: 0…extent across the tile
/// (4096 by default), x east, y down (south). Points of the buffer around the tile are negative or above extent.
public struct TilePoint: Sendable, Hashable {
    /// Tile units from the tile's west edge.
    public var x: Double
    /// Tile units from the tile's north edge, growing southwards.
    public var y: Double

    /// A point from its tile units.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A quantised position in a tile, as MVT stores it: integer tile units (0…extent across the tile), y down.
public struct QuantizedPoint: Sendable, Hashable {
    /// Tile units from the tile's west edge.
    public var x: Int32
    /// Tile units from the tile's north edge, growing southwards.
    public var y: Int32

    /// A point from its integer tile units.
    @inlinable
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// Several runs of ``TilePoint``s (the parts of a multi-line, the rings of polygons) kept in one flat buffer, so a
/// feature's geometry is two arrays however many parts it has. Part `i` is `points[ends[i-1]..<ends[i]]`
/// (`ends[-1]` being 0). Polygon rings here are closed: their last point repeats their first.
public struct TileParts: Sendable, Equatable {
    /// Every part's points, one part after the other.
    public var points: ContiguousArray<TilePoint>
    /// The end index in ``points`` (exclusive) of each part, ascending.
    public var ends: ContiguousArray<Int>

    /// An empty collection of parts.
    public init() {
        points = []
        ends = []
    }

    /// Parts from their arrays of points (one part each, kept even when empty).
    public init(_ parts: [[TilePoint]]) {
        self.init()
        for part in parts {
            points.append(contentsOf: part)
            ends.append(points.count)
        }
    }

    /// Number of parts.
    @inlinable
    public var partCount: Int { ends.count }

    /// The index range in ``points`` of part `i`.
    @inlinable
    public func range(ofPart i: Int) -> Range<Int> {
        (i == 0 ? 0 : ends[i - 1])..<ends[i]
    }

    /// The points of part `i`.
    @inlinable
    public func part(_ i: Int) -> ArraySlice<TilePoint> {
        ArraySlice(points[range(ofPart: i)])
    }

    /// Ends the current part at the last point appended.
    @inlinable
    public mutating func closePart() {
        ends.append(points.count)
    }

    /// Removes every part, keeping the buffers' capacity for reuse.
    @inlinable
    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }
}

/// The MVT 2.1 geometry types (`Tile.GeomType`).
public enum TileGeometryType: UInt32, Sendable, Hashable {
    /// A point or multi-point.
    case point = 1
    /// A linestring or multi-linestring.
    case lineString = 2
    /// A polygon or multipolygon.
    case polygon = 3
}

/// A feature's geometry ready to encode: quantised points in integer tile units, in parts stored flat like
/// ``TileParts``.
///
/// - Points: one part holding every point (a multi-point is one feature).
/// - Lines: one part per linestring, each of at least 2 points.
/// - Polygons: one part per ring, open (the closing point is not repeated: MVT's ClosePath closes it), each of at
///   least 3 points; an exterior ring (positive area by the surveyor's formula in tile coordinates, y down:
///   clockwise on screen) followed by its holes (negative area), then the next polygon's exterior ring.
public struct TileGeometry: Sendable, Equatable {
    /// What the parts are.
    public var type: TileGeometryType
    /// Every part's points, one part after the other, in tile units.
    public var points: ContiguousArray<QuantizedPoint>
    /// The end index in ``points`` (exclusive) of each part, ascending.
    public var ends: ContiguousArray<Int>

    /// Geometry from its flat arrays (not checked: ``TileLayer/addFeature(id:geometry:tags:)`` checks part sizes).
    public init(type: TileGeometryType, points: ContiguousArray<QuantizedPoint>, ends: ContiguousArray<Int>) {
        self.type = type
        self.points = points
        self.ends = ends
    }

    /// Geometry from arrays of `(x, y)` tile units, one array per part (polygon rings open, as above).
    public init(type: TileGeometryType, parts: [[(Int32, Int32)]]) {
        self.init(type: type, points: [], ends: [])
        for part in parts {
            points.append(contentsOf: part.map { QuantizedPoint(x: $0.0, y: $0.1) })
            ends.append(points.count)
        }
    }

    /// Number of parts.
    @inlinable
    public var partCount: Int { ends.count }

    /// The index range in ``points`` of part `i`.
    @inlinable
    public func range(ofPart i: Int) -> Range<Int> {
        (i == 0 ? 0 : ends[i - 1])..<ends[i]
    }

    /// Whether there is nothing to draw.
    public var isEmpty: Bool { points.isEmpty }
}
