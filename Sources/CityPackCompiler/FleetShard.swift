import CityPackDiagnostics
import CityPackIngest
import Foundation

/// `--shard i/n`: a deterministic, size-balanced share of a fleet's cities, so an array-job engine (a GitHub
/// Actions matrix, a Kubernetes Indexed Job, GitLab `parallel:`) builds the fleet on n machines, each running the
/// same command with its own i.
///
/// Every city weighs the bytes of its OSM and GTFS sources, a file named by k cities of the fleet counting 1/k
/// for each (one more byte each, so a city without sources still counts). Cities are dealt heaviest first (then
/// by path) to the lightest shard so far (then the lowest index): the same fleet gives every machine the same
/// split, whatever order the shards start in.
package enum FleetShard {
    /// `i/n` with 0 ≤ i < n.
    package static func parse(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        return (i, n)
    }

    /// The weight of each city (see the type's description); a city file that cannot be read weighs 1.
    package static func weights(of cities: [String]) -> [Double] {
        let scratch = DiagnosticBag()
        let sources: [[String]] = cities.map { path in
            guard let city = CityFileLoader.load(path, knownRules: RuleCatalog.codes, bag: scratch) else { return [] }
            return (city.osmFiles + city.gtfsFeeds).map(Fleet.canonicalPath)
        }
        var namedBy: [String: Int] = [:]
        for files in sources { for file in Set(files) { namedBy[file, default: 0] += 1 } }
        var sizes: [String: Double] = [:]
        for file in namedBy.keys {
            sizes[file] = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.doubleValue ?? 0
        }
        return sources.map { files in
            1 + Set(files).reduce(0) { $0 + (sizes[$1] ?? 0) / Double(namedBy[$1] ?? 1) }
        }
    }

    /// The indices (into `weights`, ascending) of shard `index` of `count`.
    package static func assign(weights: [Double], names: [String], index: Int, count: Int) -> [Int] {
        let order = weights.indices.sorted { a, b in
            weights[a] != weights[b] ? weights[a] > weights[b] : names[a] < names[b]
        }
        var load = [Double](repeating: 0, count: count)
        var mine: [Int] = []
        for i in order {
            var lightest = 0
            for s in 1..<count where load[s] < load[lightest] { lightest = s }
            load[lightest] += weights[i]
            if lightest == index { mine.append(i) }
        }
        return mine.sorted()
    }
}
