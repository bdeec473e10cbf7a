/// What the reader does with a tag key; decided once per distinct key.
enum TagKeyDecision {
    case drop
    /// Kept for classification or output; the interned key.
    case keep(String)
    /// The plain `name` tag.
    case name
    /// A `name:<locale>` tag; the locale.
    case localizedName(String)
    /// The `type` tag (a relation's kind, e.g. `multipolygon`); also kept when the profile keeps `type`.
    case type(keep: String?)

    /// The decision for `key` under `profile`.
    static func decide(_ key: String, profile: any POIProfile) -> TagKeyDecision {
        if key == "name" { return .name }
        if key == "type" { return .type(keep: profile.keeps(tag: key) ? key : nil) }
        if key.hasPrefix("name:") {
            let locale = key.dropFirst(5)
            if NameLocale.isLocale(locale) { return .localizedName(String(locale)) }
        }
        return profile.keeps(tag: key) ? .keep(key) : .drop
    }

    /// Whether the key is kept, which is what can make an element a POI: an element without kept keys never is.
    var isKept: Bool {
        switch self {
        case .keep: true
        case .type(let keep): keep != nil
        case .drop, .name, .localizedName: false
        }
    }
}

/// An allocation-free lookup from tag-key bytes to a ``TagKeyDecision`` (open addressing, FNV-1a).
///
/// Only the first sighting of a key creates a `String`; afterwards the bytes are compared in place. Holds at
/// most ``capacityLimit`` keys; beyond that, decisions are computed without caching.
struct TagKeyCache {
    static let capacityLimit = 1 << 16

    private var slots = [Int32](repeating: -1, count: 1024)
    private var hashes: [UInt64] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var storage: [UInt8] = []
    private var decisions: [TagKeyDecision] = []

    @inline(__always)
    private static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<n {
            h = (h ^ UInt64(p[i])) &* 0x100_0000_01b3
        }
        return h
    }

    /// The decision for the `count` bytes at `p`, computing it with `decide` on first sight.
    mutating func decision(
        _ p: UnsafePointer<UInt8>, _ count: Int, decide: (String) -> TagKeyDecision
    ) -> TagKeyDecision {
        let h = Self.hash(p, count)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[i])
            if e < 0 { break }
            if hashes[e] == h && lengths[e] == count {
                let same = storage.withUnsafeBufferPointer { buf in
                    (0..<count).allSatisfy { buf[starts[e] + $0] == p[$0] }
                }
                if same { return decisions[e] }
            }
            i = (i + 1) & mask
        }
        let key = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        let d = decide(key)
        guard decisions.count < Self.capacityLimit else { return d }
        slots[i] = Int32(decisions.count)
        hashes.append(h)
        starts.append(storage.count)
        lengths.append(count)
        storage.append(contentsOf: UnsafeBufferPointer(start: p, count: count))
        decisions.append(d)
        if decisions.count * 2 > slots.count { rehash() }
        return d
    }

    /// The decision for `key`, computing it with `decide` on first sight.
    mutating func decision(_ key: String, decide: (String) -> TagKeyDecision) -> TagKeyDecision {
        let cached = key.utf8.withContiguousStorageIfAvailable { bytes in
            decision(bytes.baseAddress ?? Self.emptyKey, bytes.count, decide: decide)
        }
        if let cached { return cached }
        return Array(key.utf8).withUnsafeBufferPointer { bytes in
            decision(bytes.baseAddress ?? Self.emptyKey, bytes.count, decide: decide)
        }
    }

    /// A pointer standing for the bytes of an empty key (never read).
    private static var emptyKey: UnsafePointer<UInt8> { UnsafePointer(bitPattern: 1)! }

    private mutating func rehash() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for e in 0..<hashes.count {
            var i = Int(truncatingIfNeeded: hashes[e]) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(e)
        }
    }
}
