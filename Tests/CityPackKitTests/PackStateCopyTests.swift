import CityPackFormat
import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// State copy before the first pack, and one set of placeholders (issue 42, point 7): the library ships the
/// templates' state and error copy for every template locale; every state renders the same text through it,
/// through a built pack's own table and through the shipped String Catalog with ``CopyLine/arguments``.
@Suite struct PackStateCopyTests {
    /// Every state an app can show, with each failure reason, installed or not.
    static var states: [(PackState, installed: Bool)] {
        var out: [(PackState, Bool)] = [
            (.notDownloaded, false), (.queued, false), (.downloading(bytes: 12_345, total: 1_234_567), false),
            (.applying, false), (.applying, true), (.onDisk(version: 2), true),
            (.onDiskOutOfDate(version: 1, update: 2, updateBytes: 12_662), true),
            (.paused(version: 2, bytes: 400, total: 12_662, installedVersion: nil), false),
            (.paused(version: 2, bytes: 400, total: 12_662, installedVersion: 1), true),
        ]
        for reason in PackFailure.Reason.allCases {
            for installed in [nil, 1] {
                let failure = PackFailure(reason, "x", status: reason == .serverError ? 503 : nil, bytesNeeded: reason == .notEnoughSpace ? 5_000_000 : nil)
                out.append((.failed(reason: failure, installedVersion: installed), installed != nil))
            }
        }
        return out
    }

    /// A format string of the String Catalog filled with positional arguments (`%N$@`, `%%`).
    static func format(_ value: String, _ arguments: [String]) -> String {
        var out = ""
        var rest = Substring(value)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.hasPrefix("%") {
                out += "%"
                rest = after.dropFirst()
            } else if let dollar = after.firstIndex(of: "$"), let n = Int(after[..<dollar]), after[after.index(after: dollar)...].hasPrefix("@") {
                out += n - 1 < arguments.count ? arguments[n - 1] : "?"
                rest = after[after.index(dollar, offsetBy: 2)...]
            } else {
                out += "%"
                rest = after
            }
        }
        return out + rest
    }

    @Test func everyStateReadsTheSameThroughTheDefaultsThePackAndTheStringCatalog() throws {
        let fixture = try LibraryFixture.get()
        let copy = fixture.served.appendingPathComponent("monaco/copy")
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: copy.appendingPathComponent("apple/Localizable.xcstrings"))) as? [String: Any]
        let strings = catalog?["strings"] as? [String: [String: Any]] ?? [:]
        #expect(PackStateCopy.defaultLocales == ["de", "en", "fr", "it"])
        var rendered = 0
        for locale in PackStateCopy.defaultLocales {
            let table = try JSONDecoder().decode(
                [String: LocalizedString].self, from: Data(contentsOf: copy.appendingPathComponent("web/\(locale).json")))
            // The shipped defaults are the templates' copy (the pack's table holds them as the build read them).
            for (key, text) in PackStateCopy.defaults(locale: locale) {
                #expect(table[key] == text, "\(locale) \(key): the library ships \(text), the templates say \(String(describing: table[key]))")
            }
            for (state, installed) in Self.states {
                let lines = state.copy(cityName: "Monaco", installed: installed)
                for line in [lines.text, lines.headline, lines.action].compactMap({ $0 }) {
                    let shipped = line.text(locale: locale)
                    #expect(!shipped.contains("{") && shipped != line.key, "\(locale) \(line.key): \(shipped)")
                    #expect(shipped == line.text(in: table), "\(locale) \(line.key)")
                    let unit = ((strings[line.key]?["localizations"] as? [String: Any])?[locale] as? [String: Any])?["stringUnit"] as? [String: Any]
                    let value = try #require(unit?["value"] as? String, "\(line.key) has no \(locale) string in the String Catalog")
                    #expect(Self.format(value, line.arguments) == shipped, "\(locale) \(line.key): \(value) with \(line.arguments)")
                    rendered += 1
                }
            }
        }
        print("STATE COPY: \(rendered) lines rendered alike through the shipped defaults, the pack's table and the String Catalog")
    }

    @Test func sizesReadAsTheWebLibraryWritesThem() {
        for (bytes, text) in [(Int64(700), "700 B"), (1_500, "1.5 KB"), (12_662, "13 KB"), (1_000, "1 KB"), (1_234_567, "1.2 MB"), (50_653, "51 KB")] {
            #expect(PackState.byteCount(bytes) == text)
        }
        #expect(PackStateCopy.defaults(locale: "fr-CA")["pack.state.queued"] == .text("En attente de téléchargement"))
        #expect(PackStateCopy.defaults(locale: "ja")["pack.state.queued"] == .text("Waiting to download"))
    }
}
