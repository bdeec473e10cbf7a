import CityPackDevTools
import CityPackFormat
import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// "Where is the nearest toilet?" (issue 32) on packs the CLI builds: category words nearest first (checked
/// against brute force), labels for unnamed places, ß/ss folding, OSM tram platforms kept, nearby by category with
/// paging, places in a box, and the CLI contract of `query --search --near` and `--near --category`.
@Suite(.serialized) struct SearchNearestTests {
    /// Monaco (in the repository), built once per test.
    static func monaco() throws -> (reader: PackReader, output: URL) {
        let output = try TestPaths.temporaryDirectory("search-nearest")
        let build = try CLIRunner.run(["build", "inputs/monaco", "--output", output.path, "--quiet"])
        try #require(build.status == 0, "\(build.stderr)")
        return (try PackReader.open(manifest: output.appendingPathComponent("monaco/manifest.json")), output)
    }

    @Test func firstResultIsTheBruteForceNearestOfTheCategory() throws {
        let (reader, output) = try Self.monaco()
        defer { try? FileManager.default.removeItem(at: output) }
        let figures = try SearchBenchmark.measure(reader, points: 200, languages: ["en", "fr"])
        let measured = figures.words.filter { $0.points > 0 }
        #expect(measured.count >= 8, "\(figures.words)")
        for word in measured { #expect(word.agreeing == word.points, "\(word)") }
    }

    @Test func categoryWordsListTheCategoryAndNameUnnamedPlacesByTheirLabel() throws {
        let (reader, output) = try Self.monaco()
        defer { try? FileManager.default.removeItem(at: output) }
        let here = Coordinate(lat: 43.7384, lon: 7.4246)
        for (word, category) in [("toilet", "toilet"), ("WC", "toilet"), ("pharmacie", "pharmacy"), ("ATM", "atm")] {
            let found = try reader.search(word, near: here)
            #expect(!found.isEmpty, "\(word)")
            #expect(found.allSatisfy { $0.category == category || $0.alsoCategories.contains(category) }, "\(word)")
            #expect(found.map { $0.distanceMetres ?? -1 } == found.map { $0.distanceMetres ?? -1 }.sorted(), "\(word)")
        }
        let toilets = try reader.search("toilet", near: here, locale: "en")
        let unnamed = try #require(toilets.first { !$0.named })
        #expect(unnamed.name == "Toilets")
        #expect(try reader.place(id: unnamed.id, locale: "fr")?.name == "Toilettes")
        #expect(try reader.place(id: unnamed.id)?.name == "Toilets", "the default locale (en)")
        #expect(try reader.place(id: unnamed.id, locale: "fr-CA")?.name == "Toilettes", "the language of the locale")
        // Without a position: named places first.
        let listed = try reader.search("toilet", limit: 200)
        #expect(listed.map(\.named) == listed.map(\.named).sorted { $0 && !$1 })
        #expect(listed.allSatisfy { $0.distanceMetres == nil })
        // A name query is not a category query: every result matches by name, and the prefix tier comes last.
        let casino = try reader.search("casino", near: here)
        #expect(!casino.isEmpty && casino.allSatisfy { $0.named })
    }

    @Test func nearbyByCategoryPagesAndListsInABox() throws {
        let (reader, output) = try Self.monaco()
        defer { try? FileManager.default.removeItem(at: output) }
        let all = try reader.nearby(lat: 43.7384, lon: 7.4246, radius: 1000, limit: 10_000)
        #expect(all.count > 50, "Monaco has more than the old cap of 50 places within 1 km")
        let restaurants = try reader.nearby(lat: 43.7384, lon: 7.4246, radius: 1000, category: "restaurant", limit: 10_000)
        #expect(restaurants.map(\.id) == all.filter { $0.category == "restaurant" || $0.alsoCategories.contains("restaurant") }.map(\.id))
        let page = try reader.nearby(lat: 43.7384, lon: 7.4246, radius: 1000, category: "restaurant", limit: 5, offset: 5)
        #expect(page.map(\.id) == Array(restaurants.dropFirst(5).prefix(5)).map(\.id))
        #expect(try reader.nearby(lat: 43.7384, lon: 7.4246, radius: 1000, category: "no_such_category").isEmpty)
        let box = BoundingBox(minLon: 7.42, minLat: 43.735, maxLon: 7.43, maxLat: 43.74)
        let inBox = try reader.places(in: box, limit: 10_000)
        #expect(!inBox.isEmpty && inBox.allSatisfy { $0.lat >= 43.735 && $0.lat <= 43.74 && $0.lon >= 7.42 && $0.lon <= 7.43 })
        #expect(inBox.count == Set(inBox.map(\.id)).count)
        #expect(try reader.places(in: box, limit: 3).map(\.id) == Array(inBox.prefix(3)).map(\.id))
    }

    @Test func foldsSharpSAndKeepsTramPlatforms() throws {
        let tmp = try TestPaths.temporaryDirectory("search-fold")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let osm = tmp.appendingPathComponent("map.osm")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
              <node id="1" lat="47.1400" lon="9.5200"><tag k="amenity" v="pharmacy"/><tag k="name" v="Apotheke Dorfstraße"/></node>
              <node id="2" lat="47.1410" lon="9.5210"><tag k="amenity" v="toilets"/></node>
              <node id="3" lat="47.1420" lon="9.5220"><tag k="public_transport" v="platform"/><tag k="tram" v="yes"/><tag k="name" v="Rathaus"/></node>
              <node id="4" lat="47.1430" lon="9.5230"><tag k="public_transport" v="platform"/><tag k="name" v="Nirgendwo"/></node>
            </osm>
            """.utf8).write(to: osm)
        let city = tmp.appendingPathComponent("city")
        let initRun = try CLIRunner.run(["init", city.path, "--osm", osm.path, "--id", "dorf", "--locales", "de,en"])
        try #require(initRun.status == 0, "\(initRun.stderr)")
        let out = tmp.appendingPathComponent("out")
        let build = try CLIRunner.run(["build", city.path, "--output", out.path, "--quiet"])
        try #require(build.status == 0, "\(build.stderr)")
        let reader = try PackReader.open(manifest: out.appendingPathComponent("dorf/manifest.json"))
        #expect(try reader.search("Dorfstrasse").map(\.id) == [4])
        #expect(try reader.search("dorfstraße").map(\.id) == [4])
        #expect(try reader.search("Dorfstrase").isEmpty)
        #expect(try reader.search("Straßenbahn").map(\.id) == [12], "the tram platform is a tram stop")
        #expect(try reader.search("strassenbahn").map(\.id) == [12])
        #expect(try reader.search("Nirgendwo").isEmpty, "a platform of no mode is not a POI")
        let toilet = try #require(try reader.search("wc").first)
        #expect(toilet.name == "Toiletten" && !toilet.named)
        #expect(try reader.search("wc", locale: "en").first?.name == "Toilets")
    }

    @Test func queryContract() throws {
        let (_, output) = try Self.monaco()
        defer { try? FileManager.default.removeItem(at: output) }
        let pack = output.appendingPathComponent("monaco").path
        let near = try CLIRunner.run(["query", pack, "--search", "toilet", "--near", "43.7384,7.4246", "--format", "json"])
        #expect(near.status == 0, "\(near.stderr)")
        let rows = try #require(try CLIRunner.json(near.stdout)["results"] as? [[String: Any]])
        #expect(rows.count == 20, "the default search limit")
        #expect(rows.allSatisfy { ($0["name"] as? String)?.isEmpty == false && $0["distance_m"] is Double && $0["named"] is Bool })
        #expect(rows.contains { $0["named"] as? Bool == false })
        let category = try CLIRunner.run(["query", pack, "--near", "43.7384,7.4246", "--radius", "500", "--category", "pharmacy", "--format", "json"])
        let pharmacies = try #require(try CLIRunner.json(category.stdout)["results"] as? [[String: Any]])
        #expect(!pharmacies.isEmpty && pharmacies.allSatisfy { $0["category"] as? String == "pharmacy" })
        #expect(try CLIRunner.run(["query", pack, "--search", "toilet", "--radius", "5"]).status == 64)
        #expect(try CLIRunner.run(["query", pack, "--category", "toilet"]).status == 64)
        #expect(try CLIRunner.run(["query", pack, "--near", "43.7,7.4", "--offset", "-1"]).status == 64)
    }
}
