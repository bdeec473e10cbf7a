import CityPackSupport
import Testing

/// `escapingScalars` replaces scalars, so a special scalar followed by a combining mark is still escaped — which
/// `replacingOccurrences(of:with:)`, matching whole characters, does not do.
struct ScalarEscapeTests {
    @Test func combiningMarkDoesNotHideTheScalar() {
        let text = "5%\u{301} and \"\u{301}"
        #expect(text.replacingOccurrences(of: "%", with: "%%") == text, "Foundation's character-level replace, for contrast")
        let percent = text.escapingScalars(["%": "%%"])
        let expected = "5%%\u{301} and \"\u{301}"
        #expect(percent == expected)
        let quoted = text.escapingScalars(["\"": "\\\""])
        let backslashes = quoted.unicodeScalars.filter { $0 == "\\" }.count
        #expect(backslashes == 1)
    }

    @Test func untouchedTextIsKept() {
        #expect("Zürich {city}".escapingScalars(["%": "%%"]) == "Zürich {city}")
        let crlf = "a\r\nb".escapingScalars(["\r": "%0D", "\n": "%0A"])
        #expect(crlf == "a%0D%0Ab")
        #expect("".escapingScalars { _ in "x" } == "")
    }
}
