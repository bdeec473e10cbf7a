import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// Category search in every locale (issue 21 point 6): `templates/synonyms.json` is `scripts/cldr-synonyms.py`'s
/// output (hand-made words plus CLDR annotation keywords), and in a pack of real data built for one locale, the
/// local word for toilets, ATM, metro station, fuel and restaurant finds that category.
@Suite struct CategorySynonymsTests {
    /// Where Debian's unicode-cldr-core puts CLDR (`scripts/install-deps.sh --tests` installs it).
    static let cldr = "/usr/share/unicode/cldr"
    static var hasCLDR: Bool { FileManager.default.fileExists(atPath: cldr + "/common/annotations/en.xml") }

    /// The categories measured, in table order.
    static let categories = ["toilet", "atm", "metro", "fuel", "restaurant"]

    /// Per locale, the word a local would type for each of ``categories``: chosen by hand from everyday usage (signs,
    /// maps), not read from the templates, so that a locale the templates do not cover shows up as ✗.
    static let localWords: [(locale: String, words: [String])] = [
        ("en", ["toilet", "cash machine", "subway", "petrol", "restaurant"]),
        ("fr", ["toilettes", "distributeur", "métro", "station-service", "restaurant"]),
        ("de", ["Toilette", "Geldautomat", "U-Bahn", "Tankstelle", "Gaststätte"]),
        ("it", ["bagno", "bancomat", "metropolitana", "benzinaio", "ristorante"]),
        ("es", ["baño", "cajero", "metro", "gasolinera", "restaurante"]),
        ("pt", ["banheiro", "caixa eletrônico", "metrô", "posto de gasolina", "restaurante"]),
        ("ru", ["туалет", "банкомат", "метро", "заправка", "ресторан"]),
        ("uk", ["туалет", "банкомат", "метро", "заправка", "ресторан"]),
        ("bg", ["тоалетна", "банкомат", "метро", "бензиностанция", "ресторант"]),
        ("sr", ["тоалет", "банкомат", "метро", "бензинска пумпа", "ресторан"]),
        ("sv", ["toalett", "bankomat", "tunnelbana", "bensinstation", "restaurang"]),
        ("da", ["toilet", "hæveautomat", "metro", "tankstation", "restaurant"]),
        ("no", ["toalett", "minibank", "t-bane", "bensinstasjon", "restaurant"]),
        ("fi", ["vessa", "pankkiautomaatti", "metro", "huoltoasema", "ravintola"]),
        ("et", ["tualett", "pangaautomaat", "metroo", "tankla", "restoran"]),
        ("lv", ["tualete", "bankomāts", "metro", "degvielas uzpildes stacija", "restorāns"]),
        ("lt", ["tualetas", "bankomatas", "metro", "degalinė", "restoranas"]),
        ("nl", ["toilet", "pinautomaat", "metro", "tankstation", "restaurant"]),
        ("pl", ["toaleta", "bankomat", "metro", "stacja paliw", "restauracja"]),
        ("cs", ["záchod", "bankomat", "metro", "benzínka", "restaurace"]),
        ("sk", ["záchod", "bankomat", "metro", "čerpacia stanica", "reštaurácia"]),
        ("sl", ["stranišče", "bankomat", "podzemna železnica", "bencinski servis", "restavracija"]),
        ("hr", ["zahod", "bankomat", "podzemna željeznica", "benzinska postaja", "restoran"]),
        ("hu", ["mosdó", "bankautomata", "metró", "benzinkút", "étterem"]),
        ("ro", ["toaletă", "bancomat", "metrou", "benzinărie", "restaurant"]),
        ("el", ["τουαλέτα", "ATM", "μετρό", "βενζινάδικο", "εστιατόριο"]),
        ("tr", ["tuvalet", "bankamatik", "metro", "benzin istasyonu", "restoran"]),
        ("ca", ["lavabo", "caixer", "metro", "gasolinera", "restaurant"]),
        ("gl", ["baño", "caixeiro", "metro", "gasolineira", "restaurante"]),
        ("eu", ["komuna", "kutxazain automatikoa", "metroa", "gasolindegia", "jatetxea"]),
        ("ja", ["トイレ", "ATM", "地下鉄", "ガソリンスタンド", "レストラン"]),
        ("zh", ["厕所", "取款机", "地铁", "加油站", "餐厅"]),
        ("zh-Hant", ["廁所", "提款機", "捷運", "加油站", "餐廳"]),
        ("ko", ["화장실", "현금인출기", "지하철", "주유소", "식당"]),
        ("vi", ["nhà vệ sinh", "máy rút tiền", "tàu điện ngầm", "cây xăng", "nhà hàng"]),
        ("th", ["ห้องน้ำ", "ตู้เอทีเอ็ม", "รถไฟใต้ดิน", "ปั๊มน้ำมัน", "ร้านอาหาร"]),
        ("id", ["toilet", "ATM", "kereta bawah tanah", "pom bensin", "restoran"]),
        ("ar", ["مرحاض", "صراف آلي", "مترو", "محطة وقود", "مطعم"]),
        ("he", ["שירותים", "כספומט", "רכבת תחתית", "תחנת דלק", "מסעדה"]),
        ("fa", ["توالت", "خودپرداز", "مترو", "پمپ بنزین", "رستوران"]),
        ("hi", ["शौचालय", "एटीएम", "मेट्रो", "पेट्रोल पंप", "रेस्टोरेंट"]),
    ]

    @Test(.enabled(if: hasCLDR, "needs Unicode CLDR (apt-get install unicode-cldr-core; .ci/run installs it)"),
        .needs(OutsideTools.python3))
    func templatesAreFresh() throws {
        let run = try OutsideTools.python3.run(["scripts/cldr-synonyms.py", "--cldr", Self.cldr, "--check"])
        #expect(run.status == 0, "templates/synonyms.json is stale: run scripts/cldr-synonyms.py\n\(run.stderr)")
    }

    /// Milan (2015 OSM extract): toilets, ATMs, fuel, restaurants and metro stations. One pack per locale, each built
    /// with `locales: [L]`; the table goes to the test log.
    @Test(.needsSharedData) func localWordFindsTheCategoryInEveryLocale() throws {
        let osm = try #require(TestPaths.sharedData).appendingPathComponent("osm/milan-2015.osm.pbf")
        let tmp = try TestPaths.temporaryDirectory("category-synonyms")
        defer { try? FileManager.default.removeItem(at: tmp) }
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var rows: [String: [Bool]] = [:]
            var failures: [String] = []
        }
        let results = Results()
        let locales = Self.localWords
        // Two builds at a time (one per core); each searches its own pack.
        DispatchQueue.concurrentPerform(iterations: locales.count) { i in
            let (locale, words) = locales[i]
            do {
                let found = try Self.measure(locale: locale, words: words, osm: osm, in: tmp)
                results.lock.withLock { results.rows[locale] = found }
            } catch {
                results.lock.withLock { results.failures.append("\(locale): \(error)") }
            }
        }
        #expect(results.failures.isEmpty, "\(results.failures)")
        var table = "locale    " + Self.categories.map { $0.padding(toLength: 11, withPad: " ", startingAt: 0) }.joined()
        var missing: [String] = []
        for (locale, words) in locales {
            let found = results.rows[locale] ?? Array(repeating: false, count: Self.categories.count)
            table += "\n" + locale.padding(toLength: 10, withPad: " ", startingAt: 0)
                + found.map { ($0 ? "✓" : "✗").padding(toLength: 11, withPad: " ", startingAt: 0) }.joined()
            for (j, ok) in found.enumerated() where !ok {
                missing.append("\(locale) '\(words[j])' → \(Self.categories[j])")
            }
        }
        print("Category search per locale (Milan 2015, one pack per locale):\n\(table)")
        #expect(locales.count >= 30)
        #expect(missing.isEmpty, "not found: \(missing.joined(separator: "; "))")
    }

    /// Builds Milan with `locales: [locale]` and searches each word; true where a POI of the category is among the
    /// first 50 results.
    static func measure(locale: String, words: [String], osm: URL, in tmp: URL) throws -> [Bool] {
        let city = tmp.appendingPathComponent("in-\(locale)/milan")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        let yaml = """
            id: milan
            name: "Milan"
            locales: [\(locale)]
            bbox: [9.0371396, 45.3381459, 9.4691804, 45.6787964]
            sources:
              osm: ["\(osm.path)"]
              gtfs: []
            attribution: "© OpenStreetMap contributors, ODbL 1.0"
            rules: {}

            """
        try Data(yaml.utf8).write(to: city.appendingPathComponent("city.yaml"))
        let output = tmp.appendingPathComponent("out-\(locale)")
        let build = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"])
        guard build.status == 0 else {
            throw BuildFailure(description: "build exited \(build.status): \(build.stderr.suffix(1000))")
        }
        let reader = try PackReader.open(manifest: output.appendingPathComponent("milan/manifest.json"))
        return try zip(words, categories).map { word, category in
            try reader.search(word, limit: 50).contains { $0.category == category }
        }
    }
}

private struct BuildFailure: Error, CustomStringConvertible {
    var description: String
}
