/// OSM ids, each with the set of regions (bits 0…63 of a mask) it belongs to: the bookkeeping of
/// ``OSMRegionReader``, which asks it once per way node reference of a whole country file.
///
/// Almost every lookup is a miss (a country's references mostly lie outside every city), so a dense two-level
/// bitset answers "is the id here at all" first: one bit per id in 128-byte chunks of 1 024 ids, allocated only for
/// the chunks that hold an id (as osmium's `IdSetDense`). Ids close in number were created together, mostly in one
/// place, so a chunk usually holds ids of one region set: its mask is stored once, beside the chunk. Only the
/// ids of chunks that mix region sets (and ids beyond the dense range) go to an open-addressing hash table.
/// Everything grows with the ids stored — the cities' elements — never with the file.
struct RegionIDMap {
    /// Ids per chunk: 2¹⁰, 16 words of 64 bits (small, so that few chunks straddle two regions' runs of ids).
    private static let chunkShift = 10
    private static let wordsPerChunk = 1 << (chunkShift - 6)
    /// Ids at or above this (and negative ids, which editors' files use for new objects) skip the bitset.
    private static let denseLimit: Int64 = 1 << 40

    /// Chunks per page of the top level: a page (2²⁰ ids) is a table of 1 024 chunk slots, made when first
    /// touched, so real OSM ids (up to ~10¹⁰) cost a few pages, not a table over the whole id range.
    private static let pageShift = 10
    /// Page index of `id >> (chunkShift + pageShift)`, or -1.
    private var pages: [Int32] = []
    /// Chunk slot of each chunk of each page (`page * 1024 + chunk % 1024`), or -1.
    private var pageSlots: [Int32] = []
    /// The chunks' words, one chunk after the other.
    private var words: [UInt64] = []
    /// Per chunk slot: the mask of every id in it, unless the chunk is mixed (its ids are in the table).
    private var chunkMasks: [UInt64] = []
    private var chunkMixed: [Bool] = []
    /// Open addressing, linear probing; `Int64.min` marks an empty slot.
    private var keys: [Int64]
    private var masks: [UInt64]
    private var tableCount = 0
    /// Distinct ids stored.
    private(set) var count = 0

    init() {
        keys = [Int64](repeating: .min, count: 1024)
        masks = [UInt64](repeating: 0, count: 1024)
    }

    /// Whether no id is stored.
    var isEmpty: Bool { count == 0 }

    /// The regions of `id`; 0 when it belongs to none.
    @inline(__always)
    func mask(of id: Int64) -> UInt64 {
        guard id >= 0 && id < Self.denseLimit else { return lookup(id) }
        let slot = chunkSlot(Int(id >> Int64(Self.chunkShift)))
        guard slot >= 0 else { return 0 }
        let bit = Int(id & Int64((1 << Self.chunkShift) - 1))
        guard words[slot * Self.wordsPerChunk + bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return 0 }
        return chunkMixed[slot] ? lookup(id) : chunkMasks[slot]
    }

    /// The slot of chunk `chunk`, or -1.
    @inline(__always)
    private func chunkSlot(_ chunk: Int) -> Int {
        let page = chunk >> Self.pageShift
        guard page < pages.count else { return -1 }
        let p = Int(pages[page])
        guard p >= 0 else { return -1 }
        return Int(pageSlots[p << Self.pageShift | chunk & ((1 << Self.pageShift) - 1)])
    }

    /// Adds the regions of `mask` to `id`'s.
    mutating func insert(_ id: Int64, _ mask: UInt64) {
        guard mask != 0, id != .min else { return }
        guard id >= 0 && id < Self.denseLimit else {
            if tableInsert(id, mask) { count += 1 }
            return
        }
        let chunk = Int(id >> Int64(Self.chunkShift))
        let page = chunk >> Self.pageShift
        if page >= pages.count {
            pages.append(contentsOf: repeatElement(-1, count: max(page + 1 - pages.count, pages.count)))
        }
        if pages[page] < 0 {
            pages[page] = Int32(pageSlots.count >> Self.pageShift)
            pageSlots.append(contentsOf: repeatElement(-1, count: 1 << Self.pageShift))
        }
        let entry = Int(pages[page]) << Self.pageShift | chunk & ((1 << Self.pageShift) - 1)
        if pageSlots[entry] < 0 {
            pageSlots[entry] = Int32(chunkMasks.count)
            words.append(contentsOf: repeatElement(0, count: Self.wordsPerChunk))
            chunkMasks.append(mask)
            chunkMixed.append(false)
        }
        let slot = Int(pageSlots[entry])
        let bit = Int(id & Int64((1 << Self.chunkShift) - 1))
        let w = slot * Self.wordsPerChunk + bit >> 6
        let isNew = words[w] & (1 << UInt64(bit & 63)) == 0
        if !chunkMixed[slot] && chunkMasks[slot] != mask {
            // A second region set in this chunk: its ids move to the table with the chunk's mask.
            let old = chunkMasks[slot]
            let base = Int64(chunk) << Int64(Self.chunkShift)
            for k in 0..<Self.wordsPerChunk {
                var word = words[slot * Self.wordsPerChunk + k]
                while word != 0 {
                    _ = tableInsert(base + Int64(k * 64 + word.trailingZeroBitCount), old)
                    word &= word - 1
                }
            }
            chunkMixed[slot] = true
        }
        words[w] |= 1 << UInt64(bit & 63)
        if chunkMixed[slot] { _ = tableInsert(id, mask) }
        if isNew { count += 1 }
    }

    /// Whether any id in `lo...hi` may be stored (exact for the dense range, conservative beyond it).
    func mayContain(from lo: Int64, through hi: Int64) -> Bool {
        guard lo <= hi else { return false }
        if lo < 0 || hi >= Self.denseLimit { return !isEmpty }
        var chunk = Int(lo >> Int64(Self.chunkShift))
        let lastChunk = Int(hi >> Int64(Self.chunkShift))
        let chunkLimit = pages.count << Self.pageShift
        while chunk <= lastChunk && chunk < chunkLimit {
            let slot = chunkSlot(chunk)
            if slot >= 0 {
                let base = Int64(chunk) << Int64(Self.chunkShift)
                let first = Int(max(lo, base) - base), last = Int(min(hi, base + Int64(1 << Self.chunkShift) - 1) - base)
                var w = first >> 6
                while w <= last >> 6 {
                    var word = words[slot * Self.wordsPerChunk + w]
                    if w == first >> 6 { word &= ~0 << UInt64(first & 63) }
                    if w == last >> 6 && (last & 63) != 63 { word &= (1 << UInt64((last & 63) + 1)) - 1 }
                    if word != 0 { return true }
                    w += 1
                }
            }
            chunk += 1
        }
        return false
    }

    @inline(__always)
    private func lookup(_ id: Int64) -> UInt64 {
        var i = Self.slot(id, keys.count)
        while true {
            let key = keys[i]
            if key == id { return masks[i] }
            if key == .min { return 0 }
            i = (i + 1) & (keys.count - 1)
        }
    }

    /// ORs `mask` into the table's entry for `id`; true when the id is new to the table.
    private mutating func tableInsert(_ id: Int64, _ mask: UInt64) -> Bool {
        if (tableCount + 1) * 2 > keys.count { grow() }
        var i = Self.slot(id, keys.count)
        while true {
            let key = keys[i]
            if key == id {
                masks[i] |= mask
                return false
            }
            if key == .min {
                keys[i] = id
                masks[i] = mask
                tableCount += 1
                return true
            }
            i = (i + 1) & (keys.count - 1)
        }
    }

    @inline(__always)
    private static func slot(_ id: Int64, _ capacity: Int) -> Int {
        // Fibonacci hashing: ids of one chunk of the file are consecutive, the multiplier spreads them.
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 20) & (capacity - 1)
    }

    private mutating func grow() {
        let (oldKeys, oldMasks) = (keys, masks)
        keys = [Int64](repeating: .min, count: oldKeys.count * 2)
        masks = [UInt64](repeating: 0, count: oldKeys.count * 2)
        for i in oldKeys.indices where oldKeys[i] != .min {
            var j = Self.slot(oldKeys[i], keys.count)
            while keys[j] != .min { j = (j + 1) & (keys.count - 1) }
            keys[j] = oldKeys[i]
            masks[j] = oldMasks[i]
        }
    }
}

/// Which regions' boxes hold a point: a coarse grid over the union of the boxes, each cell listing the regions
/// whose box meets it, so a node far from every city costs one cell lookup.
struct RegionGrid: Sendable {
    private let boxes: [(minLat: Int32, maxLat: Int32, minLon: Int32, maxLon: Int32)]
    private let crossing: [Bool]
    private let minLat: Int64, minLon: Int64, cellLat: Int64, cellLon: Int64
    private let rows: Int, cols: Int
    private var cells: [UInt64]
    /// True when some box crosses the antimeridian: the grid then covers every longitude.
    private let wraps: Bool

    /// - Parameter boxes: Up to 64 boxes in 1e-7 degrees (minLat, minLon, maxLat, maxLon); minLon > maxLon
    ///   crosses the antimeridian.
    init(boxes: [(minLat: Int32, minLon: Int32, maxLat: Int32, maxLon: Int32)]) {
        precondition(boxes.count <= 64)
        self.boxes = boxes.map { ($0.minLat, $0.maxLat, $0.minLon, $0.maxLon) }
        crossing = boxes.map { $0.minLon > $0.maxLon }
        wraps = crossing.contains(true)
        let lo = boxes.map { Int64($0.minLat) }.min() ?? 0, hi = boxes.map { Int64($0.maxLat) }.max() ?? 0
        let west: Int64 = wraps ? -1_800_000_000 : (boxes.map { Int64($0.minLon) }.min() ?? 0)
        let east: Int64 = wraps ? 1_800_000_000 : (boxes.map { Int64($0.maxLon) }.max() ?? 0)
        rows = 256
        cols = 256
        minLat = lo
        minLon = west
        cellLat = max(1, (hi - lo) / Int64(rows) + 1)
        cellLon = max(1, (east - west) / Int64(cols) + 1)
        cells = [UInt64](repeating: 0, count: rows * cols)
        for (r, box) in boxes.enumerated() {
            let r0 = Int((Int64(box.minLat) - lo) / cellLat), r1 = Int((Int64(box.maxLat) - lo) / cellLat)
            let spans: [(Int64, Int64)] =
                box.minLon <= box.maxLon
                ? [(Int64(box.minLon), Int64(box.maxLon))]
                : [(Int64(box.minLon), Int64(1_800_000_000)), (Int64(-1_800_000_000), Int64(box.maxLon))]
            for (w, e) in spans {
                let c0 = Int((w - west) / cellLon), c1 = Int((e - west) / cellLon)
                for row in max(0, r0)...min(rows - 1, r1) {
                    for col in max(0, c0)...min(cols - 1, c1) { cells[row * cols + col] |= 1 << UInt64(r) }
                }
            }
        }
    }

    /// The regions whose box holds the point (edges included).
    @inline(__always)
    func mask(latE7 lat: Int64, lonE7 lon: Int64) -> UInt64 {
        let dLat = lat - minLat, dLon = lon - minLon
        guard dLat >= 0, dLon >= 0 else { return 0 }
        let row = Int(dLat / cellLat), col = Int(dLon / cellLon)
        guard row < rows, col < cols else { return 0 }
        var candidates = cells[row * cols + col]
        var mask: UInt64 = 0
        while candidates != 0 {
            let r = candidates.trailingZeroBitCount
            candidates &= candidates - 1
            let b = boxes[r]
            guard lat >= Int64(b.minLat), lat <= Int64(b.maxLat) else { continue }
            let inside =
                crossing[r] ? (lon >= Int64(b.minLon) || lon <= Int64(b.maxLon)) : (lon >= Int64(b.minLon) && lon <= Int64(b.maxLon))
            if inside { mask |= 1 << UInt64(r) }
        }
        return mask
    }
}
