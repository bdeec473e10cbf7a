extension Rules {
    public static let copySyntax = RuleDescription(
        "copy.syntax", .copy, .error, "A copy file is not valid YAML or not a mapping of keys to strings or plural maps",
        rationale: "Copy files are read by a YAML parser; a broken file would drop every string it holds.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: [Download, \"{city}\"]\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyInvalidKey = RuleDescription(
        "copy.invalid_key", .copy, .error,
        "A copy key is not dotted lowercase words (`offline.weak_network.title`) or collides on Android",
        rationale: "Keys become Android resource names (dots → underscores) and Apple catalog keys; both must be unique.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "App.Download City: \"Download {city}\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyUnknownLocale = RuleDescription(
        "copy.unknown_locale", .copy, .warning, "A city copy file is for a locale the city does not list; it is ignored",
        rationale: "Strings for a locale no pack ships are never seen; usually a typo in the file name or in `locales`.",
        exampleWaiver: "One input file cannot show it: it needs a copy file and a city file that does not list its locale; CopyRulesTests.unknownLocale covers it.")
    public static let copyMissingTranslation = RuleDescription(
        "copy.missing_translation", .copy, .warning,
        "A locale lacks a string; the city's first locale that has it (else the templates' English) is used",
        rationale: "Users would see one string in another language, as on Apple, Android and the web, which fall back "
            + "to the development language. A new locale without a template builds on the first try this way; make "
            + "it an error for releases with `rules:` or `--werror`.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.only_in_english: \"Only in English\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyExtraTranslation = RuleDescription(
        "copy.extra_translation", .copy, .warning, "A locale has a key the default locale lacks",
        rationale: "The string can never be looked up by an app built against the default locale's keys.",
        example: RuleExample(
            file: "copy/de.yaml",
            triggering: "app.nur_deutsch: \"Nur auf Deutsch\"\n",
            passing: "app.download_city: \"{city} herunterladen\"\n"))
    public static let copyPlaceholderMismatch = RuleDescription(
        "copy.placeholder_mismatch", .copy, .error,
        "A string's placeholders differ from the default locale's (or between plural forms)",
        rationale: "Apps pass the same named values in every language; an unknown name stays unfilled.",
        example: RuleExample(
            file: "copy/de.yaml",
            triggering: "app.download_city: \"{stadt} herunterladen\"\n",
            passing: "app.download_city: \"{city} herunterladen\"\n"))
    public static let copyInvalidMessageSyntax = RuleDescription(
        "copy.invalid_message_syntax", .copy, .error,
        "A message has an unclosed or empty placeholder, a lone `}` or an invalid placeholder name",
        rationale: "Literal braces are written `{{` and `}}`; anything else would show raw braces to users.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: \"Download {city\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyPluralMissingOther = RuleDescription(
        "copy.plural_missing_other", .copy, .error, "A plural string has no `other` form",
        rationale: "`other` is the form every locale falls back to (CLDR); without it some numbers have no text.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "offline.downloading.remaining:\n  one: \"{count} file left\"\n",
            passing: "offline.downloading.remaining:\n  one: \"{count} file left\"\n  other: \"{count} files left\"\n"))
    public static let copyPluralMissingCategory = RuleDescription(
        "copy.plural_missing_category", .copy, .error, "A plural string lacks a CLDR category its locale needs",
        rationale: "French needs `many`, Russian `few` and `many`; numbers in those categories would use a wrong form.",
        example: RuleExample(
            file: "copy/fr.yaml",
            triggering: "offline.downloading.remaining:\n  one: \"{count} fichier restant\"\n  other: \"{count} fichiers restants\"\n",
            passing: "offline.downloading.remaining:\n  one: \"{count} fichier restant\"\n  many: \"{count} de fichiers restants\"\n  other: \"{count} fichiers restants\"\n"))
    public static let copyPluralUnusedCategory = RuleDescription(
        "copy.plural_unused_category", .copy, .warning, "A plural string has a category its locale never uses",
        rationale: "English has no `few`; the form is dead text and hints at a copy-paste from another language.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "offline.downloading.remaining:\n  one: \"{count} file left\"\n  few: \"{count} files left\"\n  other: \"{count} files left\"\n",
            passing: "offline.downloading.remaining:\n  one: \"{count} file left\"\n  other: \"{count} files left\"\n"))
    public static let copyPaddedText = RuleDescription(
        "copy.padded_text", .copy, .warning, "A string starts or ends with whitespace",
        rationale: "Padding is layout, not copy; Android strips it and other platforms keep it, so screens differ.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: \"Download {city} \"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyEmptyText = RuleDescription(
        "copy.empty_text", .copy, .error, "A string or plural form is empty or only whitespace",
        rationale: "An empty label is an invisible button or a blank message.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: \"\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
    public static let copyErrorWithoutAction = RuleDescription(
        "copy.error_without_action", .copy, .error,
        "An error message (`error.<class>.message`) has no next-step action (`error.<class>.action`)",
        rationale: "Every error tells the user what to do next; a message alone leaves them stuck.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "error.compass_unavailable.message: \"The compass is not available.\"\n",
            passing: "error.compass_unavailable.message: \"The compass is not available.\"\nerror.compass_unavailable.action: \"Hold the phone flat\"\n"))
    public static let copyMissingRequiredKey = RuleDescription(
        "copy.missing_required_key", .copy, .error,
        "A string apps need (offline states, location error messages and actions) is missing from every locale and the templates",
        rationale: "Apps show these strings in every offline and error state; without them a state has no text.",
        exampleWaiver: "One input file cannot show it: the shipped templates always carry the required keys, so only a test with its own templates can remove one; CopyRulesTests.missingRequiredKey covers it.")

    static let copyRules: [RuleDescription] = [
        copySyntax, copyInvalidKey, copyUnknownLocale, copyMissingTranslation, copyExtraTranslation,
        copyPlaceholderMismatch, copyInvalidMessageSyntax, copyPluralMissingOther, copyPluralMissingCategory,
        copyPluralUnusedCategory, copyPaddedText, copyEmptyText, copyErrorWithoutAction, copyMissingRequiredKey,
    ]
}
