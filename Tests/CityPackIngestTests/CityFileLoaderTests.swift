import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// The city file: accepted forms, and every problem reported at its line and column.
@Suite struct CityFileLoaderTests {
    /// The rule codes overrides may name here (the compiler passes the whole catalogue).
    static let knownRules: Set<String> = ["osm.poi_missing_name", "osm.duplicate_poi"]

    func parse(_ text: String, files: [String] = ["a.osm"]) throws -> (City?, DiagnosticBag) {
        let dir = try TestPaths.temporaryDirectory("cityfile")
        for f in files { try Data("<osm/>".utf8).write(to: dir.appendingPathComponent(f)) }
        let bag = DiagnosticBag()
        let city = CityFileLoader.parse(
            text, file: dir.appendingPathComponent("city.yaml").path, knownRules: Self.knownRules, bag: bag)
        return (city, bag)
    }

    @Test func validCity() throws {
        let (city, bag) = try parse("""
            id: vaduz
            name: Vaduz
            names: { de: Vaduz }
            locales: [de, en]
            bbox: [9.47, 47.04, 9.64, 47.28]
            sources:
              osm: [a.osm]
            rules: { osm.poi_missing_name: off, osm.duplicate_poi: error }
            size_budget: 1000000
            """)
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics)")
        #expect(city?.id == "vaduz" && city?.defaultLocale == "de" && city?.locales == ["de", "en"])
        #expect(city?.bbox == BoundingBox(minLon: 9.47, minLat: 47.04, maxLon: 9.64, maxLat: 47.28))
        #expect(city?.osmFiles.first?.hasSuffix("/a.osm") == true)
        #expect(city?.disabledRules == ["osm.poi_missing_name"])
        #expect(city?.severityOverrides["osm.duplicate_poi"] == .error)
    }

    @Test func syntaxErrorIsLocated() throws {
        let (city, bag) = try parse("id: x\nname: [unclosed\nbbox: [1,2,3,4]\n")
        #expect(city == nil)
        let d = try #require(bag.diagnostics.first)
        #expect(d.code == "city.syntax")
        #expect(d.location?.line ?? 0 >= 2)
    }

    @Test func badBBoxAndMissingSourceAreLocated() throws {
        let (city, bag) = try parse("""
            id: x
            name: X
            bbox: [10, 50, 9, 40]
            sources:
              osm: [missing.osm]
            """)
        #expect(city == nil)
        let codes = bag.diagnostics.map(\.code)
        #expect(codes.contains("city.invalid_bbox") && codes.contains("city.missing_source"))
        #expect(bag.diagnostics.first { $0.code == "city.invalid_bbox" }?.location?.line == 3)
        #expect(bag.diagnostics.first { $0.code == "city.missing_source" }?.location?.line == 5)
    }

    @Test func unknownKeyAndRuleAndLocale() throws {
        let (_, bag) = try parse("""
            id: x
            name: X
            colour: red
            locales: [english]
            bbox: [1, 2, 3, 4]
            sources: { osm: [a.osm] }
            rules: { osm.no_such_rule: error }
            """)
        let codes = Set(bag.diagnostics.map(\.code))
        #expect(codes == ["city.syntax", "city.invalid_locale", "city.unknown_rule"])
    }

    @Test func writerOutputIsAccepted() throws {
        let text = CityFileWriter.yaml(
            id: "x", name: "Saint-Étienne \"centre\"", locales: ["fr", "en"],
            bbox: BoundingBox(minLon: 4.3, minLat: 45.4, maxLon: 4.4, maxLat: 45.5), osm: ["a.osm"], gtfs: [],
            attribution: "© OpenStreetMap contributors")
        let (city, bag) = try parse(text)
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics)")
        #expect(city?.name == "Saint-Étienne \"centre\"")
        #expect(CityFileWriter.relativePath(of: "/a/b/c/d.osm", from: "/a/b/x") == "../c/d.osm")
    }

    /// Names with a quote followed by a combining mark, a backslash, a newline or a control character still give a
    /// city file that reads back to the same name.
    @Test func writerEscapesByScalar() throws {
        for name in ["Quote\"\u{301} mark", "back\\slash", "two\nlines", "tab\there", "bell\u{7}"] {
            let text = CityFileWriter.yaml(
                id: "x", name: name, locales: ["en"], bbox: BoundingBox(minLon: 4.3, minLat: 45.4, maxLon: 4.4, maxLat: 45.5),
                osm: ["a.osm"], gtfs: [], attribution: "© OpenStreetMap contributors")
            let (city, bag) = try parse(text)
            #expect(bag.diagnostics.isEmpty, "\(name.debugDescription): \(bag.diagnostics)")
            #expect(city?.name.unicodeScalars.elementsEqual(name.unicodeScalars) == true, "\(name.debugDescription)")
        }
    }

    @Test func localeTags() {
        for ok in ["en", "fr", "pt-BR", "zh-Hant", "sr_Latn", "gsw"] { #expect(CityFileLoader.isLocale(ok), "\(ok)") }
        for bad in ["", "e", "english", "en-", "1a", "name"] { #expect(!CityFileLoader.isLocale(bad), "\(bad)") }
    }
}
