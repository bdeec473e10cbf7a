import Testing

/// Every rule of `Sources/CityPackValidate/Rules/POI/` with an example, through the libraries: the triggering
/// variant reports it, the passing one does not (see `RuleExampleLibraryRun`).
@Suite struct POIRuleExampleTests {
    @Test func everyRuleIsCataloguedWithAnExampleOrAWaiver() {
        RuleExampleLibraryRun.expectCatalogued(.poi)
    }

    @Test(arguments: RuleExampleLibraryRun.exampled(.poi))
    func exampleTriggersAndPasses(_ code: String) throws {
        try RuleExampleLibraryRun.expectExample(code, in: .poi)
    }
}
