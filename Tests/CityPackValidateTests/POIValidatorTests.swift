import CityPackDiagnostics
import CityPackModel
import CityPackValidate
import Testing

@Suite struct POIValidatorTests {
    typealias F = POIRuleFixture

    @Test func validatorKeepsOrderAndDropsOutside() {
        let bag = DiagnosticBag(overrides: ["osm.poi_missing_name": .error])
        let kept = POIValidator.validate([F.poi(2, 43.5, 7.5), F.poi(1, 50, 7.5), F.poi(3, 43.6, 7.5, name: nil)], city: F.city, bag: bag)
        #expect(kept.map(\.ref.id) == [2, 3])
        #expect(bag.errorCount == 1, "override to error applies")
    }
}
