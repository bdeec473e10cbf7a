import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// The copy the repository ships in `templates/copy/`: every locale carries every key an app needs (the offline
/// states, the pack library's states and download errors, the location errors) with no problem of any rule, and
/// the fully-offline state never opens with an "offline" headline (that state is designed to reassure).
@Suite struct ShippedTemplateCopyTests {
    static let templates = TestPaths.root.appendingPathComponent("templates/copy")
    static let locales = ["en", "de", "fr", "it"]

    static func table(defaultLocale: String) -> (CopyTable, [Diagnostic]) {
        let bag = DiagnosticBag()
        let table = CopyReader.read(
            templateDirectory: templates.path, cityDirectory: nil, defaultLocale: defaultLocale,
            locales: [defaultLocale] + locales.filter { $0 != defaultLocale }, bag: bag)
        CopyValidator.validate(table, bag: bag)
        return (table, bag.diagnostics)
    }

    @Test(arguments: locales) func everyRequiredKeyInEveryLocale(locale: String) {
        let (table, diagnostics) = Self.table(defaultLocale: locale)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        let have = Set(table.entries[locale]?.keys.map { $0 } ?? [])
        let missing = CopyKeys.required.filter { !have.contains($0) }
        #expect(missing.isEmpty, "\(locale) lacks \(missing)")
    }

    @Test func packLibraryKeysAreRequired() {
        let required = Set(CopyKeys.required)
        for key in ["pack.choose_city", "pack.no_cities", "pack.state.updating", "pack.state.already_saved",
            "download_error.offline.message", "download_error.older_release.action"]
        {
            #expect(required.contains(key), "\(key)")
        }
    }

    @Test(arguments: locales) func fullyOfflineHasNoOfflineHeadline(locale: String) throws {
        let (table, _) = Self.table(defaultLocale: locale)
        guard case .text(let message)? = table.entries[locale]?["offline.fully_offline.title"]?.value else {
            Issue.record("offline.fully_offline.title is not plain text in \(locale)")
            return
        }
        let title = message.literalText
        let headlines = ["you're offline", "you are offline", "du bist offline", "vous êtes hors ligne", "sei offline"]
        #expect(!headlines.contains(where: title.lowercased().contains), "\(locale): \(title)")
    }
}
