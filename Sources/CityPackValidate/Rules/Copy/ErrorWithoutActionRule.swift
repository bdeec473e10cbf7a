import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyErrorWithoutAction = RuleDescription(
        "copy.error_without_action", .copy, .error,
        "An error message (`error.<class>.message`) has no next-step action (`error.<class>.action`)",
        rationale: "Every error tells the user what to do next; a message alone leaves them stuck.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "error.compass_unavailable.message: \"The compass is not available.\"\n",
            passing: "error.compass_unavailable.message: \"The compass is not available.\"\nerror.compass_unavailable.action: \"Hold the phone flat\"\n"))
}

/// Every error message (`error.<class>.message`) needs a next-step action (`error.<class>.action`) in the same
/// locale or the default one; a message alone leaves the user stuck. Not reported when the action's text was
/// rejected by the reader.
enum ErrorWithoutActionRule {
    static func check(_ key: String, _ entry: CopyEntry, locale: String, in table: CopyTable, bag: DiagnosticBag) {
        guard key.hasPrefix("error."), key.hasSuffix(".message") else { return }
        let action = String(key.dropLast(".message".count)) + ".action"
        guard table.entries[locale]?[action] == nil, table.entries[table.defaultLocale]?[action] == nil,
            !(table.rejected[locale]?.contains(action) ?? false)
        else { return }
        bag.report(Rules.copyErrorWithoutAction, .noAction(key, action, locale), at: entry.location, entity: key)
    }
}

extension String {
    fileprivate static func noAction(_ key: String, _ action: String, _ locale: String) -> String {
        "`\(key)` has no next-step action `\(action)` in \(locale)"
    }
}
