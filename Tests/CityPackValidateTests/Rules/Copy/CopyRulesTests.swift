import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// Every copy rule with a triggering and a non-triggering input, through the real YAML reader and validator.
/// The template holds the required keys in en, de and fr; tests add a city copy folder on top.
@Suite struct CopyRulesTests {
    /// Required keys plus one plural, for a locale (French adds `many`).
    static func template(_ locale: String) -> String {
        var text = ""
        for key in CopyKeys.required { text += "\(key): \"\(locale) \(key)\"\n" }
        text += "app.download_city: \"\(locale) download {city}\"\n"
        text += "nearby.results:\n  one: \"{count} place\"\n"
        if locale == "fr" { text += "  many: \"{count} de lieux\"\n" }
        text += "  other: \"{count} places\"\n"
        return text
    }

    static func run(city files: [String: String], locales: [String] = ["en", "de", "fr"], template: Bool = true) throws -> (CopyTable, [Diagnostic]) {
        let root = try TestPaths.temporaryDirectory("copy")
        defer { try? FileManager.default.removeItem(at: root) }
        let templates = root.appendingPathComponent("templates")
        let city = root.appendingPathComponent("city")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        if template {
            for locale in ["en", "de", "fr"] {
                try Self.template(locale).write(to: templates.appendingPathComponent("\(locale).yaml"), atomically: true, encoding: .utf8)
            }
        }
        for (name, text) in files { try text.write(to: city.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let bag = DiagnosticBag()
        let table = CopyReader.read(
            templateDirectory: templates.path, cityDirectory: city.path,
            display: { $0.replacingOccurrences(of: root.path + "/", with: "") }, defaultLocale: locales[0], locales: locales, bag: bag)
        CopyValidator.validate(table, bag: bag)
        return (table, bag.diagnostics)
    }

    static func codes(_ files: [String: String], locales: [String] = ["en", "de", "fr"]) throws -> [String] {
        try run(city: files, locales: locales).1.map(\.code)
    }

    @Test func templatesAloneAreClean() throws {
        let (table, d) = try Self.run(city: [:])
        #expect(d.isEmpty, "\(d)")
        #expect(table.keys.count == CopyKeys.required.count + 2)
        #expect(table.entries["fr"]?["nearby.results"]?.fromTemplate == true)
    }

    @Test func cityOverridesAndAdds() throws {
        let (table, d) = try Self.run(city: [
            "en.yaml": "app.download_city: \"Get {city}\"\napp.welcome: \"Hi {city}\"\n",
            "de.yaml": "app.welcome: \"Hallo {city}\"\n", "fr.yaml": "app.welcome: \"Salut {city}\"\n",
        ])
        #expect(d.isEmpty, "\(d)")
        #expect(table.resolved("app.download_city", locale: "en") == .text(try CopyMessage.parse("Get {city}")))
        #expect(table.entries["en"]?["app.download_city"]?.fromTemplate == false)
        #expect(table.entries["en"]?["app.download_city"]?.location.description == "city/en.yaml:1:1")
        #expect(table.resolved("app.download_city", locale: "de") == .text(try CopyMessage.parse("de download {city}")))
    }

    @Test func syntax() throws {
        let d = try Self.run(city: ["en.yaml": "app.download_city: [a, b]\n"]).1
        #expect(d.map(\.code).contains("copy.syntax"))
        #expect(try Self.codes(["en.yaml": "app.x: \"a\"\n  bad indent: [\n"]).contains("copy.syntax"))
        #expect(try Self.codes(["en.yaml": "nearby.results:\n  lots: \"x\"\n  other: \"y\"\n"]).contains("copy.syntax"))
        #expect(try Self.codes(["en.yaml": "- a\n- b\n"]).contains("copy.syntax"))
        #expect(try !Self.codes(["en.yaml": "# only a comment\n"]).contains("copy.syntax"))
        #expect(try !Self.codes(["en.yaml": "app.download_city: \"x {city}\"\n"]).contains("copy.syntax"))
    }

    @Test func invalidKey() throws {
        #expect(try Self.codes(["en.yaml": "App.Download: \"x\"\n"]).contains("copy.invalid_key"))
        // Android collision: both become app_a_b.
        let collide = "app.a_b: \"x\"\napp.a.b: \"y\"\n"
        let d = try Self.run(city: ["en.yaml": collide, "de.yaml": collide, "fr.yaml": collide]).1
        #expect(d.contains { $0.code == "copy.invalid_key" && $0.message.contains("app_a_b") })
        #expect(try !Self.codes(["en.yaml": "app.download: \"x\"\n"]).contains("copy.invalid_key"))
    }

    @Test func unknownLocale() throws {
        #expect(try Self.codes(["es.yaml": "app.download_city: \"Descargar {city}\"\n"]).contains("copy.unknown_locale"))
        #expect(try !Self.codes(["fr.yaml": "app.download_city: \"Télécharger {city}\"\n"]).contains("copy.unknown_locale"))
    }

    @Test func missingTranslationIsAWarningAndConfigurable() throws {
        let d = try Self.run(city: ["en.yaml": "app.only_en: \"Only English\"\n"]).1
        let missing = d.filter { $0.code == "copy.missing_translation" }
        #expect(missing.count == 2 && missing.allSatisfy { $0.severity == .warning })
        #expect(missing.first?.message.contains("city/de.yaml") == true || missing.first?.message.contains("de.yaml") == true)
        #expect(try !Self.codes(["en.yaml": "app.download_city: \"x {city}\"\n"]).contains("copy.missing_translation"))
        // The city file's `rules:` turns it into an error through the bag.
        let bag = DiagnosticBag(overrides: ["copy.missing_translation": .error])
        bag.report(Rules.copyMissingTranslation, "x", at: nil)
        #expect(bag.errorCount == 1)
    }

    @Test func localeWithoutAnyCopyIsOneFinding() throws {
        let d = try Self.run(city: [:], locales: ["en", "ru"]).1
        let missing = d.filter { $0.code == "copy.missing_translation" }
        #expect(missing.count == 1 && missing[0].message.contains("no ru strings yet"), "\(d)")
    }

    /// Locales without templates, the first of them the default: the default locale is filled from the city's
    /// first locale that has each key (else the templates' English), a warning per new locale, no error.
    @Test(arguments: [["fi", "sv", "de"], ["fi", "sv"]])
    func localesWithoutTemplatesFallBack(_ locales: [String]) throws {
        let (table, d) = try Self.run(city: [:], locales: locales)
        #expect(d.allSatisfy { $0.severity != .error }, "\(d)")
        let missing = d.filter { $0.code == "copy.missing_translation" }
        #expect(missing.compactMap(\.entity).sorted() == ["fi:*", "sv:*"], "\(d)")
        #expect(d.count == 2, "\(d)")
        let source = locales.count == 3 ? "de" : "en"
        let fi = missing.first { $0.entity == "fi:*" }
        #expect(fi?.message.contains("fall back to \(source)") == true, "\(missing)")
        #expect(table.keys.count == CopyKeys.required.count + 2)
        #expect(table.defaultLocaleFallbacks.count == table.keys.count)
        #expect(Set(table.defaultLocaleFallbacks.values) == [source])
        guard case .text(let m)? = table.resolved("app.download_city", locale: "sv") else {
            Issue.record("no sv string")
            return
        }
        #expect(m.source == "\(source) download {city}")
        #expect(table.fallbacks["sv"]?["app.download_city"] == source)
        #expect(table.fallbacks["fi"]?.count == table.keys.count)
    }

    /// A translated key is not a fallback; the rest of a partly translated default locale are, one finding each.
    @Test func partlyTranslatedDefaultLocale() throws {
        let (table, d) = try Self.run(city: ["fi.yaml": "app.download_city: \"Lataa {city}\"\n"], locales: ["fi", "en"])
        #expect(table.defaultLocaleFallbacks["app.download_city"] == nil)
        #expect(table.defaultLocaleFallbacks.count == table.keys.count - 1)
        let missing = d.filter { $0.code == "copy.missing_translation" }
        #expect(missing.count == table.keys.count - 1, "one per key")
        #expect(d.allSatisfy { $0.severity == .warning }, "\(d)")
        // Strict for CI: the city file's rules: (or --werror) turns them into errors.
        let bag = DiagnosticBag(warningsAsErrors: true)
        CopyValidator.validate(table, bag: bag)
        #expect(bag.errorCount == missing.count)
    }

    @Test func extraTranslation() throws {
        #expect(try Self.codes(["de.yaml": "app.nur_deutsch: \"Nur Deutsch\"\n"]).contains("copy.extra_translation"))
        #expect(try !Self.codes(["de.yaml": "app.download_city: \"{city} laden\"\n"]).contains("copy.extra_translation"))
    }

    @Test func placeholderMismatch() throws {
        #expect(try Self.codes(["de.yaml": "app.download_city: \"{stadt} laden\"\n"]).contains("copy.placeholder_mismatch"))
        #expect(try Self.codes(["de.yaml": "app.download_city:\n  one: \"a\"\n  other: \"b\"\n"]).contains("copy.placeholder_mismatch"))
        // Forms of one plural disagreeing on a non-count placeholder.
        #expect(try Self.codes(["en.yaml": "nearby.results:\n  one: \"{count} place in {city}\"\n  other: \"{count} places\"\n"]).contains("copy.placeholder_mismatch"))
        // `one` may leave {count} out.
        #expect(try !Self.codes(["en.yaml": "nearby.results:\n  one: \"One place\"\n  other: \"{count} places\"\n"]).contains("copy.placeholder_mismatch"))
        #expect(try !Self.codes(["de.yaml": "app.download_city: \"{city} laden\"\n"]).contains("copy.placeholder_mismatch"))
    }

    @Test func invalidMessageSyntax() throws {
        let d = try Self.run(city: ["en.yaml": "app.download_city: \"Download {city\"\n"])
        let found = try #require(d.1.first { $0.code == "copy.invalid_message_syntax" })
        #expect(found.location?.description == "city/en.yaml:1:20")
        // Rejected keys are not also reported as missing.
        #expect(!d.1.contains { $0.code == "copy.missing_translation" })
        #expect(try !Self.codes(["en.yaml": "app.download_city: \"Download {city} {{now}}\"\n"]).contains("copy.invalid_message_syntax"))
    }

    @Test func pluralMissingOther() throws {
        #expect(try Self.codes(["en.yaml": "nearby.results:\n  one: \"{count} place\"\n"]).contains("copy.plural_missing_other"))
        #expect(try !Self.codes(["en.yaml": "nearby.results:\n  one: \"{count} place\"\n  other: \"{count} places\"\n"]).contains("copy.plural_missing_other"))
    }

    @Test func pluralMissingCategory() throws {
        let d = try Self.run(city: ["fr.yaml": "nearby.results:\n  one: \"{count} lieu\"\n  other: \"{count} lieux\"\n"]).1
        #expect(d.contains { $0.code == "copy.plural_missing_category" && $0.message.contains("`many`") })
        #expect(try !Self.codes(["fr.yaml": "nearby.results:\n  one: \"{count} lieu\"\n  many: \"{count} de lieux\"\n  other: \"{count} lieux\"\n"]).contains("copy.plural_missing_category"))
        // Russian needs few and many.
        let ru = try Self.run(city: ["ru.yaml": "nearby.results:\n  one: \"{count} место\"\n  other: \"{count} места\"\n"], locales: ["en", "ru"]).1
        #expect(ru.contains { $0.code == "copy.plural_missing_category" && $0.message.contains("`few`, `many`") })
    }

    @Test func pluralUnusedCategory() throws {
        #expect(try Self.codes(["en.yaml": "nearby.results:\n  one: \"{count} place\"\n  few: \"{count} places\"\n  other: \"{count} places\"\n"]).contains("copy.plural_unused_category"))
        #expect(try !Self.codes(["en.yaml": "nearby.results:\n  one: \"{count} place\"\n  other: \"{count} places\"\n"]).contains("copy.plural_unused_category"))
    }

    @Test func paddedAndEmptyText() throws {
        #expect(try Self.codes(["en.yaml": "app.download_city: \" Download {city}\"\n"]).contains("copy.padded_text"))
        #expect(try Self.codes(["en.yaml": "app.download_city: \"Download {city}\\n\"\n"]).contains("copy.padded_text"))
        #expect(try Self.codes(["en.yaml": "app.download_city: \"   \"\n"]).contains("copy.empty_text"))
        #expect(try Self.codes(["en.yaml": "nearby.results:\n  one: \"\"\n  other: \"{count} places\"\n"]).contains("copy.empty_text"))
        let ok = try Self.codes(["en.yaml": "app.download_city: \"Download {city}\"\n"])
        #expect(!ok.contains("copy.padded_text") && !ok.contains("copy.empty_text"))
    }

    @Test func errorWithoutAction() throws {
        let lone = "error.compass.message: \"No compass.\"\n"
        #expect(try Self.codes(["en.yaml": lone]).contains("copy.error_without_action"))
        #expect(try !Self.codes(["en.yaml": lone + "error.compass.action: \"Hold the phone flat\"\n"]).contains("copy.error_without_action"))
    }

    @Test func missingRequiredKey() throws {
        let d = try Self.run(city: ["en.yaml": "app.x: \"x\"\n", "de.yaml": "app.x: \"x\"\n", "fr.yaml": "app.x: \"x\"\n"],
            template: false).1
        let missing = d.filter { $0.code == "copy.missing_required_key" }.map(\.entity)
        #expect(missing.count == CopyKeys.required.count)
        #expect(missing.contains("error.analyze_http_error.action"))
        #expect(try !Self.codes([:]).contains("copy.missing_required_key"))
    }

    /// The shipped templates are complete and clean for en, de, fr and it.
    @Test func shippedTemplatesAreClean() throws {
        let bag = DiagnosticBag()
        let table = CopyReader.read(
            templateDirectory: TestPaths.root.appendingPathComponent("templates/copy").path, cityDirectory: nil,
            defaultLocale: "en", locales: ["en", "de", "fr", "it"], bag: bag)
        CopyValidator.validate(table, bag: bag)
        #expect(bag.diagnostics.isEmpty, "\(bag.diagnostics)")
        for locale in ["de", "fr", "it"] { #expect(table.entries[locale]?.count == table.keys.count, "\(locale)") }
    }
}
