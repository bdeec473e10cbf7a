/// The proximity index of a pack: points sorted by (geohash cell, id), held as four parallel arrays, and the exact
/// radius query every reader answers `nearby` with.
///
/// The writer builds the index from stops (``init(_:precision:)``) and writes `stop_bucket` in index order, so one
/// cell — or one coarser geohash prefix, a contiguous range of cells — is one range scan; a reader builds the index
/// of POIs (from `poi`) and stops (from `stop_bucket`) with ``init(_:precision:)`` and queries it in memory with
/// ``within(lat:lon:radius:limit:)``. (POI buckets are not stored since pack format 2: the reader loads every
/// place at open anyway, and computing a cell costs less than storing it.)
///
/// Immutable after construction and `Sendable`; pure, no I/O.
package struct ProximityIndex: Sendable {
    /// A point to index.
    package struct Point: Sendable, Hashable {
        /// The point's id: a POI's stable id or a stop id (``PackSchema/stopID(index:)``).
        package var id: Int64
        /// Latitude in degrees.
        package var lat: Double
        /// Longitude in degrees.
        package var lon: Double

        /// A point with its id and position in degrees.
        package init(id: Int64, lat: Double, lon: Double) {
            self.id = id
            self.lat = lat
            self.lon = lon
        }
    }

    /// One result of a query.
    package struct Match: Sendable, Hashable {
        /// The point's id.
        package var id: Int64
        /// Great-circle distance from the query centre in metres.
        package var distance: Double
    }

    /// Coarse cells a query covers at most (``GeohashCover/forEachRange(lat:lon:radius:precision:maxCells:_:)``'s
    /// budget). Measured on the Liechtenstein and Monaco packs: 4 beats 64 for 25 m queries, because a binary
    /// search per range costs more than rejecting a few extra candidates by latitude.
    package static let coverCells = 4

    /// Geohash precision of ``cells`` (characters); ``PackSchema/bucketPrecision`` in a pack.
    package let precision: Int
    /// Cells, ascending; equal cells are ordered by id.
    package let cells: [Int64]
    /// Ids, parallel to ``cells``.
    package let ids: [Int64]
    /// Latitudes in degrees, parallel to ``cells``.
    package let lats: [Double]
    /// Longitudes in degrees, parallel to ``cells``.
    package let lons: [Double]

    /// Number of indexed points.
    package var count: Int { ids.count }

    /// Indexes points, as the writer does before it stores the buckets.
    /// - Parameters:
    ///   - points: Positions in degrees with their ids (unique). Points with a non-finite or out-of-range
    ///     coordinate are left out: they have no cell and cannot be within any radius.
    ///   - precision: Cell precision, 1…12; default ``PackSchema/bucketPrecision``.
    package init(_ points: some Sequence<Point>, precision: Int = PackSchema.bucketPrecision) {
        precondition((1...Geohash.maxPrecision).contains(precision), "precision must be 1…12")
        var rows: [(cell: Int64, point: Point)] = []
        for p in points where p.lat.isFinite && p.lon.isFinite && abs(p.lat) <= 90 && abs(p.lon) <= 180 {
            rows.append((Geohash.cell(lat: p.lat, lon: p.lon, precision: precision), p))
        }
        rows.sort { ($0.cell, $0.point.id) < ($1.cell, $1.point.id) }
        self.precision = precision
        cells = rows.map(\.cell)
        ids = rows.map(\.point.id)
        lats = rows.map(\.point.lat)
        lons = rows.map(\.point.lon)
    }

    /// An index of stored bucket rows, as a reader loads them (`SELECT cell, poi, lat, lon … ORDER BY cell, poi`).
    ///
    /// Rows that are not in (cell, id) order are sorted, so the index is correct whatever order they come in.
    /// - Parameters:
    ///   - cells: Each row's cell at `precision`.
    ///   - ids: Each row's id.
    ///   - lats: Each row's latitude in degrees.
    ///   - lons: Each row's longitude in degrees.
    ///   - precision: Precision of the stored cells; default ``PackSchema/bucketPrecision``.
    package init(cells: [Int64], ids: [Int64], lats: [Double], lons: [Double], precision: Int = PackSchema.bucketPrecision) {
        precondition((1...Geohash.maxPrecision).contains(precision), "precision must be 1…12")
        precondition(ids.count == cells.count && lats.count == cells.count && lons.count == cells.count,
            "the columns must have the same length")
        self.precision = precision
        let ordered = zip(cells.indices.dropFirst(), cells.indices).allSatisfy { i, previous in
            (cells[previous], ids[previous]) <= (cells[i], ids[i])
        }
        if ordered {
            (self.cells, self.ids, self.lats, self.lons) = (cells, ids, lats, lons)
        } else {
            let order = cells.indices.sorted { (cells[$0], ids[$0]) < (cells[$1], ids[$1]) }
            self.cells = order.map { cells[$0] }
            self.ids = order.map { ids[$0] }
            self.lats = order.map { lats[$0] }
            self.lons = order.map { lons[$0] }
        }
    }

    /// Every point whose great-circle distance (``GreatCircle/distance(_:_:_:_:)``) from the centre is at most
    /// `radius`, nearest first, ties by id; at most `limit` of them.
    ///
    /// Exact across cell edges, the antimeridian and the poles. The hot path of an app: an allocation-free cover
    /// of at most ``coverCells`` coarse cells, each a contiguous range of the sorted cells found by binary search,
    /// then a latitude-band test before the exact distance.
    /// - Parameters:
    ///   - lat: Centre latitude in degrees.
    ///   - lon: Centre longitude in degrees.
    ///   - radius: Metres; a negative or non-finite radius, or a non-finite centre, matches nothing.
    ///   - limit: At most this many matches (default: all); ≤ 0 matches nothing.
    package func within(lat: Double, lon: Double, radius: Double, limit: Int = .max) -> [Match] {
        guard limit > 0 else { return [] }
        var hits: [Match] = []
        // Degrees of latitude within the radius, widened by a hair so rounding never rejects a boundary point.
        let band = radius / GreatCircle.earthRadius * 180 / Double.pi * (1 + 1e-9) + 1e-9
        cells.withUnsafeBufferPointer { cells in
            lats.withUnsafeBufferPointer { lats in
                lons.withUnsafeBufferPointer { lons in
                    GeohashCover.forEachRange(
                        lat: lat, lon: lon, radius: radius, precision: precision, maxCells: Self.coverCells
                    ) { first, last in
                        var lo = 0
                        var hi = cells.count
                        while lo < hi {
                            let mid = (lo + hi) >> 1
                            if cells[mid] < first { lo = mid + 1 } else { hi = mid }
                        }
                        var i = lo
                        while i < cells.count && cells[i] <= last {
                            if abs(lats[i] - lat) <= band {
                                let d = GreatCircle.distance(lat, lon, lats[i], lons[i])
                                if d <= radius { hits.append(Match(id: ids[i], distance: d)) }
                            }
                            i += 1
                        }
                    }
                }
            }
        }
        Self.sortNearestFirst(&hits, limit: limit)
        return hits
    }

    /// The same answer as ``within(lat:lon:radius:limit:)`` by measuring the distance to every point: the
    /// reference the index is tested and benchmarked against.
    package func bruteForce(lat: Double, lon: Double, radius: Double, limit: Int = .max) -> [Match] {
        guard limit > 0 else { return [] }
        var hits: [Match] = []
        for i in ids.indices {
            let d = GreatCircle.distance(lat, lon, lats[i], lons[i])
            if d <= radius { hits.append(Match(id: ids[i], distance: d)) }
        }
        Self.sortNearestFirst(&hits, limit: limit)
        return hits
    }

    /// Sorts matches by (distance, id) and cuts them to `limit`.
    static func sortNearestFirst(_ hits: inout [Match], limit: Int) {
        if hits.count > 1 { hits.sort { ($0.distance, $0.id) < ($1.distance, $1.id) } }
        if hits.count > limit { hits.removeSubrange(limit...) }
    }
}
