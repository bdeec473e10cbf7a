import CityPackGeometry

/// One slippy-map tile: zoom `z`, column `x` (0 at 180° W, growing east) and row `y` (0 at the top, growing south),
/// the XYZ scheme of OSM, MapLibre and PMTiles. MBTiles stores TMS rows instead: see ``tmsY`` and
/// ``init(z:x:tmsY:)``.
public struct TileID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The highest zoom a `TileID` accepts (columns and rows then still fit an `Int32`).
    public static let maxZoom = 30

    /// Zoom level, 0…``maxZoom``.
    public let z: Int
    /// Column, 0…2^z − 1, from 180° W eastwards.
    public let x: Int
    /// Row (XYZ scheme), 0…2^z − 1, from the top (85.0511° N) southwards.
    public let y: Int

    /// A tile from its zoom, column and row (XYZ scheme).
    /// - Precondition: `0 ≤ z ≤ maxZoom` and `0 ≤ x, y < 2^z`.
    public init(z: Int, x: Int, y: Int) {
        precondition(z >= 0 && z <= Self.maxZoom, "zoom \(z) out of 0…\(Self.maxZoom)")
        let n = 1 << z
        precondition(x >= 0 && x < n && y >= 0 && y < n, "tile \(z)/\(x)/\(y) out of range")
        self.z = z
        self.x = x
        self.y = y
    }

    /// A tile from an MBTiles (TMS) row: `y = 2^z − 1 − tmsY`.
    /// - Parameters:
    ///   - z: zoom, 0…``maxZoom``.
    ///   - x: column.
    ///   - tmsY: row counted from the bottom (MBTiles `tile_row`).
    public init(z: Int, x: Int, tmsY: Int) {
        self.init(z: z, x: x, y: Self.flipY(tmsY, zoom: z))
    }

    /// The tile holding a coordinate at a zoom; a coordinate on a tile edge belongs to the tile east or south of
    /// it, and 180° E and the clamped poles fall in the last column or row.
    /// - Parameters:
    ///   - coordinate: degrees (latitude clamped to ±85.0511°).
    ///   - zoom: 0…``maxZoom``.
    public init(containing coordinate: Coordinate, zoom: Int) {
        let g = WebMercator.globalTile(coordinate, zoom: zoom)
        self.init(z: zoom, x: Self.index(g.x, zoom: zoom), y: Self.index(g.y, zoom: zoom))
    }

    /// The row in the TMS scheme MBTiles uses (`tile_row`): `2^z − 1 − y`.
    public var tmsY: Int { Self.flipY(y, zoom: z) }

    /// Flips a row between the XYZ and TMS schemes (the flip is its own inverse): `2^zoom − 1 − row`.
    /// - Parameters:
    ///   - row: a row in either scheme, 0…2^zoom − 1.
    ///   - zoom: 0…``maxZoom``.
    public static func flipY(_ row: Int, zoom: Int) -> Int { (1 << zoom) - 1 - row }

    /// The tile one zoom out that holds this one, or nil at zoom 0.
    public var parent: TileID? {
        z == 0 ? nil : TileID(z: z - 1, x: x >> 1, y: y >> 1)
    }

    /// The four tiles one zoom in, in the order top-left, top-right, bottom-left, bottom-right.
    /// - Precondition: `z < maxZoom`.
    public var children: [TileID] {
        let cx = x << 1
        let cy = y << 1
        return [
            TileID(z: z + 1, x: cx, y: cy), TileID(z: z + 1, x: cx + 1, y: cy),
            TileID(z: z + 1, x: cx, y: cy + 1), TileID(z: z + 1, x: cx + 1, y: cy + 1),
        ]
    }

    /// The tile's area in degrees: west and east edges exactly, north and south through the inverse Mercator.
    public var bounds: BoundingBox {
        let n = Double(1 << z)
        return BoundingBox(
            minLon: WebMercator.longitude(worldX: Double(x) / n),
            minLat: WebMercator.latitude(worldY: Double(y + 1) / n),
            maxLon: WebMercator.longitude(worldX: Double(x + 1) / n),
            maxLat: WebMercator.latitude(worldY: Double(y) / n))
    }

    /// `z/x/y`, the order of tile URLs.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Orders by zoom, then row, then column: the order tiles are written in, deterministic.
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }

    /// The integer tile index of a global tile position, clamped to 0…2^zoom − 1 (NaN gives 0).
    static func index(_ global: Double, zoom: Int) -> Int {
        let last = (1 << zoom) - 1
        guard global > 0 else { return 0 }
        return Swift.min(Int(global.rounded(.down)), last)
    }
}

/// A rectangle of tiles at one zoom: columns `minX…maxX` and rows `minY…maxY` (XYZ rows), both inclusive. Iterates
/// row by row, west to east, north to south.
public struct TileRange: Sendable, Hashable, Sequence {
    /// Zoom level of every tile in the range.
    public let zoom: Int
    /// First column, inclusive.
    public let minX: Int
    /// Last column, inclusive.
    public let maxX: Int
    /// First (northernmost) row, inclusive, XYZ scheme.
    public let minY: Int
    /// Last (southernmost) row, inclusive, XYZ scheme.
    public let maxY: Int

    /// A range from its bounds (all inclusive).
    /// - Precondition: `minX ≤ maxX`, `minY ≤ maxY`, all within 0…2^zoom − 1.
    public init(zoom: Int, minX: Int, maxX: Int, minY: Int, maxY: Int) {
        let n = 1 << zoom
        precondition(0 <= minX && minX <= maxX && maxX < n && 0 <= minY && minY <= maxY && maxY < n, "bad range")
        self.zoom = zoom
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The tiles that a box not crossing the antimeridian overlaps at a zoom. A tile that only touches the box's
    /// east or south edge is left out; one touching its west or north edge is in (each edge belongs to one tile).
    /// A box whose `minLon > maxLon` is taken as the whole width: use ``ranges(covering:zoom:)`` for those.
    /// - Parameters:
    ///   - box: degrees; latitudes clamped to ±85.0511°.
    ///   - zoom: 0…``TileID/maxZoom``.
    public init(covering box: BoundingBox, zoom: Int) {
        let n = Double(1 << zoom)
        let west = WebMercator.worldX(longitude: box.crossesAntimeridian ? -180 : box.minLon) * n
        let east = WebMercator.worldX(longitude: box.crossesAntimeridian ? 180 : box.maxLon) * n
        let north = WebMercator.worldY(latitude: box.maxLat) * n
        let south = WebMercator.worldY(latitude: box.minLat) * n
        let minX = TileID.index(west, zoom: zoom)
        let minY = TileID.index(north, zoom: zoom)
        // The last tile is the one the far edge lies in, unless the edge is exactly on that tile's start.
        let maxX = Swift.max(minX, TileID.index(east.rounded(.up) - 1, zoom: zoom))
        let maxY = Swift.max(minY, TileID.index(south.rounded(.up) - 1, zoom: zoom))
        self.init(zoom: zoom, minX: minX, maxX: maxX, minY: minY, maxY: maxY)
    }

    /// The ranges covering a box at a zoom: one range, or two (west part first) for a box across the antimeridian.
    /// - Parameters:
    ///   - box: degrees.
    ///   - zoom: 0…``TileID/maxZoom``.
    public static func ranges(covering box: BoundingBox, zoom: Int) -> [TileRange] {
        box.unwrapped.map { TileRange(covering: $0, zoom: zoom) }
    }

    /// Number of tiles in the range.
    public var count: Int { (maxX - minX + 1) * (maxY - minY + 1) }

    /// Whether the range holds a tile (same zoom, column and row within bounds).
    public func contains(_ tile: TileID) -> Bool {
        tile.z == zoom && (minX...maxX).contains(tile.x) && (minY...maxY).contains(tile.y)
    }

    /// The same area one zoom in (twice the columns and rows).
    /// - Precondition: `zoom < TileID.maxZoom`.
    public var children: TileRange {
        TileRange(zoom: zoom + 1, minX: minX << 1, maxX: (maxX << 1) + 1, minY: minY << 1, maxY: (maxY << 1) + 1)
    }

    /// Iterates the range's tiles row by row.
    public struct Iterator: IteratorProtocol {
        let range: TileRange
        var x: Int
        var y: Int

        /// The next tile, west to east then north to south, or nil after the last.
        public mutating func next() -> TileID? {
            guard y <= range.maxY else { return nil }
            let tile = TileID(z: range.zoom, x: x, y: y)
            x += 1
            if x > range.maxX {
                x = range.minX
                y += 1
            }
            return tile
        }
    }

    /// An iterator starting at the north-west tile.
    public func makeIterator() -> Iterator { Iterator(range: self, x: minX, y: minY) }

    /// The number of tiles, for `Sequence` consumers that reserve capacity.
    public var underestimatedCount: Int { count }
}
