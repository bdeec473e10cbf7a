import CityPackFormat
import CityPackKit
import Dispatch

/// `citypack bench --search`: "where is the nearest …?" on one pack — for random points in its box and category
/// words, whether the first result of `search(word, near:)` is the place of the word's category nearest to the
/// point (found by measuring every place: brute force, independent of the index and its rings), and how long a
/// search takes (p50, p90).
package struct SearchBenchmark: Sendable, Hashable {
    /// One word's figures.
    package struct Word: Sendable, Hashable {
        package var word: String
        package var category: String
        /// Points checked (0 when the pack has no place of the category).
        package var points: Int
        /// Points whose first result is the brute-force nearest (equal id, or an equal distance: a tie).
        package var agreeing: Int
    }

    package var words: [Word]
    /// Median of `search(word, near:)` over every timed query, nanoseconds.
    package var medianNanoseconds: Double
    /// 90th percentile, nanoseconds.
    package var p90Nanoseconds: Double
    /// Timed queries.
    package var queries: Int

    /// Words per language and the category each must find (English and the languages of Monaco, Liechtenstein and
    /// Milan); food words find any food category (``foodCategories``, comma-joined).
    package static let foodCategories = "cafe,fast_food,restaurant"
    package static let words: [String: [(String, String)]] = [
        "en": [("toilet", "toilet"), ("ATM", "atm"), ("food", foodCategories), ("metro", "metro"), ("pharmacy", "pharmacy")],
        "it": [("bagno", "toilet"), ("bancomat", "atm"), ("mangiare", foodCategories), ("metropolitana", "metro"), ("farmacia", "pharmacy")],
        "de": [("Toilette", "toilet"), ("Geldautomat", "atm"), ("Essen", foodCategories), ("U-Bahn", "metro"), ("Apotheke", "pharmacy")],
        "fr": [("toilettes", "toilet"), ("distributeur", "atm"), ("restaurant", "restaurant"), ("métro", "metro"), ("pharmacie", "pharmacy")],
    ]

    /// Runs the check and the timing.
    /// - Parameters:
    ///   - reader: The pack.
    ///   - points: Random points in the pack's box (a fixed seed: the same points every run).
    ///   - languages: Languages of ``words`` to use (English and the pack's default locale's language by default).
    /// - Throws: What `search` throws.
    package static func measure(_ reader: PackReader, points: Int = 1000, languages: [String]? = nil)
        throws(PackError) -> SearchBenchmark
    {
        let at = randomPoints(reader, count: points, seed: 0x32).map { ($0.lat, $0.lon) }
        // Every indexed place with its categories, for the brute force.
        let index = reader.proximityIndex
        var members: [String: [(id: Int64, lat: Double, lon: Double)]] = [:]
        for row in 0..<index.count {
            guard let place = try reader.place(id: index.ids[row]) else { continue }
            for category in Set([place.category] + place.alsoCategories) {
                members[category, default: []].append((index.ids[row], index.lats[row], index.lons[row]))
            }
        }
        let language = (reader.meta.defaultLocale ?? "en").prefix { $0 != "-" && $0 != "_" }
        let chosen = languages ?? (language == "en" ? ["en"] : ["en", String(language)])
        var out = SearchBenchmark(words: [], medianNanoseconds: 0, p90Nanoseconds: 0, queries: 0)
        var times: [UInt64] = []
        for (word, category) in chosen.flatMap({ words[$0] ?? [] }) {
            var figures = Word(word: word, category: category, points: 0, agreeing: 0)
            let places = category.split(separator: ",").flatMap { members[String($0)] ?? [] }
            if !places.isEmpty {
                for (lat, lon) in at {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let first = try reader.search(word, near: Coordinate(lat: lat, lon: lon), limit: 20).first
                    times.append(DispatchTime.now().uptimeNanoseconds - start)
                    var best: (distance: Double, id: Int64)?
                    for p in places {
                        let d = GreatCircle.distance(lat, lon, p.lat, p.lon)
                        if best == nil || (d, p.id) < (best!.distance, best!.id) { best = (d, p.id) }
                    }
                    figures.points += 1
                    if let first, let best, first.id == best.id || first.distanceMetres == best.distance {
                        figures.agreeing += 1
                    }
                }
            }
            out.words.append(figures)
        }
        times.sort()
        out.queries = times.count
        if !times.isEmpty {
            out.medianNanoseconds = Double(times[times.count / 2])
            out.p90Nanoseconds = Double(times[min(times.count - 1, times.count * 9 / 10)])
        }
        return out
    }
}
