import CityPackDiagnostics
import CityPackModel
import CityPackValidate
import Testing

@Suite struct POIOutsideBBoxRuleTests {
    typealias F = POIRuleFixture

    @Test func outsideBBoxTriggersAndDrops() {
        let (bag, dropped) = F.run(POIOutsideBBoxRule(), [F.poi(1, 45, 7.5), F.poi(2, 43.5, 7.5)])
        #expect(dropped == [OSMRef(.node, 1)])
        #expect(bag.diagnostics.map(\.code) == ["osm.poi_outside_bbox"])
        #expect(bag.diagnostics.first?.location == SourceLocation(file: "c.osm", line: 11, column: 3))
        #expect(bag.diagnostics.first?.entity == "n1")
    }

    @Test func insideBBoxIncludingEdgesIsQuiet() {
        let (bag, dropped) = F.run(POIOutsideBBoxRule(), [F.poi(1, 43, 7), F.poi(2, 44, 8), F.poi(3, 43.5, 7.5)])
        #expect(dropped.isEmpty && bag.diagnostics.isEmpty)
    }
}
