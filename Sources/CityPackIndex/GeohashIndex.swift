import CityPackFormat

/// An in-memory proximity index: points sorted by their geohash cell, queried by radius.
///
/// Storage is four parallel arrays (cell, latitude, longitude, id) sorted by cell and then by insertion order, so
/// each cell range of a ``GeohashCover`` is found by binary search. Queries return exactly the points within the
/// radius by great-circle distance (``GreatCircle/distance(_:_:_:_:)``). Immutable after construction, so it is
/// `Sendable` when `ID` is; pure, no I/O.
public struct GeohashIndex<ID: Sendable>: Sendable {
    /// One query result.
    public struct Match: Sendable {
        public var id: ID
        /// Latitude in degrees.
        public var lat: Double
        /// Longitude in degrees.
        public var lon: Double
        /// Great-circle distance from the query centre in metres.
        public var distance: Double
    }

    /// Geohash precision of the stored cells.
    public let precision: Int
    /// Cells, ascending.
    public private(set) var cells: [Int64] = []
    /// Latitudes in degrees, parallel to ``cells``.
    public private(set) var lats: [Double] = []
    /// Longitudes in degrees, parallel to ``cells``.
    public private(set) var lons: [Double] = []
    /// Ids, parallel to ``cells``.
    public private(set) var ids: [ID] = []

    /// Builds the index.
    /// - Parameters:
    ///   - points: Positions in degrees with their ids. Points with a non-finite or out-of-range coordinate are
    ///     left out (they cannot be within any radius).
    ///   - precision: Cell precision, 1…12; default ``PackSchema/bucketPrecision``.
    public init(_ points: some Sequence<(lat: Double, lon: Double, id: ID)>, precision: Int = PackSchema.bucketPrecision) {
        precondition((1...Geohash.maxPrecision).contains(precision), "precision must be 1…12")
        self.precision = precision
        var rows: [(cell: Int64, order: Int, lat: Double, lon: Double, id: ID)] = []
        for (order, p) in points.enumerated() {
            guard p.lat.isFinite, p.lon.isFinite, abs(p.lat) <= 90, abs(p.lon) <= 180 else { continue }
            rows.append((Geohash.cell(lat: p.lat, lon: p.lon, precision: precision), order, p.lat, p.lon, p.id))
        }
        rows.sort { ($0.cell, $0.order) < ($1.cell, $1.order) }
        cells.reserveCapacity(rows.count)
        lats.reserveCapacity(rows.count)
        lons.reserveCapacity(rows.count)
        ids.reserveCapacity(rows.count)
        for r in rows {
            cells.append(r.cell)
            lats.append(r.lat)
            lons.append(r.lon)
            ids.append(r.id)
        }
    }

    /// Number of indexed points.
    public var count: Int { cells.count }

    /// Every point whose great-circle distance from the centre is at most `radius`, nearest first (ties in
    /// storage order: cell, then insertion order).
    /// - Parameters:
    ///   - lat: Centre latitude in degrees.
    ///   - lon: Centre longitude in degrees.
    ///   - radius: Metres; a negative or non-finite radius matches nothing.
    public func within(lat: Double, lon: Double, radius: Double) -> [Match] {
        let ranges = GeohashCover.cells(lat: lat, lon: lon, radius: radius, precision: precision)
        var out: [Match] = []
        var order: [Int] = []
        for positions in GeohashCover.positions(of: ranges, in: cells) {
            for i in positions {
                let d = GreatCircle.distance(lat, lon, lats[i], lons[i])
                if d <= radius {
                    out.append(Match(id: ids[i], lat: lats[i], lon: lons[i], distance: d))
                    order.append(i)
                }
            }
        }
        let sorted = zip(out, order).sorted { ($0.0.distance, $0.1) < ($1.0.distance, $1.1) }
        return sorted.map(\.0)
    }
}
