import CityPackIngest
import Testing

@Suite struct NameLocaleTests {
    @Test func localePattern() {
        for ok in ["fr", "de", "zh-Hant", "sr-Latn", "pt-BR", "es-419", "zh-Hans-CN", "de-CH-1901", "yue"] {
            #expect(NameLocale.isLocale(Substring(ok)), "\(ok)")
        }
        for bad in ["prefix", "etymology", "left", "botanical", "zh_pinyin", "FR", "f", "en-", "de-ch", "x-y"] {
            #expect(!NameLocale.isLocale(Substring(bad)), "\(bad)")
        }
    }
}
