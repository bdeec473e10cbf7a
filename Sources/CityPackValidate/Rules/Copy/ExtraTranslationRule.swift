import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyExtraTranslation = RuleDescription(
        "copy.extra_translation", .copy, .warning, "A locale has a key the default locale lacks",
        rationale: "The string can never be looked up by an app built against the default locale's keys.",
        example: RuleExample(
            file: "copy/de.yaml",
            triggering: "app.nur_deutsch: \"Nur auf Deutsch\"\n",
            passing: "app.download_city: \"{city} herunterladen\"\n"))
}

/// A key that a locale has but the default locale lacks can never be looked up by an app built against the
/// default locale's keys. Not reported when the default locale's text for the key was rejected by the reader.
enum ExtraTranslationRule {
    /// `entry` is `key` in a locale other than the default, which has no such key.
    static func check(_ key: String, _ entry: CopyEntry, in table: CopyTable, bag: DiagnosticBag) {
        guard !(table.rejected[table.defaultLocale]?.contains(key) ?? false) else { return }
        bag.report(Rules.copyExtraTranslation, .notADefaultKey(key, table.defaultLocale), at: entry.location, entity: key)
    }
}

extension String {
    fileprivate static func notADefaultKey(_ key: String, _ locale: String) -> String {
        "`\(key)` is not a \(locale) key; apps never look it up"
    }
}
