import CityPackModel
import Foundation

/// The GTFS feeds a build read, made when first asked for. A rebuild whose validation and emit come from the cache
/// never needs them whole (only ``FeedFacts``), so it never decodes the feeds' cache entry, the largest of a
/// transit city (megabytes of stop times).
package final class LazyFeeds: @unchecked Sendable {
    private let lock = NSLock()
    private var feeds: [GTFSFeed]?
    private var make: (@Sendable () -> [GTFSFeed])?

    package init(_ feeds: [GTFSFeed] = []) { self.feeds = feeds }

    /// Feeds that `make` gives on first use (it runs once).
    init(later make: @escaping @Sendable () -> [GTFSFeed]) { self.make = make }

    package var value: [GTFSFeed] {
        lock.withLock {
            if let feeds { return feeds }
            let made = make?() ?? []
            feeds = made
            make = nil
            return made
        }
    }

    /// Whether the feeds were made (always, for feeds given whole).
    package var isLoaded: Bool { lock.withLock { feeds != nil } }
}

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
