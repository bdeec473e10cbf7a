extension Rules {
    public static let citySyntax = RuleDescription(
        "city.syntax", .city, .error, "The city file is not valid YAML or has a field of the wrong type",
        rationale: "The build cannot know which sources to read without a readable city file.")
    public static let cityMissingField = RuleDescription(
        "city.missing_field", .city, .error, "A required field of the city file is missing or empty",
        rationale: "id, name and at least one source are needed to name and fill a pack.")
    public static let cityInvalidBBox = RuleDescription(
        "city.invalid_bbox", .city, .error, "The city bounding box is not four finite numbers with min < max",
        rationale: "Every element is checked against the bounding box; a wrong box drops real data.")
    public static let cityMissingSource = RuleDescription(
        "city.missing_source", .city, .error, "A source file named in the city file does not exist",
        rationale: "A pack built without one of its sources would silently miss data.")
    public static let cityUnknownRule = RuleDescription(
        "city.unknown_rule", .city, .warning, "A severity override names a rule code that does not exist",
        rationale: "A typo in an override would otherwise silently leave the rule at its default.")
    public static let cityInvalidLocale = RuleDescription(
        "city.invalid_locale", .city, .error, "A locale is not a BCP 47 language tag such as `en` or `pt-BR`",
        rationale: "Locales name columns and files in the pack; apps match them against device languages.")

    static let cityRules: [RuleDescription] = [
        citySyntax, cityMissingField, cityInvalidBBox, cityMissingSource, cityUnknownRule, cityInvalidLocale,
    ]
}
