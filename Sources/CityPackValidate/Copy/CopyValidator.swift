import CityPackDiagnostics
import CityPackModel

/// Checks a city's copy table: required keys, errors paired with actions, missing and extra keys per locale,
/// placeholders across locales and plural forms, plural categories per locale (CLDR), padded and empty text,
/// and Android resource-name collisions. Pure; reports to the bag.
public enum CopyValidator {
    public static func validate(_ table: CopyTable, bag: DiagnosticBag) {
        let base = table.entries[table.defaultLocale] ?? [:]
        let baseFile = table.files[table.defaultLocale]?.last ?? "copy/\(table.defaultLocale).yaml"

        for key in CopyKeys.required where base[key] == nil && !(table.rejected[table.defaultLocale]?.contains(key) ?? false) {
            bag.report(Rules.copyMissingRequiredKey,
                "`\(key)` is missing from the \(table.defaultLocale) copy and from every other locale; apps show it in an offline or error state",
                at: SourceLocation(file: baseFile, line: 1, column: 1), entity: key)
        }
        reportDefaultLocaleFallbacks(table, bag: bag)

        var androidNames: [String: String] = [:]
        for key in Set(table.entries.values.flatMap(\.keys)).sorted() {
            let name = CopyKeys.androidName(key)
            if let other = androidNames[name] {
                let entry = table.entries.values.compactMap { $0[key] }.first
                bag.report(Rules.copyInvalidKey,
                    "`\(key)` and `\(other)` both become the Android resource name `\(name)`; rename one",
                    at: entry?.location, entity: key)
            } else {
                androidNames[name] = key
            }
        }

        for locale in table.locales {
            let entries = table.entries[locale] ?? [:]
            let rejected = table.rejected[locale] ?? []
            let file = table.files[locale]?.last ?? "copy/\(locale).yaml"
            for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                // A filled-in string of the default locale was judged in its own locale (or is a template).
                if locale == table.defaultLocale && table.defaultLocaleFallbacks[key] != nil { continue }
                checkText(key, entry, bag: bag)
                if case .plural(let forms) = entry.value { checkPlural(key, forms, entry: entry, locale: locale, bag: bag) }
                if key.hasPrefix("error."), key.hasSuffix(".message") {
                    let action = String(key.dropLast(".message".count)) + ".action"
                    if entries[action] == nil && base[action] == nil && !rejected.contains(action) {
                        bag.report(Rules.copyErrorWithoutAction,
                            "`\(key)` has no next-step action `\(action)` in \(locale)", at: entry.location, entity: key)
                    }
                }
                guard locale != table.defaultLocale else { continue }
                guard let baseEntry = base[key] else {
                    if !(table.rejected[table.defaultLocale]?.contains(key) ?? false) {
                        bag.report(Rules.copyExtraTranslation,
                            "`\(key)` is not a \(table.defaultLocale) key; apps never look it up", at: entry.location, entity: key)
                    }
                    continue
                }
                checkPlaceholders(key, entry, against: baseEntry, locale: locale, defaultLocale: table.defaultLocale, bag: bag)
            }
            guard locale != table.defaultLocale else { continue }
            if entries.isEmpty && rejected.isEmpty, !base.isEmpty {
                // No string of its own (no file, or only the commented scaffold `init` writes): one finding, not
                // one per key.
                let via = Set(table.defaultLocaleFallbacks.values).sorted()
                let through = via.isEmpty ? "" : " (\(via.joined(separator: ", ")) text where \(table.defaultLocale) is untranslated)"
                bag.report(Rules.copyMissingTranslation,
                    "no \(locale) strings yet (translate copy/\(locale).yaml; `citypack init` writes it with every key to translate): "
                        + "all \(base.count) strings fall back to \(table.defaultLocale)\(through)",
                    at: SourceLocation(file: table.files[locale]?.last ?? baseFile, line: 1, column: 1), entity: "\(locale):*")
                continue
            }
            for (key, baseEntry) in base.sorted(by: { $0.key < $1.key }) where entries[key] == nil && !rejected.contains(key) {
                bag.report(Rules.copyMissingTranslation,
                    "`\(key)` has no \(locale) string (add it to \(file)); the \(table.defaultLocale) string is used",
                    at: baseEntry.location, entity: "\(locale):\(key)")
            }
        }
    }

    /// `copy.missing_translation` for the default locale's filled-in keys: one finding when the locale has no copy
    /// file at all (a new locale), else one per key, at the string that is used instead.
    static func reportDefaultLocaleFallbacks(_ table: CopyTable, bag: DiagnosticBag) {
        let filled = table.defaultLocaleFallbacks
        guard !filled.isEmpty else { return }
        let locale = table.defaultLocale
        let base = table.entries[locale] ?? [:]
        if base.count == filled.count {
            // A new locale: no string of its own yet (no file, or only the commented scaffold `init` writes).
            let sources = Set(filled.values).sorted().joined(separator: ", ")
            let first = filled.keys.sorted().first.flatMap { base[$0]?.location.file }
            bag.report(Rules.copyMissingTranslation,
                "no \(locale) strings yet (translate copy/\(locale).yaml; `citypack init` writes it with every key to translate): "
                    + "all \(filled.count) strings fall back to \(sources)",
                at: SourceLocation(file: first ?? "copy/\(locale).yaml", line: 1, column: 1), entity: "\(locale):*")
            return
        }
        let file = table.files[locale]?.last ?? "copy/\(locale).yaml"
        for (key, source) in filled.sorted(by: { $0.key < $1.key }) {
            bag.report(Rules.copyMissingTranslation,
                "`\(key)` has no \(locale) string (add it to \(file)); the \(source) string is used",
                at: base[key]?.location, entity: "\(locale):\(key)")
        }
    }

    /// Empty and whitespace-padded messages (each plural form on its own).
    static func checkText(_ key: String, _ entry: CopyEntry, bag: DiagnosticBag) {
        let messages: [(String, CopyMessage, SourceLocation)]
        switch entry.value {
        case .text(let m): messages = [("", m, entry.formLocations[.other] ?? entry.location)]
        case .plural(let forms):
            messages = forms.sorted { $0.key < $1.key }.map { (" (\($0.key.rawValue))", $0.value, entry.formLocations[$0.key] ?? entry.location) }
        }
        for (form, message, location) in messages {
            let source = message.source
            if source.allSatisfy({ $0.isWhitespace }) {
                bag.report(Rules.copyEmptyText, "`\(key)`\(form) is empty", at: location, entity: key)
            } else if source.first!.isWhitespace || source.last!.isWhitespace {
                bag.report(Rules.copyPaddedText, "`\(key)`\(form) starts or ends with whitespace", at: location, entity: key)
            }
        }
    }

    /// `other` present, every category the locale needs, none it never uses, and the same non-count
    /// placeholders in every form.
    static func checkPlural(
        _ key: String, _ forms: [PluralCategory: CopyMessage], entry: CopyEntry, locale: String, bag: DiagnosticBag
    ) {
        if forms[.other] == nil {
            bag.report(Rules.copyPluralMissingOther, "`\(key)` has no `other` form", at: entry.location, entity: key)
        }
        let needed = PluralRules.categories(for: locale)
        let missing = needed.filter { $0 != .other && forms[$0] == nil }
        if !missing.isEmpty {
            bag.report(Rules.copyPluralMissingCategory,
                "`\(key)` lacks \(missing.map { "`\($0.rawValue)`" }.joined(separator: ", ")), which \(locale) needs (CLDR: \(needed.map(\.rawValue).joined(separator: ", ")))",
                at: entry.location, entity: key)
        }
        if PluralRules.knows(locale) {
            for category in forms.keys.sorted() where !needed.contains(category) {
                bag.report(Rules.copyPluralUnusedCategory,
                    "`\(key)` has a `\(category.rawValue)` form, which \(locale) never uses (CLDR: \(needed.map(\.rawValue).joined(separator: ", ")))",
                    at: entry.formLocations[category] ?? entry.location, entity: key)
            }
        }
        if let other = forms[.other] {
            let expected = Set(other.placeholders).subtracting(["count"])
            for (category, message) in forms.sorted(by: { $0.key < $1.key }) where category != .other {
                let names = Set(message.placeholders).subtracting(["count"])
                if names != expected {
                    bag.report(Rules.copyPlaceholderMismatch,
                        "`\(key)` (\(category.rawValue)) uses \(describe(names)) but its `other` form uses \(describe(expected))",
                        at: entry.formLocations[category] ?? entry.location, entity: key)
                }
            }
        }
    }

    /// Same kind (plain or plural) and the same placeholder names as the default locale (`count` of plurals
    /// may be left out of a form, so it is not compared).
    static func checkPlaceholders(
        _ key: String, _ entry: CopyEntry, against base: CopyEntry, locale: String, defaultLocale: String,
        bag: DiagnosticBag
    ) {
        if entry.value.isPlural != base.value.isPlural {
            bag.report(Rules.copyPlaceholderMismatch,
                "`\(key)` is \(entry.value.isPlural ? "a plural" : "a plain string") in \(locale) but \(base.value.isPlural ? "a plural" : "a plain string") in \(defaultLocale)",
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
            bag.report(Rules.copyPlaceholderMismatch,
                "`\(key)` uses \(describe(mine)) in \(locale) but \(describe(theirs)) in \(defaultLocale)",
                at: entry.value.isPlural ? entry.location : (entry.formLocations[.other] ?? entry.location), entity: key)
        }
    }

    static func describe(_ names: Set<String>) -> String {
        names.isEmpty ? "no placeholders" : names.sorted().map { "{\($0)}" }.joined(separator: ", ")
    }
}
