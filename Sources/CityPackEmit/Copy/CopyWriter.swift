import CityPackModel
import CityPackSupport
import Foundation

/// Renders a ``CopyTable`` for each platform, as (relative path, bytes) pairs with deterministic bytes:
///
/// - Web: `web/<locale>.json`, one object per locale with every key of the default locale (fallbacks
///   resolved); plain strings stay in copy syntax (`{name}`, `{{`, `}}`), plurals are objects of CLDR categories.
/// - Apple: `apple/Localizable.xcstrings`, a String Catalog: `sourceLanguage`, `version` "1.0", and per key the
///   locales that translate it, each a `stringUnit` {state "translated", value} or `variations.plural.<category>`;
///   a string the source language lacked and took from another locale (``CopyTable/defaultLocaleFallbacks``)
///   has state "needs_review". Xcode and Foundation fall back to the source language for the rest.
/// - Android: `android/values[-xx]/strings.xml`: `values` for the default locale (every key; strings filled in
///   from another locale are preceded by an `untranslated` comment), the same file again under the default
///   locale's own qualifier (`values-fi`), `values-de`,
///   `values-pt-rBR`, `values-b+zh+Hant` for the others (their own strings; Android falls back to `values`).
///   Keys become resource names with `.` → `_`; plurals are `<plurals>`.
///
/// Placeholders become positional arguments in a fixed order per key: `count` first for plurals, then the names in
/// order of first appearance in the default locale's text (``argumentOrder(_:)``). Integers (`count`, `*_count`)
/// are `%N$lld` on Apple and `%N$d` on Android, everything else `%N$@` / `%N$s`. In a key that takes arguments a
/// literal `%` is written `%%` (the platforms format such strings); in a key without arguments it stays `%`.
package enum CopyWriter {
    /// All files for all platforms, sorted by path.
    package static func render(_ table: CopyTable) -> [(path: String, data: Data)] {
        var out: [(String, Data)] = []
        for locale in table.locales.sorted() { out.append(("web/\(locale).json", web(table, locale: locale))) }
        out.append(("apple/Localizable.xcstrings", xcstrings(table)))
        for locale in table.locales {
            let xml = androidXML(table, locale: locale)
            let isDefault = locale == table.defaultLocale
            out.append(("android/\(androidFolder(locale, isDefault: isDefault))/strings.xml", xml))
            // The default locale also under its own qualifier, so a device set to it never falls through to
            // another locale's folder and the folder an app expects for a locale exists.
            if isDefault { out.append(("android/\(androidFolder(locale, isDefault: false))/strings.xml", xml)) }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    // MARK: - Arguments

    /// The positional order of a key's placeholders.
    package static func argumentOrder(_ value: CopyValue) -> [String] {
        switch value {
        case .text(let m): return m.placeholders
        case .plural(let forms):
            var names = ["count"]
            let ordered = [forms[.other]].compactMap { $0 } + forms.sorted { $0.key < $1.key }.map(\.value)
            for m in ordered { for p in m.placeholders where !names.contains(p) { names.append(p) } }
            return names
        }
    }

    /// Platform of a format conversion.
    package enum Platform: Sendable {
        case apple, android
    }

    /// A message with placeholders as positional format specifiers (no platform escaping beyond `%`).
    /// - Parameters:
    ///   - message: the parsed message.
    ///   - arguments: positional order (``argumentOrder(_:)``); names not in it are appended.
    ///   - formatted: whether the key takes arguments (then `%` is doubled).
    package static func format(_ message: CopyMessage, arguments: [String], platform: Platform, formatted: Bool) -> String {
        var out = ""
        var order = arguments
        for segment in message.segments {
            switch segment {
            case .literal(let text):
                out += formatted ? text.escapingScalars(["%": "%%"]) : text
            case .placeholder(let name):
                if !order.contains(name) { order.append(name) }
                let n = order.firstIndex(of: name)! + 1
                let integer = CopyMessage.isInteger(name)
                switch platform {
                case .apple: out += integer ? "%\(n)$lld" : "%\(n)$@"
                case .android: out += integer ? "%\(n)$d" : "%\(n)$s"
                }
            }
        }
        return out
    }

    // MARK: - Web

    static func web(_ table: CopyTable, locale: String) -> Data {
        var object: [String: Any] = [:]
        for key in table.keys {
            switch table.resolved(key, locale: locale) {
            case .text(let m): object[key] = m.source
            case .plural(let forms):
                object[key] = Dictionary(uniqueKeysWithValues: forms.map { ($0.key.rawValue, $0.value.source) })
            case nil: break
            }
        }
        return json(object)
    }

    // MARK: - Apple

    static func xcstrings(_ table: CopyTable) -> Data {
        var strings: [String: Any] = [:]
        for key in table.keys {
            guard let base = table.entries[table.defaultLocale]?[key]?.value else { continue }
            let arguments = argumentOrder(base)
            let formatted = !arguments.isEmpty
            var localizations: [String: Any] = [:]
            for locale in table.locales {
                // The source language must have every string: one filled in from another locale is marked for
                // review. Other locales list only their own strings; Xcode shows the rest as untranslated.
                let fallback = locale == table.defaultLocale && table.defaultLocaleFallbacks[key] != nil
                guard let value = table.entries[locale]?[key]?.value else { continue }
                let state = fallback ? "needs_review" : "translated"
                func unit(_ m: CopyMessage) -> [String: Any] {
                    ["stringUnit": ["state": state, "value": format(m, arguments: arguments, platform: .apple, formatted: formatted)]]
                }
                switch value {
                case .text(let m): localizations[appleLocale(locale)] = unit(m)
                case .plural(let forms):
                    var plural: [String: Any] = [:]
                    for (category, m) in forms { plural[category.rawValue] = unit(m) }
                    localizations[appleLocale(locale)] = ["variations": ["plural": plural]]
                }
            }
            strings[key] = ["extractionState": "manual", "localizations": localizations]
        }
        return json(["sourceLanguage": appleLocale(table.defaultLocale), "strings": strings, "version": "1.0"])
    }

    /// `pt_BR` → `pt-BR` (Apple uses BCP 47 hyphens).
    static func appleLocale(_ locale: String) -> String { locale.replacingOccurrences(of: "_", with: "-") }

    // MARK: - Android

    /// `values` for the default locale; `values-de`, `values-pt-rBR` (language + region), `values-b+zh+Hant`
    /// (anything else, BCP 47 form).
    package static func androidFolder(_ locale: String, isDefault: Bool) -> String {
        if isDefault { return "values" }
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first?.lowercased() else { return "values" }
        if parts.count == 1 { return "values-\(language)" }
        if parts.count == 2, parts[1].count == 2 && parts[1].allSatisfy(\.isLetter) || parts[1].count == 3 && parts[1].allSatisfy(\.isNumber) {
            return "values-\(language)-r\(parts[1].uppercased())"
        }
        return "values-b+" + ([language] + parts.dropFirst()).joined(separator: "+")
    }

    static func androidXML(_ table: CopyTable, locale: String) -> Data {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n"
        let own = table.entries[locale] ?? [:]
        for key in table.keys {
            guard let base = table.entries[table.defaultLocale]?[key]?.value, let value = own[key]?.value else { continue }
            let arguments = argumentOrder(base)
            let formatted = !arguments.isEmpty
            let name = CopyKeys.androidName(key)
            if let source = table.defaultLocaleFallbacks[key], locale == table.defaultLocale {
                xml += "    <!-- untranslated: \(source) text, to be translated -->\n"
            }
            switch value {
            case .text(let m):
                let text = androidEscape(format(m, arguments: arguments, platform: .android, formatted: formatted))
                xml += "    <string name=\"\(name)\"\(formatted ? "" : " formatted=\"false\"")>\(text)</string>\n"
            case .plural(let forms):
                xml += "    <plurals name=\"\(name)\">\n"
                for (category, m) in forms.sorted(by: { $0.key < $1.key }) {
                    let text = androidEscape(format(m, arguments: arguments, platform: .android, formatted: true))
                    xml += "        <item quantity=\"\(category.rawValue)\">\(text)</item>\n"
                }
                xml += "    </plurals>\n"
            }
        }
        xml += "</resources>\n"
        return Data(xml.utf8)
    }

    /// Escapes text for an Android string resource inside XML: `\` `'` `"` with a backslash, newline and tab as
    /// `\n` `\t`, a leading `@` or `?` as `\@` `\?`, `<` `&` `>` as XML entities, characters XML 1.0 cannot hold as
    /// `\uXXXX`, and spaces that aapt would collapse or trim (leading, trailing, repeated) as `\u0020`.
    package static func androidEscape(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        for (i, s) in scalars.enumerated() {
            switch s {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "@" where i == 0: out += "\\@"
            case "?" where i == 0: out += "\\?"
            case " " where i == 0 || i == scalars.count - 1 || scalars[i - 1] == " ":
                out += "\\u0020"
            default:
                let v = s.value
                if v < 0x20 || v == 0x7F || (v >= 0xD800 && v <= 0xDFFF) || v == 0xFFFE || v == 0xFFFF {
                    out += "\\u" + String(repeating: "0", count: 4 - String(v, radix: 16).count) + String(v, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(s)
                }
            }
        }
        return out
    }

    // MARK: - JSON

    /// Pretty, sorted-key JSON with a trailing newline; never escapes `/`.
    static func json(_ object: Any) -> Data {
        guard var data = try? JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return Data("{}\n".utf8) }
        data.append(0x0A)
        return data
    }
}
