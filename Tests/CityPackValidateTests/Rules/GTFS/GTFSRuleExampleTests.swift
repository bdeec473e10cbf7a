import Testing

/// Every rule of `Sources/CityPackValidate/Rules/GTFS/` with an example, through the libraries: the triggering
/// variant reports it, the passing one does not (see `RuleExampleLibraryRun`).
@Suite struct GTFSRuleExampleTests {
    @Test func everyRuleIsCataloguedWithAnExampleOrAWaiver() {
        RuleExampleLibraryRun.expectCatalogued(.gtfs)
    }

    @Test(arguments: RuleExampleLibraryRun.exampled(.gtfs))
    func exampleTriggersAndPasses(_ code: String) throws {
        try RuleExampleLibraryRun.expectExample(code, in: .gtfs)
    }
}
