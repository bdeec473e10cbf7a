import Foundation

/// Starting copy files for locales the templates do not speak, written by `citypack init` so that editors see
/// what to translate: every template string, commented out, with its English text.
public enum CopyScaffold {
    /// The locales of `locales` without a template copy file, in the given order.
    public static func localesWithoutTemplate(_ locales: [String], templates: TemplateSource) -> [String] {
        CopyReader.localesWithoutTemplate(locales, templates: templates)
    }

    /// The text of `copy/<locale>.yaml` for a locale without a template: a header saying what the file is, then
    /// the templates' source-language file with every line commented out (section comments kept as they are).
    /// - Parameters:
    ///   - locale: the locale to scaffold (`fi`).
    ///   - cityName: shown in the header.
    ///   - templates: the template copy files (`templates/copy`, or the built-in templates' `copy/`).
    /// - Returns: nil when the templates have no source-language file.
    public static func untranslatedFile(locale: String, cityName: String, templates: TemplateSource) -> String? {
        let source = CopyReader.templateLocale
        guard let data = templates.contents("\(source).yaml"), let text = String(data: data, encoding: .utf8)
        else { return nil }
        var lines = text.components(separatedBy: "\n")
        // The template's own header (its leading comment block) describes the template, not this file.
        while let first = lines.first, first.hasPrefix("#") || first.trimmingCharacters(in: .whitespaces).isEmpty {
            lines.removeFirst()
        }
        var out = """
            # \(locale) copy for \(cityName). No template speaks \(locale) yet, so until a key is translated here apps
            # show its \(source) text (the build warns with copy.missing_translation and marks the string
            # needs_review in Localizable.xcstrings). To translate a key, uncomment its line and replace the text;
            # keep the {placeholders}, and give plural keys the forms \(locale) needs. See docs/EDITORIAL.md.


            """
        for line in lines {
            if line.isEmpty || line.hasPrefix("#") {
                out += line + "\n"
            } else {
                out += "# " + line + "\n"
            }
        }
        while out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
