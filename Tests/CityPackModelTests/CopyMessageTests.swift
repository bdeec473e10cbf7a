import CityPackModel
import CityPackTestSupport
import Testing

/// The copy message syntax: `{name}` placeholders, `{{` / `}}` literal braces, errors with offsets.
@Suite struct CopyMessageTests {
    @Test func segmentsAndPlaceholders() throws {
        let m = try CopyMessage.parse("Download {city} ({size}), {city} again")
        #expect(m.segments == [.literal("Download "), .placeholder("city"), .literal(" ("), .placeholder("size"),
            .literal("), "), .placeholder("city"), .literal(" again")])
        #expect(m.placeholders == ["city", "size"])
        #expect(try CopyMessage.parse("").segments.isEmpty)
        #expect(try CopyMessage.parse("{count}").segments == [.placeholder("count")])
    }

    @Test func escapedBracesAreLiterals() throws {
        let m = try CopyMessage.parse("Use {{braces}} and {name} → }}{{")
        #expect(m.segments == [.literal("Use {braces} and "), .placeholder("name"), .literal(" → }{")])
        #expect(m.literalText == "Use {braces} and  → }{")
        #expect(m.source == "Use {{braces}} and {name} → }}{{")
        #expect(try CopyMessage.parse(m.source) == m)
    }

    @Test(arguments: [
        ("Download {city", 9, "not closed"), ("lone } brace", 5, "lone"), ("empty {}", 6, "empty"),
        ("bad {two words}", 5, "placeholder name"), ("bad {1st}", 5, "placeholder name"), ("nested {a{b}}", 9, "inside"),
        ("accent {café}", 8, "placeholder name"), ("{", 0, "not closed"), ("}", 0, "lone"),
    ])
    func syntaxErrors(text: String, offset: Int, fragment: String) {
        #expect(throws: CopyMessage.SyntaxError.self) { try CopyMessage.parse(text) }
        do {
            _ = try CopyMessage.parse(text)
        } catch {
            #expect(error.offset == offset, "\(text): \(error)")
            #expect(error.message.contains(fragment), "\(text): \(error)")
        }
    }

    @Test func unicodeAndPercentAreLiteral() throws {
        let m = try CopyMessage.parse("50% of 🚻 for {user_name2} — «ok»\n")
        #expect(m.placeholders == ["user_name2"])
        #expect(m.source == "50% of 🚻 for {user_name2} — «ok»\n")
    }

    @Test func integerPlaceholders() {
        #expect(CopyMessage.isInteger("count"))
        #expect(CopyMessage.isInteger("stop_count"))
        #expect(!CopyMessage.isInteger("city"))
        #expect(!CopyMessage.isInteger("counter"))
    }

    @Test func pluralRulesTable() {
        #expect(PluralRules.categories(for: "en") == [.one, .other])
        #expect(PluralRules.categories(for: "de-AT") == [.one, .other])
        #expect(PluralRules.categories(for: "fr") == [.one, .many, .other])
        #expect(PluralRules.categories(for: "pt_BR") == [.one, .many, .other])
        #expect(PluralRules.categories(for: "ru") == [.one, .few, .many, .other])
        #expect(PluralRules.categories(for: "ar") == PluralCategory.allCases)
        #expect(PluralRules.categories(for: "ja") == [.other])
        #expect(PluralRules.categories(for: "tlh") == [.other])
        #expect(!PluralRules.knows("tlh"))
    }

    @Test func keys() {
        for good in ["app.title", "offline.weak_network.title", "a1.b_2"] { #expect(CopyKeys.isValidKey(good), "\(good)") }
        for bad in ["", "App.title", "app..title", "app.", ".app", "1app", "app.tïtle", "app title", "app-title"] {
            #expect(!CopyKeys.isValidKey(bad), "\(bad)")
        }
        #expect(CopyKeys.required.contains("error.locate_timeout.action"))
        #expect(CopyKeys.required.contains("offline.no_pack_offline.title"))
        // Offline states (title, message, action) + progress, location errors, pack states + chooser + empty
        // state, download errors (message, action).
        #expect(CopyKeys.required.count == 6 * 3 + 1 + 6 * 2 + 10 + 2 + 8 * 2)
    }

    /// Random texts over the characters that matter: parsing never traps, and whatever parses comes back
    /// unchanged through `source` (seeded, so failures reproduce).
    @Test func randomTextsRoundTrip() throws {
        var rng = SplitMix64(seed: 7)
        let alphabet: [String] = ["{", "}", "a", "_", "1", " ", "%", "\n", "é", "🚻", "count", "{city}", "{{", "}}"]
        var parsed = 0
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 12) { text += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            guard let message = try? CopyMessage.parse(text) else { continue }
            parsed += 1
            #expect(try CopyMessage.parse(message.source) == message, "\(text)")
            for case .literal(let literal) in message.segments { #expect(!literal.isEmpty) }
        }
        #expect(parsed > 500)
    }
}
