/// A geohash cell: a rectangle of latitude/longitude at a given precision, identified by an integer.
///
/// Precision `p` (characters, 1…12) uses `5p` bits, interleaved longitude first: bit 1 (the most significant of
/// the `5p`) halves longitude, bit 2 halves latitude, and so on. Longitude gets `⌈5p/2⌉` bits, latitude `⌊5p/2⌋`.
/// The integer ``cell`` is those bits read as an unsigned number, so every cell of a coarser prefix is one
/// contiguous integer range of finer cells (see ``range(atPrecision:)``), and sorting by cell clusters space.
/// The base-32 ``string`` is the usual geohash text (`57.64911, 10.40744` → `u4pruydqqvj`).
///
/// Cells are half-open: a point on a boundary belongs to the cell above/east of it, except that latitude 90°
/// and longitude 180° belong to the last row/column. Coordinates are in degrees (WGS 84, treated as a plain
/// latitude/longitude grid). A value type, `Sendable`; all members are pure.
package struct Geohash: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The geohash base-32 alphabet (no `a`, `i`, `l`, `o`).
    package static let alphabet: [Character] = Array("0123456789bcdefghjkmnpqrstuvwxyz")
    /// The finest supported precision (60 bits fit an `Int64`).
    package static let maxPrecision = 12

    /// The cell's bits as an integer in `0 ..< 2^(5 × precision)`.
    package let cell: Int64
    /// Characters of the geohash, 1…``maxPrecision``.
    package let precision: Int

    /// The cell with the given integer at the given precision.
    /// - Parameters:
    ///   - cell: An integer in `0 ..< 2^(5 × precision)`.
    ///   - precision: 1…``maxPrecision``.
    /// - Returns: nil when either is out of range.
    package init?(cell: Int64, precision: Int) {
        guard (1...Self.maxPrecision).contains(precision), cell >= 0, cell < Int64(1) << (5 * precision) else {
            return nil
        }
        self.cell = cell
        self.precision = precision
    }

    /// The cell containing a point.
    /// - Parameters:
    ///   - lat: Latitude in degrees; clamped to −90…90.
    ///   - lon: Longitude in degrees; clamped to −180…180 (not wrapped).
    ///   - precision: Characters, 1…``maxPrecision`` (clamped).
    ///   A NaN coordinate is treated as the axis minimum; validate coordinates first.
    package init(lat: Double, lon: Double, precision: Int) {
        let p = min(max(precision, 1), Self.maxPrecision)
        let bits = Self.bitCounts(precision: p)
        let latIndex = Self.index(of: lat, min: -90, span: 180, bits: bits.lat)
        let lonIndex = Self.index(of: lon, min: -180, span: 360, bits: bits.lon)
        self.cell = Self.interleave(lonIndex: lonIndex, latIndex: latIndex, precision: p)
        self.precision = p
    }

    /// Parses a geohash string (case-insensitive).
    /// - Returns: nil when it is empty, longer than ``maxPrecision`` or has a character outside ``alphabet``.
    package init?(_ text: some StringProtocol) {
        guard !text.isEmpty, text.count <= Self.maxPrecision else { return nil }
        var value: Int64 = 0
        for ch in text.lowercased() {
            guard let digit = Self.alphabet.firstIndex(of: ch) else { return nil }
            value = value << 5 | Int64(digit)
        }
        self.cell = value
        self.precision = text.count
    }

    /// The base-32 geohash of a point.
    /// - Parameters:
    ///   - lat: Latitude in degrees.
    ///   - lon: Longitude in degrees.
    ///   - precision: Characters, 1…12.
    package static func encode(lat: Double, lon: Double, precision: Int) -> String {
        Geohash(lat: lat, lon: lon, precision: precision).string
    }

    /// The integer cell of a point (see the type's documentation for the bit layout).
    /// - Parameters:
    ///   - lat: Latitude in degrees.
    ///   - lon: Longitude in degrees.
    ///   - precision: Characters, 1…12; the pack uses `PackSchema.bucketPrecision` (CityPackFormat).
    package static func cell(lat: Double, lon: Double, precision: Int) -> Int64 {
        Geohash(lat: lat, lon: lon, precision: precision).cell
    }

    /// The base-32 text, ``precision`` characters.
    package var string: String {
        var chars = [Character]()
        chars.reserveCapacity(precision)
        for i in stride(from: precision - 1, through: 0, by: -1) {
            chars.append(Self.alphabet[Int((cell >> (5 * i)) & 31)])
        }
        return String(chars)
    }

    package var description: String { string }

    /// Number of latitude and longitude bits at a precision.
    package static func bitCounts(precision: Int) -> (lat: Int, lon: Int) {
        let total = 5 * precision
        return (lat: total / 2, lon: total - total / 2)
    }

    /// Row (latitude index, 0 = southmost) and column (longitude index, 0 = at −180°) of the cell.
    package var indices: (lat: Int64, lon: Int64) {
        Self.deinterleave(cell, precision: precision)
    }

    /// The cell at a row and column of the grid of a precision; nil when either is out of range.
    /// - Parameters:
    ///   - latIndex: Row, `0 ..< 2^latBits`.
    ///   - lonIndex: Column, `0 ..< 2^lonBits`.
    ///   - precision: 1…12.
    package init?(latIndex: Int64, lonIndex: Int64, precision: Int) {
        guard (1...Self.maxPrecision).contains(precision) else { return nil }
        let bits = Self.bitCounts(precision: precision)
        guard latIndex >= 0, latIndex < Int64(1) << bits.lat, lonIndex >= 0, lonIndex < Int64(1) << bits.lon else {
            return nil
        }
        self.cell = Self.interleave(lonIndex: lonIndex, latIndex: latIndex, precision: precision)
        self.precision = precision
    }

    /// The cell's rectangle in degrees: `minLat ≤ lat < maxLat`, `minLon ≤ lon < maxLon`.
    package var bounds: (minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
        let bits = Self.bitCounts(precision: precision)
        let (i, j) = indices
        return (
            minLat: Self.boundary(i, min: -90, span: 180, bits: bits.lat),
            minLon: Self.boundary(j, min: -180, span: 360, bits: bits.lon),
            maxLat: Self.boundary(i + 1, min: -90, span: 180, bits: bits.lat),
            maxLon: Self.boundary(j + 1, min: -180, span: 360, bits: bits.lon)
        )
    }

    /// The centre of the cell in degrees.
    package var center: (lat: Double, lon: Double) {
        let b = bounds
        return (lat: (b.minLat + b.maxLat) / 2, lon: (b.minLon + b.maxLon) / 2)
    }

    /// Cell height and width in degrees at a precision.
    package static func cellSize(precision: Int) -> (lat: Double, lon: Double) {
        let bits = bitCounts(precision: precision)
        return (lat: 180 / Double(Int64(1) << bits.lat), lon: 360 / Double(Int64(1) << bits.lon))
    }

    /// The cell `latSteps` rows north and `lonSteps` columns east of this one, at the same precision.
    ///
    /// Longitude wraps around the antimeridian; latitude does not wrap over a pole.
    /// - Returns: nil when the row would be beyond a pole.
    package func neighbor(latSteps: Int, lonSteps: Int) -> Geohash? {
        let bits = Self.bitCounts(precision: precision)
        let (i, j) = indices
        let row = i + Int64(latSteps)
        guard row >= 0, row < Int64(1) << bits.lat else { return nil }
        let columns = Int64(1) << bits.lon
        var col = (j + Int64(lonSteps)) % columns
        if col < 0 { col += columns }
        return Geohash(latIndex: row, lonIndex: col, precision: precision)
    }

    /// The up to 8 adjacent cells, in the order N, NE, E, SE, S, SW, W, NW; cells beyond a pole are left out,
    /// and a cell that would repeat (only possible at precision 1, whose grid has 8 columns) appears once.
    package var neighbors: [Geohash] {
        let steps = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
        var out: [Geohash] = []
        for (dLat, dLon) in steps {
            if let n = neighbor(latSteps: dLat, lonSteps: dLon), n != self, !out.contains(n) { out.append(n) }
        }
        return out
    }

    /// The enclosing cell at a coarser (or equal) precision: the first `precision` characters.
    /// - Precondition: `1 ≤ precision ≤ self.precision`.
    package func parent(precision coarser: Int) -> Geohash {
        precondition(coarser >= 1 && coarser <= precision, "parent precision must be 1…\(precision)")
        return Geohash(cell: cell >> (5 * (precision - coarser)), precision: coarser)!
    }

    /// The contiguous range of cell integers at a finer (or equal) precision covered by this cell.
    /// - Precondition: `self.precision ≤ finer ≤ maxPrecision`.
    package func range(atPrecision finer: Int) -> ClosedRange<Int64> {
        precondition(finer >= precision && finer <= Self.maxPrecision, "finer precision must be \(precision)…12")
        let shift = 5 * (finer - precision)
        return (cell << shift)...(((cell + 1) << shift) - 1)
    }

    package static func < (lhs: Geohash, rhs: Geohash) -> Bool {
        (lhs.precision, lhs.cell) < (rhs.precision, rhs.cell)
    }

    // MARK: - Bit arithmetic

    /// Lower edge of grid line `index` on an axis: exact, because `span × index / 2^bits` is a dyadic multiple of
    /// 45 that fits a double's mantissa.
    @inline(__always)
    package static func boundary(_ index: Int64, min: Double, span: Double, bits: Int) -> Double {
        // `span / 2^bits` is exact (a power-of-two scaling), so this is the same single rounding as
        // `span × index / 2^bits`, without a division.
        min + Double(index) * (span * Double(sign: .plus, exponent: -bits, significand: 1))
    }

    /// The grid index of a value: the same answer as bisecting the range `bits` times with `value ≥ mid → 1`.
    package static func index(of value: Double, min: Double, span: Double, bits: Int) -> Int64 {
        let count = Int64(1) << bits
        let v = value.isNaN ? min : Swift.min(Swift.max(value, min), min + span)
        var i = Int64(((v - min) * (Double(count) / span)).rounded(.down))
        i = Swift.min(Swift.max(i, 0), count - 1)
        // Correct the floating-point estimate against the exact grid lines.
        while i > 0 && v < boundary(i, min: min, span: span, bits: bits) { i -= 1 }
        while i < count - 1 && v >= boundary(i + 1, min: min, span: span, bits: bits) { i += 1 }
        return i
    }

    /// Interleaves row and column bits, longitude first (Morton order with the axis of the top bit fixed).
    package static func interleave(lonIndex: Int64, latIndex: Int64, precision: Int) -> Int64 {
        let lon = spread(UInt64(lonIndex))
        let lat = spread(UInt64(latIndex))
        // With an even bit count the last bit is latitude; with an odd count it is longitude.
        let bits = (5 * precision) % 2 == 0 ? (lon << 1 | lat) : (lat << 1 | lon)
        return Int64(bitPattern: bits)
    }

    package static func deinterleave(_ cell: Int64, precision: Int) -> (lat: Int64, lon: Int64) {
        let bits = UInt64(bitPattern: cell)
        if (5 * precision) % 2 == 0 {
            return (lat: Int64(compact(bits)), lon: Int64(compact(bits >> 1)))
        } else {
            return (lat: Int64(compact(bits >> 1)), lon: Int64(compact(bits)))
        }
    }

    /// Moves bit k of a 32-bit value to bit 2k.
    @inline(__always)
    package static func spread(_ value: UInt64) -> UInt64 {
        var x = value & 0xFFFF_FFFF
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x << 2) & 0x3333_3333_3333_3333
        x = (x | x << 1) & 0x5555_5555_5555_5555
        return x
    }

    /// Inverse of ``spread(_:)``: gathers bits 0, 2, 4, … into bits 0, 1, 2, ….
    @inline(__always)
    package static func compact(_ value: UInt64) -> UInt64 {
        var x = value & 0x5555_5555_5555_5555
        x = (x | x >> 1) & 0x3333_3333_3333_3333
        x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF
        x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF
        x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF
        return x
    }
}
