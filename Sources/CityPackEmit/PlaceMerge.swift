import CityPackFormat
import Foundation

/// The rule that makes a GTFS stop and the OSM feature of the same station or platform one place (meta `place_links`),
/// so that search and nearby return one result carrying both ids instead of two results metres apart.
///
/// A rule is data: ``maxDistance`` (per OSM category) and ``ignoredTokens`` are the whole of it, and
/// docs/WEB.md ("One result per place") quotes them. A pair must
/// 1. be an OSM POI of a transit category of ``maxDistance`` and a named GTFS stop or station (location_type 0 or
///    1) within that many metres (great-circle), served by a mode of that category (``compatibleModes``: a bus
///    stop never merges with a metro or railway station of the same name; a stop whose modes are unknown, as in a
///    feed without trips, is not held back by them);
/// 2. have the same name after folding (``nameKey(_:)``: case, diacritics and ``SearchFold``; ``abbreviations``
///    expanded; words split at anything but letters and digits; the ``ignoredTokens``, the ``linkingWords`` and line
///    references like `m1` dropped; numbers kept: `14 St` is not `23 St`), word by word, where an initial (`c.`) matches a word starting with its letter (never an empty
///    name, nor one of initials only);
/// 3. be the best remaining pair for both: stations before platforms, then nearest first (ties by ids), each
///    place in at most one pair.
/// Pure; `Sendable` values.
enum PlaceMerge {
    /// A stop as the transit writer keeps it.
    struct Stop: Equatable, Sendable {
        var id: Int64
        var name: String?
        var lat: Double
        var lon: Double
        var locationType: Int
        var parent: Int64?
        /// The categories of the modes serving the stop (``CityPackModel/PackCategory/category(forRouteType:)``;
        /// a station: its platforms'); empty when unknown.
        var modes: [String] = []
    }

    /// An OSM POI that may be a station or platform.
    struct Feature: Sendable {
        var id: Int64
        var name: String?
        var names: [String: String]
        var category: String
        var lat: Double
        var lon: Double
    }

    /// A merged pair.
    struct Pair: Equatable, Sendable {
        var poi: Int64
        var stop: Int64
        var distance: Double
    }

    /// Metres between an OSM feature of the category and a GTFS stop of the same place, at most. Stations are
    /// mapped as one node while a feed places its stop on a platform or the station's centre (up to a platform's
    /// length away); stop positions of trams and buses are a few metres from the platform.
    static let maxDistance: [String: Double] = [
        "metro": 200, "train_station": 300, "bus_station": 150, "ferry_terminal": 200, "tram_stop": 50, "bus_stop": 50,
    ]

    /// The stop modes (as categories) an OSM feature of each category may merge with: a platform shared by buses
    /// and trams is mapped as either; a metro station and a railway station are often one building.
    static let compatibleModes: [String: Set<String>] = [
        "metro": ["metro", "train_station"], "train_station": ["train_station", "metro"], "bus_station": ["bus_stop"],
        "ferry_terminal": ["ferry_terminal"], "tram_stop": ["tram_stop", "bus_stop"], "bus_stop": ["bus_stop", "tram_stop"],
    ]

    /// Whether a stop's modes allow a feature of the category (rule 1): yes when the stop's modes are unknown.
    static func modesAllow(_ category: String, _ stop: Stop) -> Bool {
        stop.modes.isEmpty || !(compatibleModes[category] ?? []).isDisjoint(with: stop.modes)
    }

    /// Articles and prepositions inside street and place names that feeds drop and mappers write ("Corso di Porta
    /// Romana", "c.so p.ta romana"), dropped before names are compared.
    static let linkingWords: Set<String> = [
        "di", "del", "della", "dello", "dei", "degli", "delle", "dell", "da", "de", "des", "du", "la", "le", "lo", "il",
        "the", "of",
    ]

    /// Words that name the kind of place rather than the place ("Centrale FS" is "Centrale"), dropped before
    /// names are compared.
    static let ignoredTokens: Set<String> = [
        "station", "stazione", "bahnhof", "gare", "estacion", "stop", "fermata", "haltestelle", "arret", "parada",
        "metro", "subway", "underground", "bf", "hbf", "fs", "mm",
    ]

    /// Abbreviations of street and place words that feeds and mappers write differently ("p.za Diocleziano",
    /// "Piazza Diocleziano"), expanded before names are compared: whole words ending in a full stop.
    static let abbreviations: [String: String] = [
        "p.za": "piazza", "p.zza": "piazza", "p.le": "piazzale", "p.zale": "piazzale", "p.ta": "porta", "v.le": "viale",
        "c.so": "corso", "l.go": "largo", "v.lo": "vicolo", "f.s.": "fs", "str.": "strasse", "st.": "street",
        "av.": "avenue", "ave.": "avenue", "pl.": "place", "ste": "sainte", "ste.": "sainte", "sta.": "santa",
        "sto.": "santo",
    ]

    /// The folded words of a name: lower-cased, without diacritics, ``SearchFold``ed, ``abbreviations`` expanded,
    /// split at anything but letters and digits; ignored words and line references (a letter and up to two
    /// digits, as `m1`) removed; numbers stay. A single letter followed by a full stop (`c. marcello`) stays as `c.`, an initial
    /// that matches any word starting with it (``namesMatch(_:_:)``).
    static func nameKey(_ name: String) -> [String] {
        let folded = SearchFold.apply(name).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var words: [String] = []
        for raw in folded.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "," || $0 == "(" || $0 == ")" || $0 == "/" }) {
            var word = String(raw)
            if let long = abbreviations[word] { word = long }
            var current = ""
            var parts: [String] = []
            for ch in word {
                if ch.isLetter || ch.isNumber { current.append(ch) } else if !current.isEmpty {
                    parts.append(ch == "." && current.count == 1 && parts.isEmpty && word.count == 2 ? current + "." : current)
                    current = ""
                }
            }
            if !current.isEmpty { parts.append(current) }
            words += parts
        }
        return words.filter { word in
            if ignoredTokens.contains(word) || linkingWords.contains(word) { return false }
            if let first = word.first, first.isLetter, word.count <= 3, word.dropFirst().allSatisfy(\.isNumber),
                word.count > 1
            {
                return false
            }
            return true
        }
    }

    /// Whether two names name the same place (rule 2).
    static func namesMatch(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        let ka = nameKey(a)
        let kb = nameKey(b)
        guard !ka.isEmpty, ka.count == kb.count else { return false }
        return zip(ka, kb).allSatisfy { x, y in
            if x == y { return true }
            if x.hasSuffix("."), !y.hasSuffix(".") { return y.hasPrefix(x.dropLast()) }
            if y.hasSuffix("."), !x.hasSuffix(".") { return x.hasPrefix(y.dropLast()) }
            return false
        } && !(ka.allSatisfy { $0.hasSuffix(".") } || kb.allSatisfy { $0.hasSuffix(".") })
    }

    /// The pairs of the rule, ordered by POI id.
    static func pairs(features: [Feature], stops: [Stop]) -> [Pair] {
        let candidates = stops.filter { $0.locationType <= 1 && !($0.name ?? "").isEmpty }
        guard !candidates.isEmpty else { return [] }
        let index = ProximityIndex(candidates.map { ProximityIndex.Point(id: $0.id, lat: $0.lat, lon: $0.lon) })
        let byID = Dictionary(candidates.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var found: [(station: Bool, pair: Pair)] = []
        for feature in features {
            guard let radius = maxDistance[feature.category] else { continue }
            let names = [feature.name].compactMap { $0 } + feature.names.values.sorted()
            for hit in index.within(lat: feature.lat, lon: feature.lon, radius: radius) {
                guard let stop = byID[hit.id], modesAllow(feature.category, stop),
                    names.contains(where: { namesMatch($0, stop.name) })
                else { continue }
                found.append((stop.locationType == 1, Pair(poi: feature.id, stop: stop.id, distance: hit.distance)))
            }
        }
        found.sort {
            ($0.station ? 0 : 1, $0.pair.distance, $0.pair.poi, $0.pair.stop)
                < ($1.station ? 0 : 1, $1.pair.distance, $1.pair.poi, $1.pair.stop)
        }
        var usedPOIs: Set<Int64> = []
        var usedStops: Set<Int64> = []
        var out: [Pair] = []
        for (_, pair) in found where !usedPOIs.contains(pair.poi) && !usedStops.contains(pair.stop) {
            usedPOIs.insert(pair.poi)
            usedStops.insert(pair.stop)
            out.append(pair)
        }
        return out.sorted { $0.poi < $1.poi }
    }
}
