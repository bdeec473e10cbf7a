import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyPlaceholderMismatch = RuleDescription(
        "copy.placeholder_mismatch", .copy, .error,
        "A string's placeholders differ from the default locale's (or between plural forms)",
        rationale: "Apps pass the same named values in every language; an unknown name stays unfilled.",
        example: RuleExample(
            file: "copy/de.yaml",
            triggering: "app.download_city: \"{stadt} herunterladen\"\n",
            passing: "app.download_city: \"{city} herunterladen\"\n"))
}

/// Apps pass the same named values in every language, so a string must use the same placeholders in every
/// locale and plural form; an unknown name stays unfilled. `count` may be left out of a plural form, so it is not
/// compared in plurals.
enum PlaceholderMismatchRule {
    /// Every form of a plural uses the placeholders of its `other` form.
    static func checkForms(_ key: String, _ forms: [PluralCategory: CopyMessage], entry: CopyEntry, bag: DiagnosticBag) {
        guard let other = forms[.other] else { return }
        let expected = Set(other.placeholders).subtracting(["count"])
        for (category, message) in forms.sorted(by: { $0.key < $1.key }) where category != .other {
            let names = Set(message.placeholders).subtracting(["count"])
            if names != expected {
                bag.report(Rules.copyPlaceholderMismatch, .formDiffers(key, category, names, expected),
                    at: entry.formLocations[category] ?? entry.location, entity: key)
            }
        }
    }

    /// `entry` (of `locale`) is of the same kind, plain or plural, as the default locale's and uses the same
    /// placeholder names.
    static func check(_ key: String, _ entry: CopyEntry, against base: CopyEntry, locale: String, defaultLocale: String,
        bag: DiagnosticBag)
    {
        if entry.value.isPlural != base.value.isPlural {
            bag.report(Rules.copyPlaceholderMismatch,
                .kindDiffers(key, entry.value.isPlural, locale, base.value.isPlural, defaultLocale),
                at: entry.location, entity: key)
            return
        }
        var mine = Set(entry.value.placeholders)
        var theirs = Set(base.value.placeholders)
        if entry.value.isPlural {
            mine.remove("count")
            theirs.remove("count")
        }
        if mine != theirs {
            bag.report(Rules.copyPlaceholderMismatch, .localeDiffers(key, mine, locale, theirs, defaultLocale),
                at: entry.value.isPlural ? entry.location : (entry.formLocations[.other] ?? entry.location), entity: key)
        }
    }
}

extension String {
    fileprivate static func formDiffers(_ key: String, _ category: PluralCategory, _ names: Set<String>,
        _ expected: Set<String>) -> String
    {
        "`\(key)` (\(category.rawValue)) uses \(placeholders(names)) but its `other` form uses \(placeholders(expected))"
    }

    fileprivate static func kindDiffers(_ key: String, _ plural: Bool, _ locale: String, _ basePlural: Bool,
        _ defaultLocale: String) -> String
    {
        "`\(key)` is \(plural ? "a plural" : "a plain string") in \(locale) but \(basePlural ? "a plural" : "a plain string") in \(defaultLocale)"
    }

    fileprivate static func localeDiffers(_ key: String, _ mine: Set<String>, _ locale: String, _ theirs: Set<String>,
        _ defaultLocale: String) -> String
    {
        "`\(key)` uses \(placeholders(mine)) in \(locale) but \(placeholders(theirs)) in \(defaultLocale)"
    }

    fileprivate static func placeholders(_ names: Set<String>) -> String {
        names.isEmpty ? "no placeholders" : names.sorted().map { "{\($0)}" }.joined(separator: ", ")
    }
}
