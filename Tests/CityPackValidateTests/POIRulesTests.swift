import CityPackDiagnostics
import CityPackModel
import Testing

@testable import CityPackValidate

/// Each POI rule: one case that triggers it, one that does not.
@Suite struct POIRulesTests {
    static let city = City(id: "t", name: "T", bbox: BoundingBox(minLon: 7, minLat: 43, maxLon: 8, maxLat: 44))

    static let categories = [
        PackCategory(id: "toilet", priority: 1, labels: [:], synonyms: [:], expectsName: true),
        PackCategory(id: "drinking_water", priority: 2, labels: [:], synonyms: [:], expectsName: false),
    ]

    static func poi(_ id: Int64, _ lat: Double, _ lon: Double, category: String = "toilet", name: String? = "A",
                    names: [String: String] = [:]) -> POI {
        POI(ref: OSMRef(.node, id), coordinate: Coordinate(lat: lat, lon: lon), category: category, name: name,
            localizedNames: names, tags: [:], location: SourceLocation(file: "c.osm", line: Int(id) + 10, column: 3))
    }

    func run(_ rule: some POIRule, _ pois: [POI]) -> (DiagnosticBag, Set<OSMRef>) {
        let bag = DiagnosticBag()
        let dropped = rule.check(pois, context: POIRuleContext(city: Self.city, categories: Self.categories), bag: bag)
        return (bag, dropped)
    }

    @Test func outsideBBoxTriggersAndDrops() {
        let (bag, dropped) = run(POIOutsideBBoxRule(), [Self.poi(1, 45, 7.5), Self.poi(2, 43.5, 7.5)])
        #expect(dropped == [OSMRef(.node, 1)])
        #expect(bag.diagnostics.map(\.code) == ["osm.poi_outside_bbox"])
        #expect(bag.diagnostics.first?.location == SourceLocation(file: "c.osm", line: 11, column: 3))
        #expect(bag.diagnostics.first?.entity == "n1")
    }

    @Test func insideBBoxIncludingEdgesIsQuiet() {
        let (bag, dropped) = run(POIOutsideBBoxRule(), [Self.poi(1, 43, 7), Self.poi(2, 44, 8), Self.poi(3, 43.5, 7.5)])
        #expect(dropped.isEmpty && bag.diagnostics.isEmpty)
    }

    @Test func missingNameTriggers() {
        let (bag, _) = run(POIMissingNameRule(), [Self.poi(1, 43.5, 7.5, name: nil)])
        #expect(bag.diagnostics.map(\.code) == ["osm.poi_missing_name"])
        #expect(bag.warningCount == 1)
    }

    @Test func categoriesThatRarelyHaveNamesAreQuiet() {
        let (bag, _) = run(POIMissingNameRule(), [Self.poi(1, 43.5, 7.5, category: "drinking_water", name: nil)])
        #expect(bag.diagnostics.isEmpty)
    }

    @Test func localizedNameIsEnough() {
        let (bag, _) = run(POIMissingNameRule(), [Self.poi(1, 43.5, 7.5, name: nil, names: ["fr": "Toilettes"]), Self.poi(2, 43.5, 7.6)])
        #expect(bag.diagnostics.isEmpty)
    }

    @Test func duplicateTriggersWithNote() {
        let (bag, dropped) = run(DuplicatePOIRule(), [Self.poi(7, 43.5, 7.5), Self.poi(3, 43.5, 7.5)])
        #expect(dropped.isEmpty)
        let d = bag.diagnostics
        #expect(d.map(\.code) == ["osm.duplicate_poi"])
        #expect(d.first?.entity == "n7")
        #expect(d.first?.notes.first?.location?.line == 13)
    }

    @Test func samePlaceOtherCategoryOrNearbyIsNotDuplicate() {
        let (bag, _) = run(DuplicatePOIRule(), [
            Self.poi(1, 43.5, 7.5), Self.poi(2, 43.5, 7.5, category: "atm"), Self.poi(3, 43.5000001, 7.5),
        ])
        #expect(bag.diagnostics.isEmpty)
    }

    @Test func validatorKeepsOrderAndDropsOutside() {
        let bag = DiagnosticBag(overrides: ["osm.poi_missing_name": .error])
        let kept = POIValidator.validate([Self.poi(2, 43.5, 7.5), Self.poi(1, 50, 7.5), Self.poi(3, 43.6, 7.5, name: nil)], city: Self.city, bag: bag)
        #expect(kept.map(\.ref.id) == [2, 3])
        #expect(bag.errorCount == 1, "override to error applies")
    }
}
