import CityPackCache
import CityPackSupport

// What the build cache stores of the plan's own values: a stage's counts, the GTFS facts the stages share, and
// what a step's cache key is made of. The codec itself is CityPackCache's.

extension CacheWriter {
    /// A stage's counts, by key.
    mutating func counts(_ counts: [StageCount: Int]) {
        count(counts.count)
        for (k, v) in counts.sorted(by: { $0.key < $1.key }) {
            string(k.rawValue)
            int(v)
        }
    }

    /// The facts of the feeds a build read (``FeedFacts``).
    mutating func feedFacts(_ f: FeedFacts) {
        int(f.feeds)
        int(f.stops)
        strings(f.stopIDs)
    }
}

extension CacheReader {
    /// What ``CacheWriter/counts(_:)`` wrote.
    mutating func counts() throws(Malformed) -> [StageCount: Int] {
        let n = try count()
        var out: [StageCount: Int] = [:]
        for _ in 0..<n {
            guard let k = StageCount(rawValue: try string()) else { throw Malformed() }
            out[k] = try int()
        }
        return out
    }

    /// What ``CacheWriter/feedFacts(_:)`` wrote.
    mutating func feedFacts() throws(Malformed) -> FeedFacts {
        FeedFacts(feeds: try int(), stops: try int(), stopIDs: try strings())
    }
}

/// One thing a cached step's key is made of, as the step declares it (``StageWork/key(_:inputs:)``).
enum CacheInput {
    /// A file or folder a stage reads, or a product of an earlier stage (the key of the stage that made it).
    case artifact(BuildArtifact)
    /// The city file's content and folder (relative paths in it resolve against the folder).
    case cityFile
    /// A value a step reads, by name.
    case value(String, String)
    /// Every stored property of an options value (``CacheKey/addFields(of:label:skipping:)``).
    case fields(String, Any, skipping: Set<String> = [])
}
