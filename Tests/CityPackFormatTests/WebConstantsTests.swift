import CityPackFormat
import CityPackTestSupport
import Foundation
import Testing

/// The JS reader's shared constants (web format, Earth radius, cover, geohash alphabet) are the block
/// ``WebFlavour/javaScriptConstants`` generates from the Swift ones, so the two readers cannot drift apart:
/// a change on the Swift side fails here until `RECORD_GOLDENS=1` rewrites the block in clients/web/constants.js.
@Suite struct WebConstantsTests {
    @Test func javaScriptReaderHoldsTheGeneratedConstants() throws {
        let url = TestPaths.root.appendingPathComponent("clients/web/constants.js")
        let text = try String(contentsOf: url, encoding: .utf8)
        let marks = WebFlavour.javaScriptConstantsMarks
        let begin = try #require(text.range(of: marks.begin), "constants.js lacks \(marks.begin)")
        let end = try #require(text.range(of: marks.end, range: begin.upperBound..<text.endIndex))
        let block = String(text[begin.lowerBound..<end.upperBound])
        if RecordMode.isOn(RecordMode.goldens) {
            try (text.replacingCharacters(in: begin.lowerBound..<end.upperBound, with: WebFlavour.javaScriptConstants))
                .write(to: url, atomically: true, encoding: .utf8)
            RecordMode.recorded("clients/web/constants.js constants", by: RecordMode.goldens)
            return
        }
        #expect(block == WebFlavour.javaScriptConstants, "clients/web/constants.js: constants drifted from Swift")
    }
}
