import CityPackDiagnostics

// The rules `CopyReader` reports while reading copy files: YAML and message syntax and files for locales the
// city does not list. `copy.invalid_key` is reported here (key syntax) and by the validator (Android name
// collisions), so it sits below both stages (CityPackDiagnostics, Rules+SharedStages.swift); the other copy rules
// judge the table as read and live in CityPackValidate's Rules/Copy. `RuleCatalog` lists them all.

extension Rules {
    public static let copySyntax = RuleDescription(
        "copy.syntax", .copy, .error, "A copy file is not valid YAML or not a mapping of keys to strings or plural maps",
        rationale: "Copy files are read by a YAML parser; a broken file would drop every string it holds.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: [Download, \"{city}\"]\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyUnknownLocale = RuleDescription(
        "copy.unknown_locale", .copy, .warning, "A city copy file is for a locale the city does not list; it is ignored",
        rationale: "Strings for a locale no pack ships are never seen; usually a typo in the file name or in `locales`.",
        exampleWaiver: "One input file cannot show it: it needs a copy file and a city file that does not list its locale; CopyRulesTests.unknownLocale covers it.")
    public static let copyInvalidMessageSyntax = RuleDescription(
        "copy.invalid_message_syntax", .copy, .error,
        "A message has an unclosed or empty placeholder, a lone `}` or an invalid placeholder name",
        rationale: "Literal braces are written `{{` and `}}`; anything else would show raw braces to users.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: \"Download {city\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
}
