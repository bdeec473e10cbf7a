import Testing

/// Every rule of `Sources/CityPackValidate/Rules/Copy/` with an example, through the libraries: the triggering
/// variant reports it, the passing one does not (see `RuleExampleLibraryRun`).
@Suite struct CopyRuleExampleTests {
    @Test func everyRuleIsCataloguedWithAnExampleOrAWaiver() {
        RuleExampleLibraryRun.expectCatalogued(.copy)
    }

    @Test(arguments: RuleExampleLibraryRun.exampled(.copy))
    func exampleTriggersAndPasses(_ code: String) throws {
        try RuleExampleLibraryRun.expectExample(code, in: .copy)
    }
}
