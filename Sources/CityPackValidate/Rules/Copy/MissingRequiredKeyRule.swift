import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyMissingRequiredKey = RuleDescription(
        "copy.missing_required_key", .copy, .error,
        "A string apps need (offline states, location error messages and actions) is missing from every locale and the templates",
        rationale: "Apps show these strings in every offline and error state; without them a state has no text.",
        exampleWaiver: "One input file cannot show it: the shipped templates always carry the required keys, so only a test with its own templates can remove one; CopyRulesTests.missingRequiredKey covers it.")
}

/// Apps show the required strings (``CopyKeys/required``: offline states, location error messages and actions)
/// in every offline and error state; one missing from the default locale, and so from every locale and the
/// templates, leaves a state without text. A key whose text was rejected is reported by the reader instead.
enum MissingRequiredKeyRule {
    static func check(_ table: CopyTable, bag: DiagnosticBag) {
        let base = table.entries[table.defaultLocale] ?? [:]
        let rejected = table.rejected[table.defaultLocale] ?? []
        for key in CopyKeys.required where base[key] == nil && !rejected.contains(key) {
            bag.report(Rules.copyMissingRequiredKey, .missing(key, table.defaultLocale),
                at: SourceLocation(file: CopyValidator.defaultLocaleFile(table), line: 1, column: 1), entity: key)
        }
    }
}

extension String {
    fileprivate static func missing(_ key: String, _ locale: String) -> String {
        "`\(key)` is missing from the \(locale) copy and from every other locale; apps show it in an offline or error state"
    }
}
