import CityPackFormat
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// The manifest patch format: the edits a writer makes give the new manifest back byte for byte, and a reader
/// refuses every edit list that does not.
@Suite struct ManifestPatchTests {
    static func sha(_ bytes: [UInt8]) -> String { FileDigest.sha256(of: bytes) }

    static func patch(_ base: String, _ result: String) -> ManifestPatch {
        ManifestPatch(
            city: "c", from: 1, to: 2, base: .init(bytes: base.utf8.count), result: .init(bytes: result.utf8.count),
            edits: ManifestPatch.edits(base: Array(base.utf8), result: Array(result.utf8)))
    }

    static func apply(_ patch: ManifestPatch, _ base: String, expected: String) throws(ManifestPatch.Failure) -> String {
        String(decoding: try patch.apply(to: Array(base.utf8), expected: sha(Array(expected.utf8)), sha256: sha), as: UTF8.self)
    }

    @Test func editsGiveTheResultBackByteForByte() throws {
        let cases: [(String, String)] = [
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("a\nb\nc\n", "a\nb\nc\nd\n"),
            ("a\nb\nc\n", "b\nc\n"),
            ("a\nb\nc", "a\nb\nc changed"),  // no final newline
            ("", "x\n"),
            ("x\n", ""),
            ("{\n  \"é\" : \"ü\",\n  \"n\" : 1\n}\n", "{\n  \"é\" : \"ö\",\n  \"n\" : 2\n}\n"),
        ]
        for (base, result) in cases {
            let patch = Self.patch(base, result)
            #expect(try Self.apply(patch, base, expected: result) == result, "\(base.debugDescription) → \(result.debugDescription)")
        }
    }

    @Test func randomEditsOfALongFileRoundTrip() throws {
        var rng = SplitMix64(seed: 42)
        let base = (0..<400).map { "  \"key\($0)\" : \"\(String($0 * 7919, radix: 16))\",\n" }
        for _ in 0..<20 {
            var result = base
            for _ in 0..<Int(rng.next() % 6 + 1) {
                let i = Int(rng.next() % UInt64(result.count))
                switch rng.next() % 3 {
                case 0: result[i] = "  \"changed\" : \(rng.next()),\n"
                case 1: result.remove(at: i)
                default: result.insert("  \"new\" : \(rng.next()),\n", at: i)
                }
            }
            let (b, r) = (base.joined(), result.joined())
            let patch = Self.patch(b, r)
            #expect(try Self.apply(patch, b, expected: r) == r)
            // A few changed lines: a few edits, most of the file copied.
            let inserted = patch.edits.reduce(0) { n, e in if case .replace(_, let t) = e { n + t.utf8.count } else { n } }
            #expect(inserted < 400)
        }
    }

    @Test func theJSONShapeIsNumbersAndPairs() throws {
        let patch = Self.patch("a\nb\nc\n", "a\nB\nc\n")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(patch), as: UTF8.self)
        #expect(text.contains("\"edits\":[1,[1,\"B\\n\"],1]"), "\(text)")
        #expect(try JSONDecoder().decode(ManifestPatch.self, from: Data(text.utf8)) == patch)
        #expect(ManifestPatch.fileName(city: "milan", from: 3, to: 5) == "milan-3-5.manifest-patch.json")
        #expect(ManifestPatch.versions(fileName: "milan-3-5.manifest-patch.json", city: "milan")! == (3, 5))
        #expect(ManifestPatch.versions(fileName: "milan-5-3.manifest-patch.json", city: "milan") == nil)
        #expect(ManifestPatch.versions(fileName: "milan-3-5.delta", city: "milan") == nil)
    }

    @Test func editsThatDoNotGiveTheResultAreRefused() {
        let base = "a\nb\nc\n"
        let result = "a\nB\nc\n"
        var tooFew = Self.patch(base, result)
        tooFew.edits.removeLast()
        var tooMany = Self.patch(base, result)
        tooMany.edits.append(.copy(1))
        var pastTheEnd = Self.patch(base, result)
        pastTheEnd.edits = [.replace(skip: 9, text: "")]
        var negative = Self.patch(base, result)
        negative.edits = [.copy(-1)]
        var otherText = Self.patch(base, result)
        otherText.edits = [.copy(1), .replace(skip: 1, text: "X\n"), .copy(1)]
        var otherFormat = Self.patch(base, result)
        otherFormat.format = 2
        for (name, patch) in [("too few", tooFew), ("too many", tooMany), ("past the end", pastTheEnd), ("negative", negative), ("other text", otherText), ("format", otherFormat)] {
            #expect(throws: ManifestPatch.Failure.self, "\(name)") { try Self.apply(patch, base, expected: result) }
        }
        // Another base (same length, another byte), or a result that is not the catalog's.
        #expect(throws: ManifestPatch.Failure.self) { try Self.apply(Self.patch(base, result), "z\nb\nc\n", expected: result) }
        // A base whose changed line differs gives the same result, which is what counts (the catalog's hash).
        #expect((try? Self.apply(Self.patch(base, result), "a\nx\nc\n", expected: result)) == result)
        #expect(throws: ManifestPatch.Failure.self) { try Self.apply(Self.patch(base, result), base, expected: "a\nC\nc\n") }
        // The same patch is fine (control).
        #expect((try? Self.apply(Self.patch(base, result), base, expected: result)) == result)
    }
}
