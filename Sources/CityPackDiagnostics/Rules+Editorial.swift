extension Rules {
    public static let editorialDuplicateID = RuleDescription(
        "editorial.duplicate_id", .editorial, .error, "A card, situation, action or route id repeats in its file",
        rationale: "Ids link cards to situations, actions and routes; a repeated id makes every link to it ambiguous.",
        example: RuleExample(
            file: "editorial/cards.csv",
            triggering: "card_id,title\ntoilet,Toilets\ntoilet,Public toilets\n",
            passing: "card_id,title\ntoilet,Toilets\npublic_toilet,Public toilets\n"))
    public static let editorialUnknownReference = RuleDescription(
        "editorial.unknown_reference", .editorial, .error,
        "A situation, action or waypoint refers to a card, situation, route or stop that does not exist",
        rationale: "A dangling link is a button that does nothing; it is caught at build time instead.",
        exampleWaiver: "One input file cannot show it: it needs a situation or action file plus the cards it points past; EditorialRulesTests.unknownReference covers it.")
    public static let editorialUnreachable = RuleDescription(
        "editorial.unreachable", .editorial, .warning,
        "A card, situation or action cannot be reached from the home screen",
        rationale: "Content nobody can open is dead weight in the pack and usually a forgotten link or a wrong id.",
        example: RuleExample(
            file: "editorial/cards.csv",
            triggering: "card_id,title,home\ntoilet,Toilets,1\nhidden,Hidden,0\n",
            passing: "card_id,title,home\ntoilet,Toilets,1\nhidden,Hidden,1\n"))
    public static let editorialReferenceCycle = RuleDescription(
        "editorial.reference_cycle", .editorial, .error, "Card and situation links form a cycle",
        rationale: "An action that leads back to where it came from traps the user in a loop of screens.",
        exampleWaiver: "One input file cannot show it: a cycle spans cards, situations and actions, three files; EditorialRulesTests.referenceCycle covers it.")
    public static let editorialCategoryWithoutPOI = RuleDescription(
        "editorial.category_without_poi", .editorial, .warning,
        "A `nearby` action names a category with no POI in the city",
        rationale: "The action would always show an empty list; either the category id is wrong or the city lacks it.",
        exampleWaiver: "One input file cannot show it: it needs cards, situations and an action together; EditorialRulesTests.categoryWithoutPOI covers it.")
    public static let editorialInvalidAction = RuleDescription(
        "editorial.invalid_action", .editorial, .error,
        "An action has an unknown kind, lacks its target or text, or has a malformed phone number",
        rationale: "Apps dispatch on the kind and target; a malformed action cannot be shown.",
        exampleWaiver: "One input file cannot show it: an action only exists under a situation of a card, three files; EditorialRulesTests.invalidAction covers it.")
    public static let editorialMissingTranslation = RuleDescription(
        "editorial.missing_translation", .editorial, .warning,
        "An editorial text has no translation for one of the city's locales; the default locale's text is used",
        rationale: "Users reading another language would see the default-locale text in the middle of their own.",
        example: RuleExample(
            file: "editorial/cards.csv",
            triggering: "card_id,title,title:de,title:fr\ntoilet,Toilets,Toiletten,\n",
            passing: "card_id,title,title:de,title:fr\ntoilet,Toilets,Toiletten,Toilettes\n"))
    public static let editorialRouteUnknownPOI = RuleDescription(
        "editorial.route_unknown_poi", .editorial, .error, "A waypoint references a POI that is not in the pack",
        rationale: "The waypoint would have no position; the POI may have been deleted from OSM or filtered out.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeUnknownPOI covers it.")
    public static let editorialRouteTooFewWaypoints = RuleDescription(
        "editorial.route_too_few_waypoints", .editorial, .error, "A walking route has fewer than two waypoints",
        rationale: "A route needs a start and an end.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeTooFewWaypoints covers it.")
    public static let editorialRouteDuplicateSequence = RuleDescription(
        "editorial.route_duplicate_sequence", .editorial, .error, "Two waypoints of one route share a sequence number",
        rationale: "The order of the route would depend on file order rather than on the data.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeDuplicateSequence covers it.")
    public static let editorialRouteWaypointOutsideBBox = RuleDescription(
        "editorial.route_waypoint_outside_bbox", .editorial, .error, "A waypoint lies outside the city bounding box",
        rationale: "Every coordinate of a pack is inside the city; a point outside is usually swapped lat/lon.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeWaypointOutsideBBox covers it.")
    public static let editorialRouteImplausibleLeg = RuleDescription(
        "editorial.route_implausible_leg", .editorial, .warning,
        "Two consecutive waypoints are at the same place (under 1 m) or more than 3 km apart",
        rationale: "A walking route's legs are short; a zero or very long leg is a repeated or misplaced waypoint.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.routeImplausibleLeg covers it.")
    public static let editorialInvalidWaypoint = RuleDescription(
        "editorial.invalid_waypoint", .editorial, .error,
        "A waypoint has neither or both of a POI and a lat/lon, an unreadable POI reference, or a bad radius",
        rationale: "Each waypoint must say unambiguously where it is and how close an alert fires.",
        exampleWaiver: "One input file cannot show it: a route needs routes.csv and route_waypoints.csv together; EditorialRulesTests.invalidWaypoint covers it.")

    static let editorialRules: [RuleDescription] = [
        editorialDuplicateID, editorialUnknownReference, editorialUnreachable, editorialReferenceCycle,
        editorialCategoryWithoutPOI, editorialInvalidAction, editorialMissingTranslation, editorialRouteUnknownPOI,
        editorialRouteTooFewWaypoints, editorialRouteDuplicateSequence, editorialRouteWaypointOutsideBBox,
        editorialRouteImplausibleLeg, editorialInvalidWaypoint,
    ]
}
