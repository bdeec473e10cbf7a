import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackKit
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// Writes packs with Emit and reads them back with CityPackKit, as an app would.
@Suite struct RoundTripTests {
    @Test func nearbyAndSearchMatchWhatWasWritten() throws {
        var rng = SplitMix64(seed: 42)
        var pois: [POI] = []
        // A dense cluster around a cell corner so queries straddle geohash cell edges.
        let corner = Geohash(lat: 43.7384, lon: 7.4246, precision: 8).bounds
        for i in 0..<2000 {
            let lat = corner.minLat + (rng.unit() - 0.5) * 0.004
            let lon = corner.minLon + (rng.unit() - 0.5) * 0.006
            let category = ["toilet", "atm", "cafe"][i % 3]
            let name: String? = category == "cafe" ? "Café Numéro \(i)" : nil
            pois.append(
                POI(ref: OSMRef(i % 5 == 0 ? .way : .node, Int64(1000 + i)), coordinate: Coordinate(lat: lat, lon: lon),
                    category: category, name: name, localizedNames: name == nil ? [:] : ["de": "Kaffee \(i)"], tags: ["fee": "no"],
                    location: SourceLocation(file: "r.osm", line: i + 1, column: 1)))
        }
        let categories = [
            PackCategory(id: "toilet", priority: 1, labels: ["en": "Toilet", "fr": "Toilettes"], synonyms: ["en": ["wc", "restroom"], "de": ["Toilette"]]),
            PackCategory(id: "atm", priority: 2, labels: ["en": "ATM"], synonyms: ["de": ["Geldautomat"], "fr": ["distributeur"]]),
            PackCategory(id: "cafe", priority: 3, labels: ["en": "Café"], synonyms: [:]),
        ]
        // A pack carries the search words of English and of its locales: "toilette", "distributeur", "Geldautomat".
        let city = City(
            id: "rt", name: "Round Trip", locales: ["en", "fr", "de"], bbox: BoundingBox(minLon: 7, minLat: 43, maxLon: 8, maxLat: 44))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString)").path
        let result = try PackEmitter.emit(
            PackInput(city: city, pois: pois, categories: categories, createdAt: 0, generator: "test", sources: []),
            outputDirectory: dir)

        let reader = try PackReader.open(manifest: URL(fileURLWithPath: result.manifestPath))
        #expect(reader.poiCount == pois.count)
        #expect(reader.meta.dataVersion == 1)
        #expect(reader.meta.cityID == "rt")

        for _ in 0..<300 {
            let lat = corner.minLat + (rng.unit() - 0.5) * 0.004
            let lon = corner.minLon + (rng.unit() - 0.5) * 0.006
            let radius = [5.0, 25, 60][Int(rng.next() % 3)]
            let got = try reader.nearby(lat: lat, lon: lon, radius: radius, limit: 10_000).map(\.id)
            let expected = pois.filter {
                GreatCircle.distance(lat, lon, $0.coordinate.lat, $0.coordinate.lon) <= radius
            }.map(\.ref.stableID)
            #expect(Set(got) == Set(expected))
        }
        for term in ["wc", "toilette", "Geldautomat", "distributeur", "cafe", "numero 7", "kaffee"] {
            #expect(try !reader.search(term).isEmpty, "search '\(term)'")
        }
        let one = try #require(try reader.place(id: OSMRef(.way, 1000).stableID, locale: "de"))
        #expect(one.osm == "w1000" && one.category == "toilet")
        let cafe = try #require(try reader.place(id: OSMRef(.node, 1002).stableID, locale: "de"))
        #expect(cafe.name == "Kaffee 2")
    }
}
