import CityPackDiagnostics

// The rules `EditorialReader` reports while reading the editorial CSV files. `editorial.invalid_action` is
// reported here (unknown kind) and by the validator, so it sits below both stages (CityPackDiagnostics,
// Rules+SharedStages.swift); the other editorial rules judge the content as read and live in CityPackValidate's
// Rules/Editorial. `RuleCatalog` lists them all.

extension Rules {
    public static let editorialMissingTranslation = RuleDescription(
        "editorial.missing_translation", .editorial, .warning,
        "An editorial text has no translation for one of the city's locales; the default locale's text is used",
        rationale: "Users reading another language would see the default-locale text in the middle of their own.",
        example: RuleExample(
            file: "editorial/cards.csv",
            triggering: "card_id,title,title:de,title:fr\ntoilet,Toilets,Toiletten,\n",
            passing: "card_id,title,title:de,title:fr\ntoilet,Toilets,Toiletten,Toilettes\n"))
    public static let editorialInvalidWaypoint = RuleDescription(
        "editorial.invalid_waypoint", .editorial, .error,
        "A waypoint has neither or both of a POI and a lat/lon, an unreadable POI reference, or a bad radius",
        rationale: "Each waypoint must say unambiguously where it is and how close an alert fires.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.invalidWaypoint covers it.")
}
