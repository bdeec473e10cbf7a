/// Compact record of every element of one type seen so far: id and where it starts, in insertion order.
struct ElementTable {
    var ids: [Int64] = []
    var lines: [Int32] = []
    var columns: [Int32] = []
    var files: [UInt16] = []
    /// True while ids arrived in non-decreasing order (sorted extracts), which saves a sort.
    private(set) var nonDecreasing = true

    var count: Int { ids.count }

    mutating func append(id: Int64, line: Int32, column: Int32, file: UInt16) {
        if let last = ids.last, id < last { nonDecreasing = false }
        ids.append(id)
        lines.append(line)
        columns.append(column)
        files.append(file)
    }

    /// Appends a run of elements of one file and line whose columns count up from `firstColumn`.
    mutating func append(ids run: UnsafeBufferPointer<Int64>, line: Int32, firstColumn: Int32, file: UInt16) {
        guard let first = run.first else { return }
        if nonDecreasing {
            if let last = ids.last, first < last { nonDecreasing = false }
            var previous = first
            for id in run {
                if id < previous {
                    nonDecreasing = false
                    break
                }
                previous = id
            }
        }
        ids.append(contentsOf: run)
        lines.append(contentsOf: repeatElement(line, count: run.count))
        columns.append(contentsOf: firstColumn..<(firstColumn + Int32(run.count)))
        files.append(contentsOf: repeatElement(file, count: run.count))
    }

    /// Insertion indices in id order, keeping only the first occurrence of each id.
    ///
    /// - Parameter duplicate: Called with (first occurrence, later occurrence) for every repeated id, in id order.
    func uniqueOrder(duplicate: (Int, Int) -> Void) -> [Int32] {
        var order = (0..<Int32(ids.count)).map { $0 }
        if !nonDecreasing {
            ids.withUnsafeBufferPointer { id in
                order.sort { a, b in
                    let x = id[Int(a)], y = id[Int(b)]
                    return x < y || (x == y && a < b)
                }
            }
        }
        var unique: [Int32] = []
        unique.reserveCapacity(order.count)
        var firstOfRun = -1
        for index in order {
            let i = Int(index)
            if firstOfRun >= 0 && ids[firstOfRun] == ids[i] {
                duplicate(firstOfRun, i)
            } else {
                firstOfRun = i
                unique.append(index)
            }
        }
        return unique
    }
}

/// Node coordinates sorted by id for binary search; built once all files are read.
struct NodeIndex {
    /// Latitude value marking a node whose coordinates were invalid (already reported).
    static let invalid = Int32.min

    private(set) var ids: [Int64] = []
    private(set) var lats: [Int32] = []
    private(set) var lons: [Int32] = []

    init() {}

    /// Bucket table over the sorted ids: the nodes whose `(id - minID) >> shift` is `b` are
    /// `ids[starts[b]..<starts[b + 1]]`, so a lookup bisects one bucket (about two nodes on average) instead of all.
    private var starts: [Int32] = []
    private var minID: Int64 = 0
    private var shift: Int64 = 0

    /// Builds the index from insertion-ordered arrays and the unique id order from ``ElementTable/uniqueOrder``.
    init(order: [Int32], ids allIDs: [Int64], lats allLats: [Int32], lons allLons: [Int32]) {
        if order.count == allIDs.count && order.enumerated().allSatisfy({ $0.offset == Int($0.element) }) {
            ids = allIDs
            lats = allLats
            lons = allLons
        } else {
            ids = order.map { allIDs[Int($0)] }
            lats = order.map { allLats[Int($0)] }
            lons = order.map { allLons[Int($0)] }
        }
        buildBuckets()
    }

    /// At most about two buckets per node: the smallest shift whose buckets cover the id range in that many.
    private mutating func buildBuckets() {
        guard let first = ids.first, let last = ids.last, ids.count < Int32.max else { return }
        minID = first
        let span = UInt64(bitPattern: last &- first)
        var s: Int64 = 0
        while s < 63 && (span >> UInt64(s)) >= UInt64(2 * ids.count) { s += 1 }
        shift = s
        let buckets = Int(span >> UInt64(s)) + 1
        var table = [Int32](repeating: 0, count: buckets + 1)
        ids.withUnsafeBufferPointer { ids in
            var b = 0
            for (i, id) in ids.enumerated() {
                let bucket = Int(UInt64(bitPattern: id &- first) >> UInt64(s))
                while b <= bucket {
                    table[b] = Int32(i)
                    b += 1
                }
            }
            while b <= buckets {
                table[b] = Int32(ids.count)
                b += 1
            }
        }
        starts = table
    }

    /// Position of `id`, or nil when no node has it.
    func index(of id: Int64) -> Int? { withLookup { $0.index(of: id) } }

    /// Lookups over borrowed buffers, for hot loops (no array access per call).
    struct Lookup {
        let ids: UnsafeBufferPointer<Int64>
        let starts: UnsafeBufferPointer<Int32>
        let minID: Int64
        let shift: Int64

        /// Position of `id`, or nil. `hint` is the position of the way's previous node (-1 for none): the search
        /// gallops from there within 64 positions, else bisects the id's bucket.
        @inline(__always)
        func index(of id: Int64, near hint: Int = -1) -> Int? {
            var lo = 0
            var hi = ids.count
            var windowed = false
            if hint >= 0 && hint < ids.count {
                // Nodes of one way were mostly created together: search a window of 64 positions around the
                // previous one first (memory that is already cached), by galloping towards the id.
                let at = ids[hint]
                if at == id { return hint }
                if at < id {
                    var step = 1
                    while step <= 64 && hint + step < ids.count && ids[hint + step] < id { step <<= 1 }
                    if step <= 64 {
                        lo = hint + (step >> 1)
                        hi = min(ids.count, hint + step + 1)
                        windowed = true
                    }
                } else {
                    var step = 1
                    while step <= 64 && hint - step >= 0 && ids[hint - step] > id { step <<= 1 }
                    if step <= 64 {
                        lo = max(0, hint - step)
                        hi = hint - (step >> 1) + 1
                        windowed = true
                    }
                }
            }
            if !windowed && !starts.isEmpty {
                guard id >= minID else { return nil }
                let bucket = UInt64(bitPattern: id &- minID) >> UInt64(shift)
                guard bucket < UInt64(starts.count - 1) else { return nil }
                lo = Int(starts[Int(bucket)])
                hi = Int(starts[Int(bucket) + 1])
            }
            while lo < hi {
                let mid = (lo + hi) >> 1
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < ids.count && ids[lo] == id ? lo : nil
        }
    }

    /// Runs `body` with a ``Lookup`` over this index.
    func withLookup<R>(_ body: (Lookup) -> R) -> R {
        ids.withUnsafeBufferPointer { ids in
            starts.withUnsafeBufferPointer { starts in
                body(Lookup(ids: ids, starts: starts, minID: minID, shift: shift))
            }
        }
    }

    /// Coordinate in degrees of the node at `index`, nil when its coordinates were invalid.
    func coordinate(at index: Int) -> (lat: Double, lon: Double)? {
        lats[index] == Self.invalid ? nil : (DecimalE7.degrees(lats[index]), DecimalE7.degrees(lons[index]))
    }
}
