import CityPackFormat
import Testing

/// Format 3's compact columns: tags and category codes, and reading the older JSON form.
struct PackSchemaTests {
    @Test func compactTagsRoundTrip() throws {
        let tags = ["wheelchair": "yes", "addr:street": "Städtle", "opening_hours": "Mo-Fr 08:00-12:00; Sa off", "a=b": "{x}"]
        let text = try #require(PackSchema.encodeTags(tags))
        #expect(text == "a=b\u{1F}{x}\u{1E}addr:street\u{1F}Städtle\u{1E}opening_hours\u{1F}Mo-Fr 08:00-12:00; Sa off\u{1E}wheelchair\u{1F}yes")
        #expect(PackSchema.decodeTags(text) == tags)
        #expect(PackSchema.encodeTags([:]) == "")
        #expect(PackSchema.decodeTags("") == [:])
        #expect(PackSchema.decodeTags("k\u{1F}") == ["k": ""])
    }

    @Test func separatorsInValuesFallBackToJSON() {
        #expect(PackSchema.encodeTags(["note": "a\u{1E}b"]) == nil)
        #expect(PackSchema.decodeTags(#"{"note":"a\u001eb"}"#) == ["note": "a\u{1E}b"])
    }

    @Test func malformedTagsAreNil() {
        #expect(PackSchema.decodeTags("[1, 2]") == nil)
        #expect(PackSchema.decodeTags("k\u{1F}v\u{1E}orphan") == nil)
        #expect(PackSchema.decodeTags(#"{"k": 1}"#) == nil)
    }

    @Test func categoryCodesFollowBinaryOrder() {
        #expect(PackSchema.categoryCodes(["toilet", "atm", "bus_stop", "bank"]) == ["atm": 0, "bank": 1, "bus_stop": 2, "toilet": 3])
    }
}
