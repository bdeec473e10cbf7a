import CityPackFormat
import Foundation

/// What ``PlaceMerge`` merges and what it nearly merges, as text for review: the listing test
/// (PlaceMergeListingTests) compares it with a committed listing per city, so a change in merging shows up in a
/// diff.
extension PlaceMerge {
    /// A feature and a stop the rule keeps apart although they are close (within the category's distance, both
    /// named): names that share a word of three or more letters but do not match (`names`), or names that match
    /// served by modes the feature's category does not take (`modes`: a bus stop beside a railway station).
    struct NearMiss: Equatable, Sendable {
        var poi: Int64
        var stop: Int64
        var distance: Double
        var reason: String
    }

    /// The near-misses of the rule, by POI id, then stop id.
    static func nearMisses(features: [Feature], stops: [Stop]) -> [NearMiss] {
        let candidates = stops.filter { $0.locationType <= 1 && !($0.name ?? "").isEmpty }
        guard !candidates.isEmpty else { return [] }
        let index = ProximityIndex(candidates.map { ProximityIndex.Point(id: $0.id, lat: $0.lat, lon: $0.lon) })
        let byID = Dictionary(candidates.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [NearMiss] = []
        for feature in features {
            guard let radius = maxDistance[feature.category] else { continue }
            let names = [feature.name].compactMap { $0 } + feature.names.values.sorted()
            guard !names.isEmpty else { continue }
            let words = Set(names.flatMap(nameKey).filter { $0.count >= 3 && !$0.hasSuffix(".") })
            for hit in index.within(lat: feature.lat, lon: feature.lon, radius: radius) {
                guard let stop = byID[hit.id] else { continue }
                let match = names.contains(where: { namesMatch($0, stop.name) })
                if !modesAllow(feature.category, stop) {
                    if match { out.append(NearMiss(poi: feature.id, stop: stop.id, distance: hit.distance, reason: "modes")) }
                } else if !match, !words.isDisjoint(with: nameKey(stop.name ?? "")) {
                    out.append(NearMiss(poi: feature.id, stop: stop.id, distance: hit.distance, reason: "names"))
                }
            }
        }
        return out.sorted { ($0.poi, $0.stop) < ($1.poi, $1.stop) }
    }

    /// The listing: a count line, then one line per merged pair and per near-miss, by POI id:
    /// `merged|near-miss(names|modes) <category> <poi id> "<name>" ~ stop <stop id> "<name>" [<modes>] <metres> m`.
    static func listing(features: [Feature], stops: [Stop]) -> String {
        let pairs = pairs(features: features, stops: stops)
        let misses = nearMisses(features: features, stops: stops)
        let featureByID = Dictionary(features.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let stopByID = Dictionary(stops.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func line(_ kind: String, _ poi: Int64, _ stop: Int64, _ distance: Double) -> String {
            let f = featureByID[poi]
            let s = stopByID[stop]
            let modes = (s?.modes ?? []).joined(separator: ",")
            return "\(kind) \(f?.category ?? "?") \(poi) \"\(f?.name ?? "")\" ~ stop \(stop) \"\(s?.name ?? "")\" [\(modes)] "
                + String(format: "%.1f m", distance)
        }
        let byModes = misses.filter { $0.reason == "modes" }.count
        var lines = ["\(pairs.count) merged, \(misses.count - byModes) near-misses by name, \(byModes) kept apart by modes"]
        lines += pairs.map { line("merged", $0.poi, $0.stop, $0.distance) }
        lines += misses.map { line("near-miss(\($0.reason))", $0.poi, $0.stop, $0.distance) }
        return lines.joined(separator: "\n") + "\n"
    }
}
