import CityPackFormat
import CityPackSupport
import Foundation

/// What a stop name names (``PackReader/stops(named:locale:)``): how `query --journey "Duomo" --to "Cadorna"` and an
/// app's "from / to" fields turn what a person typed into a journey's end.
public enum StopNameMatch: Sendable, Hashable {
    /// One station (standing for its platforms) or one stop: journey from or to its stop_id.
    case stop(PlaceResult)
    /// Several stops of the same name side by side (within ``PackReader/sameStopMetres``) and no station
    /// gathering them (the two sides of a street): journey from or to the point between them, walking to each.
    case place(name: String, lat: Double, lon: Double, stops: [PlaceResult])
    /// Distinct places the name fits: stations first, then by name and id; the person chooses.
    case ambiguous([PlaceResult])
    /// No stop has the name.
    case none

    /// The journey end it resolves to; nil when ambiguous or unknown.
    public var endpoint: JourneyEndpoint? {
        switch self {
        case .stop(let stop): stop.stopID.map(JourneyEndpoint.stop)
        case .place(_, let lat, let lon, _): .coordinate(lat: lat, lon: lon)
        case .ambiguous, .none: nil
        }
    }
}

extension PackReader {
    /// Stops of one name closer than this (metres) are one place (platforms, the two sides of a street).
    package static let sameStopMetres = 400.0

    /// The stop or station a name means, through search over the stops' names (any locale; case, diacritics and
    /// the folds of ``CityPackFormat/SearchFold`` ignored). Names equal to the text win over names that only
    /// contain it; a station stands for the same-named stops around it (its platforms); same-named stops side by
    /// side without a station are one place; distinct places are ``StopNameMatch/ambiguous(_:)``.
    /// - Throws: `PackError.closed`, `.sqlite`, `.malformedData`.
    public func stops(named text: String, locale: String? = nil) throws(PackError) -> StopNameMatch {
        let key = Self.nameKey(text)
        guard !key.isEmpty else { return .none }
        // Every place the name query finds (POIs named like a stop come first in many cities), then its stops: a
        // stop, or an OSM feature linked to one (one result, carrying the stop's id), as the stop itself with the
        // name the search matched.
        var found: [PlaceResult] = []
        var seen: Set<String> = []
        for result in try search(text, locale: locale, limit: 100_000) {
            guard let code = result.stopID, seen.insert(code).inserted,
                var stop = result.kind == .stop ? result : try transit.stop(id: code, locale: locale)
            else { continue }
            if Self.nameKey(stop.name ?? "") != key, Self.nameKey(result.name ?? "") == key { stop.name = result.name }
            found.append(stop)
        }
        // Whole words only: the search's prefix tier ("roma" finding "romana") is for typing, not for naming a stop.
        let words = Set(key.split(separator: " "))
        found.removeAll { !words.isSubset(of: Set(Self.nameKey($0.name ?? "").split(separator: " "))) }
        let exact = found.filter { Self.nameKey($0.name ?? "") == key }
        var candidates = exact.isEmpty ? found : exact
        // A station stands for the same-named stops near it.
        let stations = candidates.filter { $0.category == "transit_station" }
        candidates.removeAll { stop in
            stop.category != "transit_station" && stations.contains {
                Self.nameKey($0.name ?? "") == Self.nameKey(stop.name ?? "")
                    && GreatCircle.distance($0.lat, $0.lon, stop.lat, stop.lon) <= Self.sameStopMetres
            }
        }
        // Same-named stops side by side: one place.
        var groups: [[PlaceResult]] = []
        for stop in candidates {
            if let g = groups.firstIndex(where: { group in
                group.contains {
                    Self.nameKey($0.name ?? "") == Self.nameKey(stop.name ?? "") && $0.category != "transit_station"
                        && stop.category != "transit_station"
                        && GreatCircle.distance($0.lat, $0.lon, stop.lat, stop.lon) <= Self.sameStopMetres
                }
            }) {
                groups[g].append(stop)
            } else {
                groups.append([stop])
            }
        }
        // Without an exact name, the stops whose names start with the text are what was meant ("Cadorna" →
        // "CADORNA F.N." and "cadorna m1 m2", not "via cadorna (buccinasco)"), and those side by side are one
        // place (an interchange: the rail station and the metro station 70 m apart).
        func sideBySide(_ groups: [[PlaceResult]]) -> Bool {
            let all = groups.flatMap { $0 }
            return all.allSatisfy { a in all.allSatisfy { GreatCircle.distance(a.lat, a.lon, $0.lat, $0.lon) <= Self.sameStopMetres } }
        }
        if exact.isEmpty, groups.count > 1 {
            var starting = groups.filter { Self.nameKey($0[0].name ?? "").hasPrefix(key + " ") }
            if starting.count > 1, sideBySide(starting) { starting = [starting.flatMap { $0 }] }
            if starting.count == 1 { groups = starting }
        }
        // Every place the name fits side by side ("Genova": "P.TA GENOVA F.S." and "p.ta genova m2"): one place.
        if groups.count > 1, sideBySide(groups) { groups = [groups.flatMap { $0 }] }
        switch groups.count {
        case 0: return .none
        case 1 where groups[0].count == 1: return .stop(groups[0][0])
        case 1:
            let g = groups[0]
            return .place(
                name: g.compactMap(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", "), lat: g.map(\.lat).reduce(0, +) / Double(g.count),
                lon: g.map(\.lon).reduce(0, +) / Double(g.count), stops: g)
        default:
            let firsts = groups.map { $0[0] }
            return .ambiguous(firsts.sorted {
                ($0.category == "transit_station" ? 0 : 1, $0.name ?? "", $0.id) < ($1.category == "transit_station" ? 0 : 1, $1.name ?? "", $1.id)
            })
        }
    }

    /// A name as compared: folded like search (case, diacritics, ``CityPackFormat/SearchFold``), spaces collapsed.
    static func nameKey(_ text: String) -> String {
        SearchFold.apply(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
            .split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).joined(separator: " ")
    }
}
