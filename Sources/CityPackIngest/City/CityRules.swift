import CityPackDiagnostics

// The rules `CityFileLoader` reports while reading `city.yaml` (`city.missing_source` also when the compiler
// cannot find the templates or profile). `RuleCatalog` lists them.

private typealias Base = RuleExampleCity

extension Rules {
    public static let citySyntax = RuleDescription(
        "city.syntax", .city, .error, "The city file is not valid YAML or has a field of the wrong type",
        title: "City file syntax",
        rationale: "The build cannot know which sources to read without a readable city file.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "fr: Exemple }", "fr: Exemple"),
            passing: Base.cityYAML))
    public static let cityMissingField = RuleDescription(
        "city.missing_field", .city, .error, "A required field of the city file is missing or empty",
        title: "Missing city field",
        rationale: "id, name and at least one source are needed to name and fill a pack.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "name: Example\n", "name: \"\"\n"),
            passing: Base.cityYAML))
    public static let cityInvalidBBox = RuleDescription(
        "city.invalid_bbox", .city, .error, "The city bounding box is not four numbers [minLon, minLat, maxLon, maxLat] within ±180/±90 with min ≤ max "
            + "(minLon > maxLon only for a box across the antimeridian, narrower than 180°)",
        title: "Invalid bounding box",
        rationale: "Every element is checked against the bounding box; a wrong box drops real data.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "[7.40, 43.72, 7.44, 43.76]", "[7.44, 43.72, 7.40, 43.76]"),
            passing: Base.cityYAML))
    public static let cityMissingSource = RuleDescription(
        "city.missing_source", .city, .error, "A source file named in the city file does not exist",
        title: "Missing source",
        rationale: "A pack built without one of its sources would silently miss data.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "osm: [map.osm]", "osm: [monaco.osm]"),
            passing: Base.cityYAML))
    public static let cityUnknownRule = RuleDescription(
        "city.unknown_rule", .city, .warning, "A severity override names a rule code that does not exist",
        title: "Unknown rule in override",
        rationale: "A typo in an override would otherwise silently leave the rule at its default.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.cityYAML + "rules: { osm.poi_mising_name: off }\n",
            passing: Base.cityYAML + "rules: { osm.poi_missing_name: off }\n"))
    public static let cityInvalidLocale = RuleDescription(
        "city.invalid_locale", .city, .error, "A locale is not a BCP 47 language tag such as `en` or `pt-BR`",
        title: "Invalid locale",
        rationale: "Locales name columns and files in the pack; apps match them against device languages.",
        example: RuleExample(
            file: "city.yaml",
            triggering: Base.edit(Base.cityYAML, "locales: [en, de, fr]", "locales: [en, deutsch, fr]"),
            passing: Base.cityYAML))
    public static let cityDuplicateID = RuleDescription(
        "city.duplicate_id", .city, .error, "Two cities of one fleet build have the same id; neither is built",
        title: "Duplicate city id in a fleet",
        rationale: "Packs, manifests and catalog entries are named by the city id: two cities would overwrite each other.",
        exampleWaiver: "Needs two city folders built together; FleetTests.duplicateCityIDsAreRefused builds such a fleet and checks neither city is written while the others are.")
    public static let cityFleetInvalid = RuleDescription(
        "city.fleet_invalid", .city, .error,
        "The fleet file is not valid YAML, has an unknown key, or names a city folder that does not exist",
        title: "Invalid fleet file",
        rationale: "A fleet file with a typo would silently leave cities out of a release.",
        exampleWaiver: "The example city has no fleet file; FleetTests.fleetFileProblemsAreLocated checks each problem is located in fleet.yaml.")
}
