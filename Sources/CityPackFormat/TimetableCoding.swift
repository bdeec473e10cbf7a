/// The compact layout of `pattern` rows (``PackSchema/Pattern``), shared by the writer and both readers.
///
/// A pattern is `n` stops and `m` trips. Its three BLOBs are sequences of zigzag LEB128 varints (the web flavour
/// stores the same numbers as JSON arrays):
/// - `stops`: the `n` pack stop ids, each as the difference from the previous one (the first from 0);
/// - `trips`: the `m` pack trip ids in the pattern's order, each as the difference from the previous one;
/// - `times`: for each trip, `2n` numbers: its departure at the first stop, the dwell there (departure −
///   arrival), then per later stop the ride from the previous departure (arrival − previous departure) and the
///   dwell; every number after the first trip's is the difference from the previous trip's same number, so trips
///   that keep the same running times cost one small number each.
///
/// Pure value code; thread-safe.
package enum TimetableCoding {
    /// Appends `value` as a zigzag LEB128 varint.
    package static func appendVarint(_ value: Int64, to out: inout [UInt8]) {
        var v = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Encodes numbers as zigzag LEB128 varints.
    package static func varints(_ values: [Int64]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(values.count)
        for v in values { appendVarint(v, to: &out) }
        return out
    }

    /// Decodes zigzag LEB128 varints; nil when the bytes end inside a number or a number exceeds 64 bits.
    package static func decodeVarints(_ bytes: [UInt8]) -> [Int64]? {
        var out: [Int64] = []
        out.reserveCapacity(bytes.count)
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            guard shift < 64 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                out.append(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        return shift == 0 ? out : nil
    }

    /// Differences of consecutive ids (the first from 0), as `stops` and `trips` store them.
    package static func deltas(_ ids: [Int64]) -> [Int64] {
        var previous: Int64 = 0
        return ids.map { id in
            defer { previous = id }
            return id - previous
        }
    }

    /// Running sums: the inverse of ``deltas(_:)``.
    package static func sums(_ deltas: [Int64]) -> [Int64] {
        var total: Int64 = 0
        return deltas.map { d in
            total += d
            return total
        }
    }

    /// The `times` numbers of a pattern.
    /// - Parameters:
    ///   - arrivals: `m` trips × `n` stops, trip-major (`arrivals[k * n + i]`), seconds of the service day.
    ///   - departures: Same layout as `arrivals`.
    ///   - stopCount: `n`.
    package static func encodeTimes(arrivals: [Int64], departures: [Int64], stopCount n: Int) -> [Int64] {
        guard n > 0 else { return [] }
        let m = arrivals.count / n
        var out: [Int64] = []
        out.reserveCapacity(2 * n * m)
        var previous = [Int64](repeating: 0, count: 2 * n)
        var row = [Int64](repeating: 0, count: 2 * n)
        for k in 0..<m {
            let base = k * n
            row[0] = departures[base]
            row[1] = departures[base] - arrivals[base]
            for i in 1..<max(1, n) where i < n {
                row[2 * i] = arrivals[base + i] - departures[base + i - 1]
                row[2 * i + 1] = departures[base + i] - arrivals[base + i]
            }
            for j in 0..<(2 * n) { out.append(row[j] - previous[j]) }
            swap(&previous, &row)
        }
        return out
    }

    /// Decodes ``encodeTimes(arrivals:departures:stopCount:)``: (arrivals, departures) trip-major; nil when the
    /// count is not a multiple of `2n`.
    package static func decodeTimes(_ numbers: [Int64], stopCount n: Int) -> (arrivals: [Int64], departures: [Int64])? {
        guard n > 0, numbers.count % (2 * n) == 0 else { return n == 0 && numbers.isEmpty ? ([], []) : nil }
        let m = numbers.count / (2 * n)
        var arrivals = [Int64](repeating: 0, count: m * n)
        var departures = [Int64](repeating: 0, count: m * n)
        var row = [Int64](repeating: 0, count: 2 * n)
        for k in 0..<m {
            for j in 0..<(2 * n) { row[j] += numbers[k * 2 * n + j] }
            let base = k * n
            departures[base] = row[0]
            arrivals[base] = row[0] - row[1]
            for i in 1..<max(1, n) where i < n {
                arrivals[base + i] = departures[base + i - 1] + row[2 * i]
                departures[base + i] = arrivals[base + i] + row[2 * i + 1]
            }
        }
        return (arrivals, departures)
    }
}

/// Walking between stops as packs state it: the parameters the writer used for `footpath` and readers use for
/// walks to and from coordinates.
public enum TransitWalking {
    /// Stops of one feed closer than this (straight line, metres) get a walking footpath.
    public static let radius: Double = 400
    /// Walked distance ÷ straight-line distance.
    public static let detour: Double = 1.3
    /// Default walking speed, metres per second (4.5 km/h).
    public static let speed: Double = 1.25

    /// Walking metres between two points given in degrees: the great-circle distance × ``detour``, rounded up.
    package static func metres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Int {
        Int((GreatCircle.distance(lat1, lon1, lat2, lon2) * detour).rounded(.up))
    }

    /// Seconds to walk `metres` at `speed` metres per second, rounded up.
    package static func seconds(metres: Int, speed: Double) -> Int {
        Int((Double(metres) / speed).rounded(.up))
    }
}
