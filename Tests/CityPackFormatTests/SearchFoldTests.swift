import CityPackFormat
import Testing

/// ``SearchFold``: the letters unicode61 does not fold, folded before indexing and in queries (issue 32).
@Suite struct SearchFoldTests {
    @Test(arguments: [
        ("Dorfstraße", "Dorfstrasse"), ("STRAẞE", "STRAssE"), ("Øresund", "oresund"), ("Kærlighed", "Kaerlighed"),
        ("Œuvre", "oeuvre"), ("Łódź", "lódź"), ("Þingvellir", "thingvellir"), ("ıstanbul", "istanbul"), ("ﬁne", "fine"),
    ])
    func foldsWhatUsersTypeWithout(_ written: String, _ folded: String) {
        #expect(SearchFold.apply(written) == folded)
    }

    @Test(arguments: ["Café de Paris", "Dorfstrasse", "München", "東京駅", "", "Ελλάδα"])
    func leavesOtherTextAlone(_ text: String) {
        #expect(SearchFold.apply(text) == text)
    }

    /// Every letter in one text, each folded (not only the first of a word or of the text).
    @Test func foldsEveryLetterOfAText() {
        let text = SearchFold.table.map { "x\($0.0)" }.joined()
        #expect(SearchFold.apply(text) == SearchFold.table.map { "x\($0.1)" }.joined())
        #expect(SearchFold.apply("Straßenstraße") == "Strassenstrasse")
    }

    @Test func everyEntryFoldsToLowercaseASCII() {
        for (letter, folded) in SearchFold.table {
            #expect(folded.allSatisfy { $0.isASCII && $0.isLowercase }, "\(letter) → \(folded)")
        }
        #expect(Set(SearchFold.table.map(\.0)).count == SearchFold.table.count, "a letter is listed twice")
    }

    @Test func placeGroupsJoinChainsUnderTheSmallestID() {
        let groups = PackSchema.PlaceLink.groups([(8, 3), (7, 3), (20, 11)])
        #expect(groups == [3: 3, 7: 3, 8: 3, 11: 11, 20: 11])
        #expect(PackSchema.PlaceLink.groups([]).isEmpty)
    }
}
