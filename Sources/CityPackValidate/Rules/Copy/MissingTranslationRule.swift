import CityPackDiagnostics
import CityPackModel

extension Rules {
    package static let copyMissingTranslation = RuleDescription(
        "copy.missing_translation", .copy, .warning,
        "A locale lacks a string; the city's first locale that has it (else the templates' English) is used",
        rationale: "Users would see one string in another language, as on Apple, Android and the web, which fall back "
            + "to the development language. A new locale without a template builds on the first try this way; make "
            + "it an error for releases with `rules:` or `--werror`.",
        example: RuleExample(
            file: "copy/en.yaml",
            triggering: "app.only_in_english: \"Only in English\"\n",
            passing: "app.download_city: \"Download {city}\"\n"))
}

/// A locale without one of the default locale's strings shows that string in another language. A locale with no
/// string of its own yet (no file, or only the commented scaffold `citypack init` writes) gets one finding, not
/// one per key. For the default locale, the strings filled in from another locale or the templates
/// (``CopyTable/defaultLocaleFallbacks``) are the missing ones.
enum MissingTranslationRule {
    /// The default locale's filled-in keys: one finding when the locale has no string of its own, else one per
    /// key, at the string that is used instead.
    static func checkDefaultLocale(_ table: CopyTable, bag: DiagnosticBag) {
        let filled = table.defaultLocaleFallbacks
        guard !filled.isEmpty else { return }
        let locale = table.defaultLocale
        let base = table.entries[locale] ?? [:]
        if base.count == filled.count {
            let sources = Set(filled.values).sorted().joined(separator: ", ")
            bag.report(Rules.copyMissingTranslation, .noStringsYet(locale, file: table.cityFile(locale), count: filled.count, fallback: sources),
                at: SourceLocation(file: table.cityFile(locale), line: 1, column: 1), entity: "\(locale):*")
            return
        }
        let file = table.cityFile(locale)
        for (key, source) in filled.sorted(by: { $0.key < $1.key }) {
            bag.report(Rules.copyMissingTranslation, .noString(key, locale, file: file, used: source),
                at: base[key]?.location, entity: "\(locale):\(key)")
        }
    }

    /// Another locale's missing keys: one finding when it has no string of its own, else one per key, at the
    /// default locale's string.
    static func check(_ locale: String, in table: CopyTable, bag: DiagnosticBag) {
        let base = table.entries[table.defaultLocale] ?? [:]
        let entries = table.entries[locale] ?? [:]
        let rejected = table.rejected[locale] ?? []
        if entries.isEmpty && rejected.isEmpty, !base.isEmpty {
            let via = Set(table.defaultLocaleFallbacks.values).sorted()
            let through = via.isEmpty ? "" : " (\(via.joined(separator: ", ")) text where \(table.defaultLocale) is untranslated)"
            bag.report(Rules.copyMissingTranslation,
                .noStringsYet(locale, file: table.cityFile(locale), count: base.count, fallback: "\(table.defaultLocale)\(through)"),
                at: SourceLocation(file: table.cityFile(locale), line: 1, column: 1), entity: "\(locale):*")
            return
        }
        let file = table.cityFile(locale)
        for (key, baseEntry) in base.sorted(by: { $0.key < $1.key }) where entries[key] == nil && !rejected.contains(key) {
            bag.report(Rules.copyMissingTranslation, .noString(key, locale, file: file, used: table.defaultLocale),
                at: baseEntry.location, entity: "\(locale):\(key)")
        }
    }
}

extension String {
    fileprivate static func noStringsYet(_ locale: String, file: String, count: Int, fallback: String) -> String {
        "no \(locale) strings yet (translate \(file); `citypack init` writes it with every key to translate): "
            + "all \(count) strings fall back to \(fallback)"
    }

    fileprivate static func noString(_ key: String, _ locale: String, file: String, used: String) -> String {
        "`\(key)` has no \(locale) string (add it to \(file)); the \(used) string is used"
    }
}
