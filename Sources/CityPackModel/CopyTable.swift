import CityPackDiagnostics

/// A CLDR plural category.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    case zero, one, two, few, many, other

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool { lhs.rank < rhs.rank }
}

/// Which plural categories a locale's cardinal numbers use (CLDR), for the locales CityPack knows.
///
/// Locales not in the table only need `other` (every locale has it); a region or script is ignored
/// (`pt-BR` → `pt`).
public enum PluralRules {
    static let table: [String: [PluralCategory]] = {
        var t: [String: [PluralCategory]] = [:]
        for l in ["en", "de", "nl", "sv", "da", "nb", "no", "nn", "fi", "et", "el", "hu", "tr", "bg", "ca", "eu", "gl"] {
            t[l] = [.one, .other]
        }
        for l in ["fr", "es", "it", "pt"] { t[l] = [.one, .many, .other] }
        for l in ["ru", "uk", "pl", "be", "lt", "cs", "sk"] { t[l] = [.one, .few, .many, .other] }
        for l in ["hr", "sr", "bs", "ro"] { t[l] = [.one, .few, .other] }
        for l in ["ja", "zh", "ko", "th", "vi", "id", "ms"] { t[l] = [.other] }
        t["ar"] = [.zero, .one, .two, .few, .many, .other]
        t["he"] = [.one, .two, .other]
        t["ga"] = [.one, .two, .few, .many, .other]
        t["cy"] = [.zero, .one, .two, .few, .many, .other]
        t["sl"] = [.one, .two, .few, .other]
        t["lv"] = [.zero, .one, .other]
        return t
    }()

    /// The language part of a tag: `pt-BR` → `pt`, `zh_Hant` → `zh`.
    public static func language(_ locale: String) -> String {
        String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// Categories the locale needs; `[.other]` for unknown languages.
    public static func categories(for locale: String) -> [PluralCategory] {
        table[language(locale)] ?? [.other]
    }

    /// Whether the table knows the locale's language (otherwise only `other` is required and nothing is unused).
    public static func knows(_ locale: String) -> Bool { table[language(locale)] != nil }
}

/// One copy string of one locale: a message, or plural forms selected by `{count}`.
public enum CopyValue: Sendable, Hashable {
    case text(CopyMessage)
    case plural([PluralCategory: CopyMessage])

    /// Placeholder names (for plurals, the union over forms in category order).
    public var placeholders: [String] {
        switch self {
        case .text(let m): return m.placeholders
        case .plural(let forms):
            var seen: Set<String> = []
            var out: [String] = []
            for (_, m) in forms.sorted(by: { $0.key < $1.key }) {
                for p in m.placeholders where seen.insert(p).inserted { out.append(p) }
            }
            return out
        }
    }

    public var isPlural: Bool { if case .plural = self { true } else { false } }
}

/// A copy string with where it was defined.
public struct CopyEntry: Sendable, Hashable {
    public var value: CopyValue
    /// The key's position in its copy file.
    public var location: SourceLocation
    /// Per plural form, where its text is; for a plain message `.other` is where the text is.
    public var formLocations: [PluralCategory: SourceLocation]
    /// True when it comes from `templates/copy/` (a default), false when the city set it.
    public var fromTemplate: Bool

    public init(value: CopyValue, location: SourceLocation, formLocations: [PluralCategory: SourceLocation] = [:], fromTemplate: Bool) {
        self.value = value
        self.location = location
        self.formLocations = formLocations
        self.fromTemplate = fromTemplate
    }
}

/// The UI strings of a city: template defaults overlaid by the city's own copy, per locale.
public struct CopyTable: Sendable, Hashable {
    /// The locale whose keys define the set every other locale should have.
    public var defaultLocale: String
    /// The city's locales, default first: the locales outputs are written for.
    public var locales: [String]
    /// locale → key → entry.
    public var entries: [String: [String: CopyEntry]]
    /// Where each locale's files are (template and city), for diagnostics about a whole locale.
    public var files: [String: [String]]
    /// Keys present in a locale's files but rejected by the reader (bad syntax, already reported), so the
    /// validator does not also call them missing.
    public var rejected: [String: Set<String>] = [:]
    /// Keys the default locale lacked and took from another locale (key → that locale), set by
    /// ``fillDefaultLocale(from:templateLocale:)``: the city's first locale that has the key, else the templates'
    /// source language. These are untranslated strings (`needs_review` in the String Catalog).
    public var defaultLocaleFallbacks: [String: String] = [:]
    /// The city's copy folder as diagnostics show it (whether or not it exists yet): where a missing string
    /// belongs, `<folder>/<locale>.yaml`. Nil when unknown.
    public var cityFolder: String?

    /// The city's own copy file of `locale` (display form): where its missing strings go. Without a known city
    /// folder, the last file read for the locale, else `copy/<locale>.yaml`.
    public func cityFile(_ locale: String) -> String {
        if let cityFolder { return cityFolder.isEmpty ? "\(locale).yaml" : "\(cityFolder)/\(locale).yaml" }
        return files[locale]?.last ?? "copy/\(locale).yaml"
    }

    public init(defaultLocale: String, locales: [String], entries: [String: [String: CopyEntry]] = [:], files: [String: [String]] = [:]) {
        self.defaultLocale = defaultLocale
        self.locales = locales
        self.entries = entries
        self.files = files
    }

    public var isEmpty: Bool { entries.values.allSatisfy(\.isEmpty) }

    /// Every key of the default locale, sorted.
    public var keys: [String] { (entries[defaultLocale] ?? [:]).keys.sorted() }

    /// Fills the default locale with every template key it lacks, as Apple, Android and the web fall back to
    /// the development language: from the city's first locale that has the key, else from `templateEntries`
    /// (the templates' source language, which need not be a city locale). Keys the city added itself are not
    /// filled (they are `copy.extra_translation` where the default locale lacks them), nor keys the default
    /// locale defines but were rejected. Records what was filled in ``defaultLocaleFallbacks``.
    /// - Parameters:
    ///   - templateEntries: the templates' strings in their source language.
    ///   - templateLocale: that language (`en`).
    public mutating func fillDefaultLocale(from templateEntries: [String: CopyEntry], templateLocale: String) {
        var base = entries[defaultLocale] ?? [:]
        let rejectedHere = rejected[defaultLocale] ?? []
        var candidates: Set<String> = Set(templateEntries.keys)
        for locale in locales where locale != defaultLocale {
            for (key, entry) in entries[locale] ?? [:] where entry.fromTemplate { candidates.insert(key) }
        }
        for key in candidates.sorted() where base[key] == nil && !rejectedHere.contains(key) {
            if let source = locales.first(where: { $0 != defaultLocale && entries[$0]?[key] != nil }) {
                base[key] = entries[source]![key]!
                defaultLocaleFallbacks[key] = source
            } else if let entry = templateEntries[key] {
                base[key] = entry
                defaultLocaleFallbacks[key] = templateLocale
            }
        }
        if !base.isEmpty { entries[defaultLocale] = base }
    }

    /// Whether a locale's string for a key is a fallback (not translated for that locale): a filled key of the
    /// default locale, or a default-locale key another locale lacks.
    public func isFallback(_ key: String, locale: String) -> Bool {
        if locale == defaultLocale { return defaultLocaleFallbacks[key] != nil }
        return entries[locale]?[key] == nil && entries[PluralRules.language(locale)]?[key] == nil
            && entries[defaultLocale]?[key] != nil
    }

    /// Every locale's untranslated keys and the locale each one's text comes from, for reports:
    /// locale → key → source locale.
    public var fallbacks: [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        if !defaultLocaleFallbacks.isEmpty { out[defaultLocale] = defaultLocaleFallbacks }
        for locale in locales where locale != defaultLocale {
            for key in keys where isFallback(key, locale: locale) {
                let language = PluralRules.language(locale)
                let source = language != locale.lowercased() && entries[language]?[key] != nil
                    ? language : (defaultLocaleFallbacks[key] ?? defaultLocale)
                out[locale, default: [:]][key] = source
            }
        }
        return out
    }

    /// The value for a key in a locale, falling back to the locale's language, then to the default locale.
    public func resolved(_ key: String, locale: String) -> CopyValue? {
        if let e = entries[locale]?[key] { return e.value }
        let language = PluralRules.language(locale)
        if language != locale.lowercased(), let e = entries[language]?[key] { return e.value }
        return entries[defaultLocale]?[key]?.value
    }
}

/// Keys every app needs (the offline states and the location error classes), in the default locale at least.
public enum CopyKeys {
    /// The five offline situations an app is in; `no_pack` splits into online and offline.
    public static let offlineStates = [
        "fully_offline", "weak_network", "no_pack_online", "no_pack_offline", "downloading", "update_available",
    ]
    /// Location and analysis error classes, each with a message and a next-step action.
    public static let errorClasses = [
        "locate_timeout", "locate_low_accuracy", "permission_denied", "network_offline", "analyze_timeout",
        "analyze_http_error",
    ]

    /// The states of a city in the pack library (CityPackKit's `PackLibrary`, citypack.js's `PackLibrary`):
    /// `pack.state.<state>`, plus the city chooser's headline and its empty state.
    public static let packStates = [
        "not_downloaded", "queued", "downloading", "installing", "updating", "on_disk", "already_saved", "updated",
        "update_available", "update_failed",
    ]
    /// Why a download or update failed, as the pack library reports it (`FailureReason` raw values), each with a
    /// message and a next-step action: `download_error.<reason>.{message,action}`.
    public static let downloadErrors = [
        "offline", "timeout", "server_error", "not_enough_space", "damaged", "tampered", "older_release", "unsupported",
    ]

    /// `offline.<state>.{title,message,action}`, `offline.downloading.progress`, `error.<class>.{message,action}`,
    /// `pack.state.<state>`, `pack.choose_city`, `pack.no_cities`, `download_error.<reason>.{message,action}`.
    public static let required: [String] = {
        var keys: [String] = []
        for state in offlineStates {
            for part in ["title", "message", "action"] { keys.append("offline.\(state).\(part)") }
        }
        keys.append("offline.downloading.progress")
        for error in errorClasses {
            keys.append("error.\(error).message")
            keys.append("error.\(error).action")
        }
        for state in packStates { keys.append("pack.state.\(state)") }
        keys.append(contentsOf: ["pack.choose_city", "pack.no_cities"])
        for reason in downloadErrors {
            keys.append("download_error.\(reason).message")
            keys.append("download_error.\(reason).action")
        }
        return keys.sorted()
    }()

    /// Dotted lowercase words: `[a-z0-9_]+(\.[a-z0-9_]+)*`, starting with a letter.
    public static func isValidKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first >= "a" && first <= "z" else { return false }
        var previousDot = false
        for s in key.unicodeScalars {
            if s == "." {
                if previousDot { return false }
                previousDot = true
            } else if (s >= "a" && s <= "z") || (s >= "0" && s <= "9") || s == "_" {
                previousDot = false
            } else {
                return false
            }
        }
        return !previousDot
    }

    /// The Android resource name of a key: dots become underscores.
    public static func androidName(_ key: String) -> String { key.replacingOccurrences(of: ".", with: "_") }
}
