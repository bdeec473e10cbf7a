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
    }

    /// Position of `id`, or nil when no node has it.
    @inline(__always)
    func index(of id: Int64) -> Int? {
        ids.withUnsafeBufferPointer { ids in
            var lo = 0
            var hi = ids.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < ids.count && ids[lo] == id ? lo : nil
        }
    }

    /// Coordinate in degrees of the node at `index`, nil when its coordinates were invalid.
    func coordinate(at index: Int) -> (lat: Double, lon: Double)? {
        lats[index] == Self.invalid ? nil : (DecimalE7.degrees(lats[index]), DecimalE7.degrees(lons[index]))
    }
}
