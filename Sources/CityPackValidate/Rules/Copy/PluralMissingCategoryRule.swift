import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyPluralMissingCategory = RuleDescription(
        "copy.plural_missing_category", .copy, .error, "A plural string lacks a CLDR category its locale needs",
        rationale: "French needs `many`, Russian `few` and `many`; numbers in those categories would use a wrong form.",
        example: RuleExample(
            file: "copy/fr.yaml",
            triggering: "offline.downloading.remaining:\n  one: \"{count} fichier restant\"\n  other: \"{count} fichiers restants\"\n",
            passing: "offline.downloading.remaining:\n  one: \"{count} fichier restant\"\n  many: \"{count} de fichiers restants\"\n  other: \"{count} fichiers restants\"\n"))
}

/// A plural string must have every CLDR category its locale needs (French `many`, Russian `few` and `many`),
/// or numbers in that category use a wrong form. `other` is `copy.plural_missing_other`.
enum PluralMissingCategoryRule {
    static func check(_ key: String, _ forms: [PluralCategory: CopyMessage], entry: CopyEntry, locale: String,
        bag: DiagnosticBag)
    {
        let needed = PluralRules.categories(for: locale)
        let missing = needed.filter { $0 != .other && forms[$0] == nil }
        guard !missing.isEmpty else { return }
        bag.report(Rules.copyPluralMissingCategory, .lacks(key, missing, locale, needed), at: entry.location, entity: key)
    }
}

extension String {
    fileprivate static func lacks(_ key: String, _ missing: [PluralCategory], _ locale: String,
        _ needed: [PluralCategory]) -> String
    {
        "`\(key)` lacks \(missing.map { "`\($0.rawValue)`" }.joined(separator: ", ")), which \(locale) needs (CLDR: \(needed.map(\.rawValue).joined(separator: ", ")))"
    }
}
