import CityPackDiagnostics
import CityPackModel
import CityPackValidate
import Testing

@Suite struct DuplicatePOIRuleTests {
    typealias F = POIRuleFixture

    @Test func duplicateTriggersWithNote() {
        let (bag, dropped) = F.run(DuplicatePOIRule(), [F.poi(7, 43.5, 7.5), F.poi(3, 43.5, 7.5)])
        #expect(dropped.isEmpty)
        let d = bag.diagnostics
        #expect(d.map(\.code) == ["osm.duplicate_poi"])
        #expect(d.first?.entity == "n7")
        #expect(d.first?.notes.first?.location?.line == 13)
    }

    @Test func samePlaceOtherCategoryOrNearbyIsNotDuplicate() {
        let (bag, _) = F.run(DuplicatePOIRule(), [
            F.poi(1, 43.5, 7.5), F.poi(2, 43.5, 7.5, category: "atm"), F.poi(3, 43.5000001, 7.5),
        ])
        #expect(bag.diagnostics.isEmpty)
    }
}
