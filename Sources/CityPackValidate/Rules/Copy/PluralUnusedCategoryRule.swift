import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyPluralUnusedCategory = RuleDescription(
        "copy.plural_unused_category", .copy, .warning, "A plural string has a category its locale never uses",
        rationale: "English has no `few`; the form is dead text and hints at a copy-paste from another language.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "offline.downloading.remaining:\n  one: \"{count} file left\"\n  few: \"{count} files left\"\n  other: \"{count} files left\"\n",
            passing: "offline.downloading.remaining:\n  one: \"{count} file left\"\n  other: \"{count} files left\"\n"))
}

/// A plural form for a category its locale never uses (English `few`) is dead text, and hints at a copy-paste
/// from another language. Only judged for locales whose CLDR rules CityPack knows.
enum PluralUnusedCategoryRule {
    static func check(_ key: String, _ forms: [PluralCategory: CopyMessage], entry: CopyEntry, locale: String,
        bag: DiagnosticBag)
    {
        guard PluralRules.knows(locale) else { return }
        let needed = PluralRules.categories(for: locale)
        for category in forms.keys.sorted() where !needed.contains(category) {
            bag.report(Rules.copyPluralUnusedCategory, .neverUsed(key, category, locale, needed),
                at: entry.formLocations[category] ?? entry.location, entity: key)
        }
    }
}

extension String {
    fileprivate static func neverUsed(_ key: String, _ category: PluralCategory, _ locale: String,
        _ needed: [PluralCategory]) -> String
    {
        "`\(key)` has a `\(category.rawValue)` form, which \(locale) never uses (CLDR: \(needed.map(\.rawValue).joined(separator: ", ")))"
    }
}
