import CityPackModel
import Foundation

/// A value made when first asked for: what a stage took from the cache, which a rebuild whose later stages all
/// come from the cache never needs whole. The GTFS feeds (megabytes of stop times) and the OSM POIs are kept this
/// way (``StageWork``); what validation asks of them eagerly is kept beside them (``FeedFacts``, ``KeptFacts``).
package final class Lazy<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Value?
    private var make: (@Sendable () -> Value)?

    package init(_ value: Value) { made = value }

    /// A value that `make` gives on first use (it runs once).
    init(later make: @escaping @Sendable () -> Value) { self.make = make }

    package var value: Value {
        lock.withLock {
            if let made { return made }
            let value = make!()
            made = value
            make = nil
            return value
        }
    }
}

/// The feeds of a build (``Lazy``).
package typealias LazyFeeds = Lazy<[GTFSFeed]>

/// What validation asks of the feeds besides running the GTFS rules: kept beside them in the cache.
struct FeedFacts: Equatable {
    var feeds: Int
    var stops: Int
    /// Every feed's stop ids, sorted.
    var stopIDs: [String]

    init(feeds: Int, stops: Int, stopIDs: [String]) {
        self.feeds = feeds
        self.stops = stops
        self.stopIDs = stopIDs
    }

    init(_ all: [GTFSFeed]) {
        self.init(
            feeds: all.count, stops: all.reduce(0) { $0 + $1.stops.count },
            stopIDs: Set(all.flatMap { $0.stops.map(\.id) }).sorted())
    }
}

/// What validation asks of the POIs it kept, kept beside their indexes in the cache: the POIs themselves are then
/// only decoded when a later stage asks for them.
struct KeptFacts: Equatable {
    var count: Int
    /// The categories of the kept POIs, sorted.
    var categories: [String]

    init(count: Int, categories: [String]) {
        self.count = count
        self.categories = categories
    }

    init(_ kept: [POI]) { self.init(count: kept.count, categories: Set(kept.map(\.category)).sorted()) }
}
