import Foundation

extension PBFTagFilter {
    /// The same filter, with each key's relevance worked out once per read and shared by the decode threads.
    ///
    /// Every block has its own string table, so without this a key is judged once per block; a fleet's filter
    /// asks every city's profile, which made judging keys about a tenth of a country read's decode time.
    package func memoizingKeys() -> PBFTagFilter {
        let memo = PBFKeyMemo(keyRelevance)
        return PBFTagFilter(maxTags: maxTags, maxValueBytes: maxValueBytes) { memo.relevance(of: $0) }
    }
}

/// Key → relevance, filled as keys are met and bounded: a file of millions of distinct keys keeps the first
/// ``capacity`` answers and works the rest out each time.
final class PBFKeyMemo: @unchecked Sendable {
    /// Most keys remembered.
    static let capacity = 1 << 16
    private let decide: @Sendable (String) -> TagRelevance
    private let lock = NSLock()
    private var known: [String: TagRelevance] = [:]

    init(_ decide: @escaping @Sendable (String) -> TagRelevance) {
        self.decide = decide
    }

    func relevance(of key: String) -> TagRelevance {
        lock.lock()
        let hit = known[key]
        lock.unlock()
        if let hit { return hit }
        let answer = decide(key)
        lock.lock()
        if known.count < Self.capacity { known[key] = answer }
        lock.unlock()
        return answer
    }
}
