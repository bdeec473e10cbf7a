import CityPackDiagnostics
import CityPackModel

/// Checks a city's copy table: required keys, errors paired with actions, missing and extra keys per locale,
/// placeholders across locales and plural forms, plural categories per locale (CLDR), padded and empty text,
/// and Android resource-name collisions. Each rule is one file in `Rules/Copy/`; this type runs them over the
/// table, locale by locale and key by key in sorted order. Pure; reports to the bag.
package enum CopyValidator {
    package static func validate(_ table: CopyTable, bag: DiagnosticBag) {
        let base = table.entries[table.defaultLocale] ?? [:]
        MissingRequiredKeyRule.check(table, bag: bag)
        MissingTranslationRule.checkDefaultLocale(table, bag: bag)
        InvalidKeyRule.check(table, bag: bag)

        for locale in table.locales {
            let entries = table.entries[locale] ?? [:]
            for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                // A filled-in string of the default locale was judged in its own locale (or is a template).
                if locale == table.defaultLocale && table.defaultLocaleFallbacks[key] != nil { continue }
                let texts = texts(of: entry)
                EmptyTextRule.check(key, texts, bag: bag)
                PaddedTextRule.check(key, texts, bag: bag)
                if case .plural(let forms) = entry.value {
                    PluralMissingOtherRule.check(key, forms, entry: entry, bag: bag)
                    PluralMissingCategoryRule.check(key, forms, entry: entry, locale: locale, bag: bag)
                    PluralUnusedCategoryRule.check(key, forms, entry: entry, locale: locale, bag: bag)
                    PlaceholderMismatchRule.checkForms(key, forms, entry: entry, bag: bag)
                }
                ErrorWithoutActionRule.check(key, entry, locale: locale, in: table, bag: bag)
                guard locale != table.defaultLocale else { continue }
                guard let baseEntry = base[key] else {
                    ExtraTranslationRule.check(key, entry, in: table, bag: bag)
                    continue
                }
                PlaceholderMismatchRule.check(key, entry, against: baseEntry, locale: locale,
                    defaultLocale: table.defaultLocale, bag: bag)
            }
            guard locale != table.defaultLocale else { continue }
            MissingTranslationRule.check(locale, in: table, bag: bag)
        }
    }

    /// One message of an entry as the text rules see it: the whole string, or one plural form.
    struct Text {
        /// `""` for a plain string, ` (one)` for a plural form: appended to the key in messages.
        var form: String
        var message: CopyMessage
        var location: SourceLocation
    }

    /// The messages of an entry, plural forms in category order.
    static func texts(of entry: CopyEntry) -> [Text] {
        switch entry.value {
        case .text(let m): [Text(form: "", message: m, location: entry.formLocations[.other] ?? entry.location)]
        case .plural(let forms):
            forms.sorted { $0.key < $1.key }.map {
                Text(form: " (\($0.key.rawValue))", message: $0.value, location: entry.formLocations[$0.key] ?? entry.location)
            }
        }
    }

    /// The default locale's copy file, for findings about the table as a whole.
    static func defaultLocaleFile(_ table: CopyTable) -> String {
        table.files[table.defaultLocale]?.last ?? "copy/\(table.defaultLocale).yaml"
    }
}
