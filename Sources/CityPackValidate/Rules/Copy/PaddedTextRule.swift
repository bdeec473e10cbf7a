import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyPaddedText = RuleDescription(
        "copy.padded_text", .copy, .warning, "A string starts or ends with whitespace",
        rationale: "Padding is layout, not copy; Android strips it and other platforms keep it, so screens differ.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.download_city: \"Download {city} \"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
}

/// Padding is layout, not copy: Android strips leading and trailing whitespace and other platforms keep it, so
/// screens differ. Each plural form is judged on its own; blank ones are `copy.empty_text`.
enum PaddedTextRule {
    static func check(_ key: String, _ texts: [CopyValidator.Text], bag: DiagnosticBag) {
        for text in texts {
            let source = text.message.source
            guard let first = source.first, let last = source.last, !source.allSatisfy(\.isWhitespace),
                first.isWhitespace || last.isWhitespace
            else { continue }
            bag.report(Rules.copyPaddedText, .padded(key, text.form), at: text.location, entity: key)
        }
    }
}

extension String {
    fileprivate static func padded(_ key: String, _ form: String) -> String { "`\(key)`\(form) starts or ends with whitespace" }
}
