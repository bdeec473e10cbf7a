import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let editorialCategoryWithoutPOI = RuleDescription(
        "editorial.category_without_poi", .editorial, .warning,
        "A `nearby` action names a category with no POI in the city",
        rationale: "The action would always show an empty list; either the category id is wrong or the city lacks it.",
        exampleWaiver: "One input file cannot show it: it needs cards, situations and an action together; EditorialRulesTests.categoryWithoutPOI covers it.")
}

/// A `nearby` action for a category the city has no POI of would always show an empty list. Not judged when
/// the OSM sources had reading errors (a POI that could not be read would look missing); a category the profile
/// does not define is `editorial.invalid_action` instead. The action stays in the pack.
enum CategoryWithoutPOIRule {
    static func check(_ a: Action, context: EditorialContext, bag: DiagnosticBag) {
        guard a.kind == .nearby, context.poisComplete, !context.categoriesWithPOIs.contains(a.target) else { return }
        bag.report(Rules.editorialCategoryWithoutPOI, .noPOI(a), at: a.targetLocation, entity: a.id)
    }
}

extension String {
    fileprivate static func noPOI(_ a: Action) -> String {
        "action `\(a.id)` shows nearby `\(a.target)`, but the city has no POI of that category"
    }
}
