import CityPackDiagnostics
import CityPackModel
import CityPackValidate
import Testing

@Suite struct POIMissingNameRuleTests {
    typealias F = POIRuleFixture

    @Test func missingNameTriggers() {
        let (bag, _) = F.run(POIMissingNameRule(), [F.poi(1, 43.5, 7.5, name: nil)])
        #expect(bag.diagnostics.map(\.code) == ["osm.poi_missing_name"])
        #expect(bag.warningCount == 1)
    }

    @Test func categoriesThatRarelyHaveNamesAreQuiet() {
        let (bag, _) = F.run(POIMissingNameRule(), [F.poi(1, 43.5, 7.5, category: "drinking_water", name: nil)])
        #expect(bag.diagnostics.isEmpty)
    }

    @Test func localizedNameIsEnough() {
        let (bag, _) = F.run(POIMissingNameRule(), [F.poi(1, 43.5, 7.5, name: nil, names: ["fr": "Toilettes"]), F.poi(2, 43.5, 7.6)])
        #expect(bag.diagnostics.isEmpty)
    }
}
