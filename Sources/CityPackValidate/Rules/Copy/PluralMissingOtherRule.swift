import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyPluralMissingOther = RuleDescription(
        "copy.plural_missing_other", .copy, .error, "A plural string has no `other` form",
        rationale: "`other` is the form every locale falls back to (CLDR); without it some numbers have no text.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "offline.downloading.remaining:\n  one: \"{count} file left\"\n",
            passing: "offline.downloading.remaining:\n  one: \"{count} file left\"\n  other: \"{count} files left\"\n"))
}

/// `other` is the plural form every locale falls back to (CLDR); without it some numbers have no text.
enum PluralMissingOtherRule {
    static func check(_ key: String, _ forms: [PluralCategory: CopyMessage], entry: CopyEntry, bag: DiagnosticBag) {
        guard forms[.other] == nil else { return }
        bag.report(Rules.copyPluralMissingOther, .noOther(key), at: entry.location, entity: key)
    }
}

extension String {
    fileprivate static func noOther(_ key: String) -> String { "`\(key)` has no `other` form" }
}
