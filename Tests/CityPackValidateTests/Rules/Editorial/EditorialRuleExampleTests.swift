import Testing

/// Every rule of `Sources/CityPackValidate/Rules/Editorial/` with an example, through the libraries: the triggering
/// variant reports it, the passing one does not (see `RuleExampleLibraryRun`).
@Suite struct EditorialRuleExampleTests {
    @Test func everyRuleIsCataloguedWithAnExampleOrAWaiver() {
        RuleExampleLibraryRun.expectCatalogued(.editorial)
    }

    @Test(arguments: RuleExampleLibraryRun.exampled(.editorial))
    func exampleTriggersAndPasses(_ code: String) throws {
        try RuleExampleLibraryRun.expectExample(code, in: .editorial)
    }
}
