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

    /// Milan (2015 OSM extract): toilets, ATMs, fuel, restaurants and metro stations. One pack whose city file lists
    /// every locale measured, searched in each locale in turn (the reader's language first, as an app asks), and
    /// three packs built for a single locale each (`locales: [L]`: a city in one language, where the word must
    /// still be found) — not one pack per locale, which cost 41 Milan builds; the table goes to the test log.
    @Test(.needsSharedData) func localWordFindsTheCategoryInEveryLocale() throws {
        let osm = try #require(TestPaths.sharedData).appendingPathComponent("osm/milan-2015.osm.pbf")
        let tmp = try TestPaths.temporaryDirectory("category-synonyms")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let locales = Self.localWords
        let singles = ["en", "ja", "ar"]
        // The all-locales pack and the single-locale ones, two builds at a time (one per core).
        let packs = [locales.map(\.locale)] + singles.map { [$0] }
        final class Readers: @unchecked Sendable {
            let lock = NSLock()
            var byIndex: [Int: PackReader] = [:]
            var failures: [String] = []
        }
        let readers = Readers()
        DispatchQueue.concurrentPerform(iterations: packs.count) { i in
            do {
                let reader = try Self.build(locales: packs[i], osm: osm, in: tmp.appendingPathComponent("pack-\(i)"))
                readers.lock.withLock { readers.byIndex[i] = reader }
            } catch {
                readers.lock.withLock { readers.failures.append("\(packs[i].count == 1 ? packs[i][0] : "all"): \(error)") }
            }
        }
        try #require(readers.failures.isEmpty, "\(readers.failures)")
        let all = try #require(readers.byIndex[0])
        var table = "locale    " + Self.categories.map { $0.padding(toLength: 11, withPad: " ", startingAt: 0) }.joined()
        var missing: [String] = []
        for (locale, words) in locales {
            let found = try Self.found(words, locale: locale, in: all)
            table += "\n" + locale.padding(toLength: 10, withPad: " ", startingAt: 0)
                + found.map { ($0 ? "✓" : "✗").padding(toLength: 11, withPad: " ", startingAt: 0) }.joined()
            for (j, ok) in found.enumerated() where !ok {
                missing.append("\(locale) '\(words[j])' → \(Self.categories[j])")
            }
        }
        for (k, locale) in singles.enumerated() {
            let words = try #require(locales.first { $0.locale == locale }).words
            let reader = try #require(readers.byIndex[k + 1])
            #expect(reader.meta.locales == [locale], "a pack built for \(locale) alone")
            // Searched as the app of that one language asks, and with no reader language at all.
            for asked in [locale, nil] as [String?] {
                for (j, ok) in try Self.found(words, locale: asked, in: reader).enumerated() where !ok {
                    missing.append("\(locale)-only pack, asked in \(asked ?? "no locale"): '\(words[j])' → \(Self.categories[j])")
                }
            }
        }
        print("Category search per locale (Milan 2015, one pack with every locale, searched in each):\n\(table)")
        #expect(locales.count >= 30)
        #expect(missing.isEmpty, "not found: \(missing.joined(separator: "; "))")
    }

    /// Whether each word, searched in `locale`, has a POI of its category among the first 50 results.
    static func found(_ words: [String], locale: String?, in reader: PackReader) throws -> [Bool] {
        try zip(words, categories).map { word, category in
            try reader.search(word, locale: locale, limit: 50).contains { $0.category == category }
        }
    }

    /// Builds Milan with `locales: LOCALES` into `folder` and opens its pack.
    static func build(locales: [String], osm: URL, in folder: URL) throws -> PackReader {
        let city = folder.appendingPathComponent("in/milan")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        let yaml = """
            id: milan
            name: "Milan"
            locales: [\(locales.joined(separator: ", "))]
            bbox: [9.0371396, 45.3381459, 9.4691804, 45.6787964]
            sources:
              osm: ["\(osm.path)"]
              gtfs: []
            attribution: "© OpenStreetMap contributors, ODbL 1.0"
            rules: {}

            """
        try Data(yaml.utf8).write(to: city.appendingPathComponent("city.yaml"))
        let output = folder.appendingPathComponent("out")
        let build = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"])
        guard build.status == 0 else {
            throw BuildFailure(description: "build exited \(build.status): \(build.stderr.suffix(1000))")
        }
        return try PackReader.open(manifest: output.appendingPathComponent("milan/manifest.json"))
    }
}

private struct BuildFailure: Error, CustomStringConvertible {
    var description: String
}
