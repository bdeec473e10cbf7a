#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which geohash cells a radius query must read: the contract between the pack's proximity buckets and every
/// reader.
///
/// A cover is a **superset**: it holds every cell that intersects the bounding box of the query circle, so the
/// caller must still filter candidates by exact distance (``GreatCircle/distance(_:_:_:_:)``) to return exactly
/// the points within the radius.
package enum GeohashCover {
    /// Default budget of cells enumerated at one precision before the cover falls back to coarser prefixes.
    package static let defaultMaxCells = 64

    /// Absolute padding of the box in degrees (≈ 1 cm), absorbing floating-point error at its edges.
    static let padDegrees = 1e-7

    /// Cell ranges at `precision` that together contain every cell intersecting the circle's bounding box.
    ///
    /// The box spans latitude `lat ± r/R` and longitude `lon ± asin(sin(r/R) / cos lat)`; it takes the full
    /// longitude range when that is undefined (the circle contains or touches a pole, or the box reaches one), and
    /// it is split in two where it crosses the antimeridian. It is padded by about a centimetre. When more than
    /// `maxCells` cells of `precision` would be needed, the cover uses the finest coarser precision that stays
    /// within the budget and returns each coarse cell as the contiguous range of its `precision` cells. Adjacent
    /// and overlapping ranges are merged; the result is sorted and disjoint.
    /// - Parameters:
    ///   - lat: Centre latitude in degrees (clamped to ±90).
    ///   - lon: Centre longitude in degrees (any value; wrapped to −180…180).
    ///   - radius: Radius in metres, ≥ 0.
    ///   - precision: Precision of the returned cell integers, 1…12; the pack uses ``PackSchema/bucketPrecision``.
    ///   - maxCells: Cell budget per query (≥ 1); at most twice this many ranges are returned.
    /// - Returns: Sorted, disjoint, non-adjacent ranges; empty for a non-finite input or a negative radius.
    package static func cells(
        lat: Double, lon: Double, radius: Double, precision: Int = PackSchema.bucketPrecision,
        maxCells: Int = defaultMaxCells
    ) -> [ClosedRange<Int64>] {
        guard lat.isFinite, lon.isFinite, radius.isFinite, radius >= 0,
            (1...Geohash.maxPrecision).contains(precision)
        else { return [] }
        let boxes = boundingBoxes(lat: lat, lon: lon, radius: radius)
        var level = precision
        while level > 1 && cellCount(boxes, precision: level) > max(maxCells, 1) { level -= 1 }

        let shift = 5 * (precision - level)
        var starts: [Int64] = []
        starts.reserveCapacity(cellCount(boxes, precision: level))
        let bits = Geohash.bitCounts(precision: level)
        for box in boxes {
            let rows = rowRange(box.minLat, box.maxLat, bits: bits.lat)
            let cols = columnRange(box.minLon, box.maxLon, bits: bits.lon)
            for row in rows {
                for col in cols {
                    starts.append(Geohash.interleave(lonIndex: col, latIndex: row, precision: level))
                }
            }
        }
        starts.sort()
        var out: [ClosedRange<Int64>] = []
        out.reserveCapacity(starts.count)
        let width = Int64(1) << shift
        for cell in starts {
            let lo = cell << shift
            let hi = lo + width - 1
            if let last = out.last, lo <= last.upperBound + 1 {
                if hi > last.upperBound { out[out.count - 1] = last.lowerBound...hi }
            } else {
                out.append(lo...hi)
            }
        }
        return out
    }

    /// The same cover as ``cells(lat:lon:radius:precision:maxCells:)`` without allocating: `body` is called with
    /// the first and last cell of each covered range, in no particular order and without merging.
    ///
    /// This is the hot path of a proximity query on a phone (about a dozen calls for 25 m at precision 8).
    /// - Parameters: as for ``cells(lat:lon:radius:precision:maxCells:)``.
    package static func forEachRange(
        lat: Double, lon: Double, radius: Double, precision: Int = PackSchema.bucketPrecision,
        maxCells: Int = defaultMaxCells, _ body: (_ first: Int64, _ last: Int64) -> Void
    ) {
        guard lat.isFinite, lon.isFinite, radius.isFinite, radius >= 0,
            (1...Geohash.maxPrecision).contains(precision)
        else { return }
        let (count, first, second) = boxPair(lat: lat, lon: lon, radius: radius)
        // Choose the level from an upper bound of the cell count (box span ÷ cell size, plus one per axis), so
        // no grid index is computed for levels that are then rejected.
        var level = precision
        while level > 1 {
            var n = estimatedCells(first, precision: level)
            if count == 2 { n += estimatedCells(second, precision: level) }
            if n <= Double(max(maxCells, 1)) { break }
            level -= 1
        }
        let shift = 5 * (precision - level)
        let width = Int64(1) << shift
        let bits = Geohash.bitCounts(precision: level)
        for k in 0..<count {
            let box = k == 0 ? first : second
            let rows = rowRange(box.minLat, box.maxLat, bits: bits.lat)
            let cols = columnRange(box.minLon, box.maxLon, bits: bits.lon)
            for row in rows {
                for col in cols {
                    let lo = Geohash.interleave(lonIndex: col, latIndex: row, precision: level) << shift
                    body(lo, lo + width - 1)
                }
            }
        }
    }

    /// An upper bound of the cells a box touches at a precision.
    static func estimatedCells(_ box: Box, precision: Int) -> Double {
        let size = Geohash.cellSize(precision: precision)
        return (((box.maxLat - box.minLat) / size.lat).rounded(.down) + 2)
            * (((box.maxLon - box.minLon) / size.lon).rounded(.down) + 2)
    }

    package typealias Box = (minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)

    static func boxCells(_ box: Box, precision: Int) -> Int {
        let bits = Geohash.bitCounts(precision: precision)
        return rowRange(box.minLat, box.maxLat, bits: bits.lat).count
            * columnRange(box.minLon, box.maxLon, bits: bits.lon).count
    }

    /// The query box(es) in degrees: one box, or two when it crosses the antimeridian.
    /// - Parameters:
    ///   - lat: Centre latitude, degrees.
    ///   - lon: Centre longitude, degrees.
    ///   - radius: Metres, ≥ 0.
    /// - Returns: Boxes with `minLat ≤ maxLat` within ±90 and `minLon ≤ maxLon` within ±180, padded.
    package static func boundingBoxes(lat: Double, lon: Double, radius: Double)
        -> [(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)]
    {
        let (count, first, second) = boxPair(lat: lat, lon: lon, radius: radius)
        return count == 1 ? [first] : [first, second]
    }

    /// One or two boxes (count, first, second) without allocating; `second` is meaningful when count is 2.
    static func boxPair(lat: Double, lon: Double, radius: Double) -> (Int, Box, Box) {
        let degrees = 180 / Double.pi
        let lat = min(max(lat, -90), 90)
        var lon = lon.truncatingRemainder(dividingBy: 360)
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }

        let delta = radius / GreatCircle.earthRadius  // angular radius, radians
        let deltaDeg = delta * degrees
        let pad = padDegrees + deltaDeg * 1e-9
        let minLat = lat - deltaDeg - pad
        let maxLat = lat + deltaDeg + pad
        let clampedMin = max(minLat, -90)
        let clampedMax = min(maxLat, 90)
        if minLat <= -90 || maxLat >= 90 || delta >= Double.pi / 2 {
            return (1, (clampedMin, clampedMax, -180, 180), (0, 0, 0, 0))
        }
        let s = sin(delta) / cos(lat / degrees)
        guard s < 1 else { return (1, (clampedMin, clampedMax, -180, 180), (0, 0, 0, 0)) }
        let dLonRaw = asin(s) * degrees
        let dLon = dLonRaw + pad + dLonRaw * 1e-9
        guard dLon < 180 else { return (1, (clampedMin, clampedMax, -180, 180), (0, 0, 0, 0)) }
        let west = lon - dLon
        let east = lon + dLon
        if west < -180 {
            return (2, (clampedMin, clampedMax, west + 360, 180), (clampedMin, clampedMax, -180, east))
        }
        if east > 180 {
            return (2, (clampedMin, clampedMax, west, 180), (clampedMin, clampedMax, -180, east - 360))
        }
        return (1, (clampedMin, clampedMax, west, east), (0, 0, 0, 0))
    }

    // MARK: - Grid helpers

    static func cellCount(
        _ boxes: [(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)], precision: Int
    ) -> Int {
        let bits = Geohash.bitCounts(precision: precision)
        var total = 0
        for box in boxes {
            total += rowRange(box.minLat, box.maxLat, bits: bits.lat).count
                * columnRange(box.minLon, box.maxLon, bits: bits.lon).count
        }
        return total
    }

    static func rowRange(_ minLat: Double, _ maxLat: Double, bits: Int) -> ClosedRange<Int64> {
        let lo = Geohash.index(of: minLat, min: -90, span: 180, bits: bits)
        return lo...Geohash.index(of: maxLat, min: -90, span: 180, bits: bits)
    }

    static func columnRange(_ minLon: Double, _ maxLon: Double, bits: Int) -> ClosedRange<Int64> {
        let lo = Geohash.index(of: minLon, min: -180, span: 360, bits: bits)
        return lo...Geohash.index(of: maxLon, min: -180, span: 360, bits: bits)
    }
}
