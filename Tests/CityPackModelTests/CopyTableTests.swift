import CityPackDiagnostics
import CityPackModel
import Testing

/// The copy table's fallbacks: what a locale without its own strings shows, and what is recorded as untranslated.
@Suite struct CopyTableTests {
    static func entry(_ text: String, template: Bool = true) throws -> CopyEntry {
        CopyEntry(value: .text(try CopyMessage.parse(text)), location: SourceLocation(file: "x.yaml"), fromTemplate: template)
    }

    @Test func defaultLocaleTakesTheFirstCityLocaleThatHasTheKey() throws {
        var table = CopyTable(defaultLocale: "fi", locales: ["fi", "sv", "de", "fr"])
        table.entries["de"] = ["a.one": try Self.entry("de one"), "a.two": try Self.entry("de two")]
        table.entries["fr"] = ["a.one": try Self.entry("fr one"), "a.three": try Self.entry("fr three")]
        table.entries["fi"] = ["a.two": try Self.entry("fi two", template: false)]
        table.fillDefaultLocale(from: ["a.four": try Self.entry("en four")], templateLocale: "en")
        #expect(table.defaultLocaleFallbacks == ["a.one": "de", "a.three": "fr", "a.four": "en"])
        #expect(table.keys == ["a.four", "a.one", "a.three", "a.two"])
        #expect(table.isFallback("a.one", locale: "fi") && !table.isFallback("a.two", locale: "fi"))
        #expect(table.fallbacks["sv"]?.count == 4, "sv has nothing of its own")
        #expect(table.fallbacks["de"] == ["a.three": "fr", "a.four": "en"])
    }

    @Test func cityKeysAndRejectedKeysAreNotFilled() throws {
        var table = CopyTable(defaultLocale: "fi", locales: ["fi", "de"])
        table.entries["de"] = ["city.only": try Self.entry("nur hier", template: false), "a.bad": try Self.entry("x")]
        table.rejected["fi"] = ["a.bad"]
        table.fillDefaultLocale(from: [:], templateLocale: "en")
        #expect(table.defaultLocaleFallbacks.isEmpty, "a city's own key stays extra; a rejected key stays rejected")
        #expect(table.entries["fi"] == nil)
    }

    @Test func aCompleteDefaultLocaleHasNoFallbacks() throws {
        var table = CopyTable(defaultLocale: "en", locales: ["en", "de"])
        table.entries["en"] = ["a.one": try Self.entry("one")]
        table.fillDefaultLocale(from: ["a.one": try Self.entry("one")], templateLocale: "en")
        #expect(table.defaultLocaleFallbacks.isEmpty)
        #expect(table.fallbacks == ["de": ["a.one": "en"]])
    }
}
