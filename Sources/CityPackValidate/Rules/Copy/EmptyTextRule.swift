import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyEmptyText = RuleDescription(
        "copy.empty_text", .copy, .error, "A string or plural form is empty or only whitespace",
        rationale: "An empty label is an invisible button or a blank message.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: \"\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
}

/// A string, or one plural form, that is empty or only whitespace is an invisible button or a blank message.
enum EmptyTextRule {
    static func check(_ key: String, _ texts: [CopyValidator.Text], bag: DiagnosticBag) {
        for text in texts where text.message.source.allSatisfy({ $0.isWhitespace }) {
            bag.report(Rules.copyEmptyText, .empty(key, text.form), at: text.location, entity: key)
        }
    }
}

extension String {
    fileprivate static func empty(_ key: String, _ form: String) -> String { "`\(key)`\(form) is empty" }
}
