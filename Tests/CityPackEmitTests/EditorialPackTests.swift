import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackKit
import CityPackModel
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// Editorial tables and copy written with Emit and read back with CityPackKit; copy files beside the pack are
/// listed in the manifest with sizes and hashes and replaced atomically.
@Suite struct EditorialPackTests {
    static let city = City(id: "ed", name: "Editorial", defaultLocale: "en", locales: ["en", "de"],
        bbox: BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.44, maxLat: 43.76))
    static let here = SourceLocation(file: "x.csv", line: 1, column: 1)
    static let poi = POI(ref: OSMRef(.node, 10), coordinate: Coordinate(lat: 43.7300, lon: 7.4200), category: "toilet",
        name: "WC", localizedNames: ["de": "Toilette"], tags: [:], location: here)

    static func input(copyText: String = "Download {city}") throws -> PackInput {
        var content = EditorialContent()
        content.cards = [
            Card(id: "toilet", title: ["en": "Toilets", "de": "Toiletten"], icon: "toilet", position: 0, location: here),
            Card(id: "lost", title: ["en": "Lost"], home: false, position: 1, location: here),
        ]
        content.situations = [
            Situation(id: "now", card: "toilet", title: ["en": "Now", "de": "Jetzt"], body: ["en": "Body"], position: 0,
                location: here, cardLocation: here),
        ]
        content.actions = [
            Action(id: "b", situation: "now", kind: .text, target: "", label: ["en": "Tip"], text: ["en": "Text", "de": "Hinweis"],
                position: 1, location: here, situationLocation: here, targetLocation: here),
            Action(id: "a", situation: "now", kind: .nearby, target: "toilet", label: ["en": "Nearby", "de": "In der Nähe"],
                position: 0, location: here, situationLocation: here, targetLocation: here),
        ]
        content.routes = [
            WalkingRoute(id: "walk", name: ["en": "Walk", "de": "Spaziergang"], waypoints: [
                Waypoint(route: "walk", sequence: 1, place: .poi(40), coordinate: poi.coordinate, location: here, placeLocation: here),
                Waypoint(route: "walk", sequence: 5, place: .point(Coordinate(lat: 43.7320, lon: 7.4230)),
                    coordinate: Coordinate(lat: 43.7320, lon: 7.4230), name: ["en": "Square", "de": "Platz"], radius: 40,
                    location: here, placeLocation: here),
            ], position: 0, location: here),
        ]
        var copy = CopyTable(defaultLocale: "en", locales: ["en", "de"])
        func e(_ text: String) throws -> CopyEntry { CopyEntry(value: .text(try CopyMessage.parse(text)), location: here, fromTemplate: true) }
        copy.entries["en"] = ["app.download": try e(copyText), "app.only_en": try e("English only"),
            "route.stops": CopyEntry(value: .plural([.one: try CopyMessage.parse("{count} stop"), .other: try CopyMessage.parse("{count} stops")]),
                location: here, fromTemplate: true)]
        copy.entries["de"] = ["app.download": try e("{city} laden")]
        var input = PackInput(city: city, pois: [poi], categories: [PackCategory(id: "toilet", priority: 1, labels: ["en": "Toilet"])],
            createdAt: 0, generator: "test", sources: [])
        input.editorial = content
        input.copy = copy
        return input
    }

    @Test func roundTrip() throws {
        let dir = try TestPaths.temporaryDirectory("editorial-pack")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try PackEmitter.emit(try Self.input(), outputDirectory: dir.path)
        let reader = try PackReader.open(manifest: URL(fileURLWithPath: result.manifestPath))
        defer { reader.close() }

        #expect(try reader.editorial.cards().map(\.id) == ["toilet", "lost"])
        #expect(try reader.editorial.cards(homeOnly: true).map(\.id) == ["toilet"])
        #expect(try reader.editorial.cards(locale: "de").map(\.title) == ["Toiletten", "Lost"])  // de falls back to en
        #expect(try reader.editorial.cards(locale: "de-CH").first?.title == "Toiletten")
        let situations = try reader.editorial.situations(card: "toilet", locale: "de")
        #expect(situations.map(\.title) == ["Jetzt"] && situations.first?.body == "Body")
        let actions = try reader.editorial.actions(situation: "now", locale: "de")
        #expect(actions.map(\.id) == ["a", "b"])
        #expect(actions[0].kind == .nearby && actions[0].target == "toilet" && actions[0].label == "In der Nähe")
        #expect(actions[1].kind == .text && actions[1].target == nil && actions[1].text == "Hinweis")

        let routes = try reader.editorial.routes(locale: "de")
        #expect(routes.map(\.name) == ["Spaziergang"] && routes[0].waypoints.isEmpty)
        let route = try #require(try reader.editorial.route(id: "walk", locale: "de"))
        #expect(route.waypoints.map(\.sequence) == [1, 5])
        #expect(route.waypoints[0].poi == 40 && route.waypoints[0].name == "Toilette" && route.waypoints[0].radius == 25)
        #expect(route.waypoints[1].poi == nil && route.waypoints[1].name == "Platz" && route.waypoints[1].radius == 40)
        let expectedLength = GreatCircle.distance(43.73, 7.42, 43.732, 7.423)
        #expect(abs(route.lengthMetres - expectedLength) < 0.1)
        // Region: box 0.002° × 0.003°, padded 20 % per side, widened to 0.01°.
        #expect(abs((route.region.maxLat - route.region.minLat) - 0.01) < 1e-7)
        #expect(abs(route.region.centerLat - 43.731) < 1e-7 && abs(route.region.centerLon - 7.4215) < 1e-7)
        #expect(try reader.editorial.route(id: "nope") == nil)

        let de = try reader.editorial.strings(locale: "de")
        #expect(de["app.download"] == .text("{city} laden"))
        #expect(de["app.only_en"] == .text("English only"))
        #expect(de["route.stops"] == .plural(["one": "{count} stop", "other": "{count} stops"]))
        #expect(try reader.editorial.string(key: "app.download", locale: "de-AT") == .text("{city} laden"))
        #expect(try reader.editorial.string(key: "app.download", locale: "ja") == .text("Download {city}"))
        #expect(try reader.editorial.string(key: "missing", locale: "en") == nil)
    }

    @Test func copyFilesAreListedAndReplacedAtomically() throws {
        let dir = try TestPaths.temporaryDirectory("editorial-copy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try PackEmitter.emit(try Self.input(), outputDirectory: dir.path)
        let files = try #require(first.manifest.copy)
        #expect(files.map(\.path) == [
            "copy/android/values-de/strings.xml", "copy/android/values-en/strings.xml", "copy/android/values/strings.xml",
            "copy/apple/Localizable.xcstrings",
            "copy/web/de.json", "copy/web/en.json",
        ])
        let cityDir = dir.appendingPathComponent("ed")
        for file in files {
            let data = try Data(contentsOf: cityDir.appendingPathComponent(file.path))
            #expect(data.count == file.bytes && FileDigest.sha256(of: data) == file.sha256, "\(file.path)")
        }
        #expect(first.manifest.counts.cards == 2 && first.manifest.counts.routes == 1)

        // A changed string: new pack version, new copy files, no staging left behind.
        let second = try PackEmitter.emit(try Self.input(copyText: "Get {city}"), outputDirectory: dir.path)
        #expect(second.manifest.dataVersion == 2)
        let en = try String(contentsOf: cityDir.appendingPathComponent("copy/web/en.json"), encoding: .utf8)
        #expect(en.contains("Get {city}"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cityDir.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)

        // A pack without copy removes the folder and the manifest field.
        var none = try Self.input()
        none.copy = nil
        let third = try PackEmitter.emit(none, outputDirectory: dir.path)
        #expect(third.manifest.copy == nil)
        #expect(!FileManager.default.fileExists(atPath: cityDir.appendingPathComponent("copy").path))
    }

    /// A German string equal to the English fallback leaves the pack's `string` rows as they were but adds it to
    /// values-de and the catalog: still new content, so a new data version; an identical rebuild keeps the version.
    @Test func copyOnlyChangesBumpTheVersion() throws {
        let dir = try TestPaths.temporaryDirectory("editorial-version")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try PackEmitter.emit(try Self.input(), outputDirectory: dir.path)
        #expect(try PackEmitter.emit(try Self.input(), outputDirectory: dir.path).manifest.dataVersion == first.manifest.dataVersion)
        var input = try Self.input()
        input.copy!.entries["de"]!["app.only_en"] = CopyEntry(
            value: .text(try CopyMessage.parse("English only")), location: Self.here, fromTemplate: false)
        let second = try PackEmitter.emit(input, outputDirectory: dir.path)
        #expect(second.manifest.contentSha256 == first.manifest.contentSha256)
        #expect(second.manifest.dataVersion == first.manifest.dataVersion + 1)
    }

    @Test func routeRegion() throws {
        let one = try #require(RouteGeometry.region([(43.73, 7.42)]))
        #expect(abs(one.maxLat - one.minLat - 0.01) < 1e-12 && abs(one.maxLon - one.minLon - 0.01) < 1e-12)
        let wide = try #require(RouteGeometry.region([(43.70, 7.40), (43.75, 7.50)]))
        #expect(abs(wide.minLat - (43.70 - 0.01)) < 1e-9 && abs(wide.maxLat - (43.75 + 0.01)) < 1e-9)
        #expect(abs(wide.minLon - (7.40 - 0.02)) < 1e-9 && abs(wide.maxLon - (7.50 + 0.02)) < 1e-9)
        let edge = try #require(RouteGeometry.region([(89.999, 179.999), (89.9, 179.9)]))
        #expect(edge.maxLat <= 90 && edge.maxLon <= 180)
        #expect(RouteGeometry.region([]) == nil)
        #expect(RouteGeometry.length([(43.73, 7.42)]) == 0)
    }
}
