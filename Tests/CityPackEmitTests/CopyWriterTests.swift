import CityPackEmit
import CityPackModel
import CityPackTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Copy outputs: goldens per format, the String Catalog's structure, well-formed Android XML whose escaping
/// round-trips, and placeholder conversion per platform.
@Suite struct CopyWriterTests {
    /// Strings that stress every escaping rule, in en (default), de, fr and pt-BR.
    static let tricky: [String: String] = [
        "esc.apostrophe": "Don't stop",
        "esc.quotes": "Say \"hi\" to {name}",
        "esc.at": "@home is where {city} is",
        "esc.question": "?Why not",
        "esc.markup": "a < b & c > d",
        "esc.percent_plain": "100% free",
        "esc.percent_args": "{percent}% of {size}",
        "esc.newline": "Line one\nLine two\ttabbed",
        "esc.unicode": "Café Ελληνικά 日本語 🚻 naïve",
        "esc.spaces": "two  spaces",
        "esc.backslash": "back\\slash",
        "esc.braces": "{{literal}} {name}",
    ]

    static func table() throws -> CopyTable {
        var table = CopyTable(defaultLocale: "en", locales: ["en", "de", "fr", "pt-BR"])
        func entry(_ text: String) throws -> CopyEntry {
            CopyEntry(value: .text(try CopyMessage.parse(text)), location: .init(file: "t.yaml"), fromTemplate: false)
        }
        for (key, text) in tricky { table.entries["en", default: [:]][key] = try entry(text) }
        table.entries["de"] = [
            "esc.quotes": try entry("Sag \u{201E}Hallo\u{201C} zu {name}"),
            "esc.percent_args": try entry("{percent} % von {size}"),
            "app.download": try entry("{city} laden"),
        ]
        table.entries["en"]!["app.download"] = try entry("Download {city}")
        table.entries["en"]!["app.order"] = try entry("{b} before {a}")
        table.entries["fr"] = ["app.order": try entry("{a} après {b}")]
        table.entries["pt-BR"] = ["app.download": try entry("Baixar {city}")]
        let forms: [PluralCategory: CopyMessage] = [
            .one: try CopyMessage.parse("{count} stop in {city}"), .other: try CopyMessage.parse("{count} stops in {city}"),
        ]
        table.entries["en"]!["route.stops"] = CopyEntry(value: .plural(forms), location: .init(file: "t.yaml"), fromTemplate: false)
        table.entries["fr"]!["route.stops"] = CopyEntry(value: .plural([
            .one: try CopyMessage.parse("{count} étape à {city}"), .many: try CopyMessage.parse("{count} d'étapes à {city}"),
            .other: try CopyMessage.parse("{count} étapes à {city}"),
        ]), location: .init(file: "t.yaml"), fromTemplate: false)
        return table
    }

    static let goldenDirectory = TestPaths.root.appendingPathComponent("Tests/CityPackEmitTests/Fixtures/copy-golden")

    /// Compares every rendered file with its golden; `RECORD_GOLDENS=1` rewrites them (and fails).
    @Test func goldens() throws {
        let files = CopyWriter.render(try Self.table())
        #expect(files.map(\.path) == [
            "android/values-pt-rBR/strings.xml", "android/values-de/strings.xml", "android/values-en/strings.xml",
            "android/values-fr/strings.xml", "android/values/strings.xml", "apple/Localizable.xcstrings", "web/de.json",
            "web/en.json", "web/fr.json", "web/pt-BR.json",
        ].sorted())
        let record = RecordMode.isOn(RecordMode.goldens)
        for (path, data) in files {
            let url = Self.goldenDirectory.appendingPathComponent(path)
            if record {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
                RecordMode.recorded(path, by: RecordMode.goldens)
                continue
            }
            let expected = try Data(contentsOf: url)
            #expect(data == expected, "\(path) differs from its golden:\n\(String(decoding: data, as: UTF8.self))")
        }
        // Deterministic: rendering twice gives the same bytes.
        #expect(CopyWriter.render(try Self.table()).map(\.data) == files.map(\.data))
    }

    @Test func stringCatalogHasTheFieldsXcodeExpects() throws {
        let data = try #require(CopyWriter.render(try Self.table()).first { $0.path == "apple/Localizable.xcstrings" }?.data)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["sourceLanguage"] as? String == "en")
        #expect(root["version"] as? String == "1.0")
        let strings = try #require(root["strings"] as? [String: Any])
        for (key, value) in strings {
            let localizations = try #require((value as? [String: Any])?["localizations"] as? [String: Any], "\(key)")
            #expect(localizations["en"] != nil, "\(key) lacks the source language")
            for (_, loc) in localizations {
                let loc = try #require(loc as? [String: Any])
                if let unit = loc["stringUnit"] as? [String: Any] {
                    #expect(unit["state"] as? String == "translated")
                    #expect(unit["value"] is String)
                } else {
                    let plural = try #require((loc["variations"] as? [String: Any])?["plural"] as? [String: Any], "\(key)")
                    #expect(plural["other"] != nil)
                    for (category, form) in plural {
                        #expect(["zero", "one", "two", "few", "many", "other"].contains(category))
                        let unit = try #require((form as? [String: Any])?["stringUnit"] as? [String: Any])
                        #expect(unit["state"] as? String == "translated" && unit["value"] is String)
                    }
                }
            }
        }
        func value(_ key: String, _ locale: String) -> String? {
            (((strings[key] as? [String: Any])?["localizations"] as? [String: Any])?[locale] as? [String: Any])
                .flatMap { ($0["stringUnit"] as? [String: Any])?["value"] as? String }
        }
        #expect(value("app.download", "pt-BR") == "Baixar %1$@")
        #expect(value("esc.percent_args", "de") == "%1$@ %% von %2$@")
        #expect(value("esc.percent_plain", "en") == "100% free")
        #expect(value("app.order", "fr") == "%2$@ après %1$@")
        #expect(value("esc.braces", "en") == "{literal} %1$@")
        let fr = ((strings["route.stops"] as? [String: Any])?["localizations"] as? [String: Any])?["fr"] as? [String: Any]
        let many = ((fr?["variations"] as? [String: Any])?["plural"] as? [String: Any])?["many"] as? [String: Any]
        #expect((many?["stringUnit"] as? [String: Any])?["value"] as? String == "%1$lld d'étapes à %2$@")
    }

    /// A default locale without its own strings (a new locale, `fi`) is filled from `en`: every output carries
    /// every key, the String Catalog marks the filled strings needs_review and Android comments them.
    @Test func filledDefaultLocaleIsMarkedForReview() throws {
        var table = CopyTable(defaultLocale: "fi", locales: ["fi", "sv", "en"])
        let template = [
            "app.download": CopyEntry(value: .text(try CopyMessage.parse("Download {city}")), location: .init(file: "en.yaml"), fromTemplate: true),
            "app.retry": CopyEntry(value: .text(try CopyMessage.parse("Try again")), location: .init(file: "en.yaml"), fromTemplate: true),
        ]
        table.entries["en"] = template
        table.entries["fi"] = ["app.retry": CopyEntry(value: .text(try CopyMessage.parse("Yritä uudelleen")), location: .init(file: "fi.yaml"), fromTemplate: false)]
        table.fillDefaultLocale(from: template, templateLocale: "en")
        #expect(table.defaultLocaleFallbacks == ["app.download": "en"])
        let files = Dictionary(uniqueKeysWithValues: CopyWriter.render(table).map { ($0.path, $0.data) })
        let catalogData = try #require(files["apple/Localizable.xcstrings"])
        let catalog = try #require(try JSONSerialization.jsonObject(with: catalogData) as? [String: Any])
        #expect(catalog["sourceLanguage"] as? String == "fi")
        func unit(_ key: String, _ locale: String) -> [String: Any]? {
            ((((catalog["strings"] as? [String: Any])?[key] as? [String: Any])?["localizations"] as? [String: Any])?[locale]
                as? [String: Any])?["stringUnit"] as? [String: Any]
        }
        #expect(unit("app.download", "fi")?["state"] as? String == "needs_review")
        #expect(unit("app.download", "fi")?["value"] as? String == "Download %1$@")
        #expect(unit("app.retry", "fi")?["state"] as? String == "translated")
        #expect(unit("app.download", "sv") == nil, "other locales list only their own strings")
        for path in ["android/values/strings.xml", "android/values-fi/strings.xml"] {
            let data = try #require(files[path], "\(path)")
            let xml = String(decoding: data, as: UTF8.self)
            #expect(xml.contains("<!-- untranslated: en text, to be translated -->\n    <string name=\"app_download\">Download %1$s</string>"), "\(xml)")
            #expect(xml.contains("<string name=\"app_retry\" formatted=\"false\">Yritä uudelleen</string>"), "\(xml)")
        }
        let webData = try #require(files["web/sv.json"])
        let web = try #require(try JSONSerialization.jsonObject(with: webData) as? [String: String])
        #expect(web == ["app.download": "Download {city}", "app.retry": "Yritä uudelleen"])
    }

    @Test func placeholderConversionPerPlatform() throws {
        let m = try CopyMessage.parse("{city}: {count} of {stop_count} ({name}) 5%")
        let order = ["count", "city", "stop_count", "name"]
        #expect(CopyWriter.format(m, arguments: order, platform: .apple, formatted: true) == "%2$@: %1$lld of %3$lld (%4$@) 5%%")
        #expect(CopyWriter.format(m, arguments: order, platform: .android, formatted: true) == "%2$s: %1$d of %3$d (%4$s) 5%%")
        #expect(CopyWriter.format(try CopyMessage.parse("50% off"), arguments: [], platform: .android, formatted: false) == "50% off")
        // `%` followed by a combining mark is one character but still a `%` to printf: it is doubled too.
        #expect(CopyWriter.format(try CopyMessage.parse("{n} 5%\u{301}"), arguments: ["n"], platform: .android, formatted: true)
            == "%1$s 5%%\u{301}")
        #expect(CopyWriter.argumentOrder(.text(try CopyMessage.parse("{b} {a} {b}"))) == ["b", "a"])
        let plural = CopyValue.plural([.one: try CopyMessage.parse("One in {city}"), .other: try CopyMessage.parse("{count} in {city}")])
        #expect(CopyWriter.argumentOrder(plural) == ["count", "city"])
    }

    @Test func androidFolders() {
        #expect(CopyWriter.androidFolder("en", isDefault: true) == "values")
        #expect(CopyWriter.androidFolder("de", isDefault: false) == "values-de")
        #expect(CopyWriter.androidFolder("pt-BR", isDefault: false) == "values-pt-rBR")
        #expect(CopyWriter.androidFolder("es_419", isDefault: false) == "values-es-r419")
        #expect(CopyWriter.androidFolder("zh-Hant", isDefault: false) == "values-b+zh+Hant")
    }

    /// Every strings.xml is well-formed (libxml2 through FoundationXML; xmllint in the next test) and each
    /// string decodes back — XML entities, then Android's escapes, then `%%` and positional arguments — to the
    /// original text.
    @Test func androidXMLIsWellFormedAndRoundTrips() throws {
        let table = try Self.table()
        var checked = 0
        for (path, data) in CopyWriter.render(table) where path.hasPrefix("android/") {
            #if canImport(FoundationXML) || os(macOS)
            let document = try XMLDocument(data: data, options: [])
            let root = try #require(document.rootElement())
            #expect(root.name == "resources")
            let locale = path.contains("values-de") ? "de" : path.contains("values-fr") ? "fr" : path.contains("pt-rBR") ? "pt-BR" : "en"
            for element in root.elements(forName: "string") {
                let name = try #require(element.attribute(forName: "name")?.stringValue)
                let key = try #require(table.keys.first { CopyKeys.androidName($0) == name }, "\(name)")
                guard case .text(let original)? = table.entries[locale]?[key]?.value else {
                    Issue.record("\(path): \(key) is not a plain string of \(locale)")
                    continue
                }
                let arguments = CopyWriter.argumentOrder(table.entries["en"]![key]!.value)
                let decoded = Self.androidUnescape(element.stringValue ?? "")
                #expect(Self.unformat(decoded, arguments: arguments, formatted: !arguments.isEmpty) == original.source,
                    "\(path) \(key)")
                checked += 1
            }
            for plurals in root.elements(forName: "plurals") {
                for item in plurals.elements(forName: "item") {
                    #expect(["zero", "one", "two", "few", "many", "other"].contains(item.attribute(forName: "quantity")?.stringValue ?? ""))
                }
            }
            #endif
        }
        // en twice: `values` and `values-en` hold the default locale.
        #expect(checked == 2 * (Self.tricky.count + 2) + 3 + 1 + 1, "every plain string of every locale was decoded")
    }

    /// Every strings.xml also passes xmllint, libxml2's own checker, run as a separate program.
    @Test(.needs(OutsideTools.xmllint))
    func androidXMLPassesXmllint() throws {
        var files = 0
        for (path, data) in CopyWriter.render(try Self.table()) where path.hasPrefix("android/") {
            try Self.xmllint(data, path)
            files += 1
        }
        #expect(files > 0, "no android/ file rendered")
    }

    /// Android's resource decoding (aapt2): backslash escapes and `\uXXXX`.
    static func androidUnescape(_ text: String) -> String {
        var out = ""
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            guard c == "\\", let next = chars.popFirst() else {
                out.unicodeScalars.append(c)
                continue
            }
            switch next {
            case "n": out += "\n"
            case "t": out += "\t"
            case "u":
                let hex = String(String.UnicodeScalarView(chars.prefix(4)))
                chars = chars.dropFirst(4)
                if let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) { out.unicodeScalars.append(s) }
            default: out.unicodeScalars.append(next)
            }
        }
        return out
    }

    /// `%N$s` / `%N$d` back to `{name}`, `%%` back to `%`, literal braces doubled (copy syntax).
    static func unformat(_ text: String, arguments: [String], formatted: Bool) -> String {
        var out = ""
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if c == "{" || c == "}" {
                out += "\(c)\(c)"
            } else if formatted && c == "%" {
                if chars.first == "%" {
                    chars.removeFirst()
                    out += "%"
                    continue
                }
                let digits = chars.prefix { $0.isNumber }
                chars = chars.dropFirst(digits.count + 2)  // "$" and the conversion letter
                out += "{\(arguments[Int(String(digits))! - 1])}"
            } else {
                out.append(c)
            }
        }
        return out
    }

    static func xmllint(_ data: Data, _ path: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strings-\(UUID().uuidString).xml")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try OutsideTools.xmllint.require())
        p.arguments = ["--noout", "--nonet", file.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "xmllint rejects \(path)")
    }
}
