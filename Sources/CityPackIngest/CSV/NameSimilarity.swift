/// "Did you mean …?" for column and file names: a misspelt name means data silently ignored.
package enum NameSimilarity {
    /// The closest candidate within a small edit distance (case and `_`/`-` ignored), or nil.
    ///
    /// Allowed distance: 1 for names up to 5 characters, 2 up to 10, 3 beyond; a candidate that the name
    /// starts with or is a prefix of (`to_stop` → `to_stop_id`) also counts when at least 5 characters agree.
    package static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let key = normalised(name)
        guard key.count >= 3 else { return nil }
        let limit = key.count <= 5 ? 1 : key.count <= 10 ? 2 : 3
        var best: (String, Int)?
        for candidate in candidates {
            let other = normalised(candidate)
            var d = distance(key, other)
            if d > limit, min(key.count, other.count) >= 5, key.starts(with: other) || other.starts(with: key) {
                d = limit
            }
            if d <= limit, best == nil || d < best!.1 || (d == best!.1 && candidate < best!.0) { best = (candidate, d) }
        }
        return best?.0
    }

    static func normalised(_ s: String) -> [UInt8] {
        Array(s.lowercased().utf8.filter { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") })
    }

    /// Levenshtein distance over bytes.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
