import CityPackSupport
import Foundation
import Testing

@Suite struct PathTextTests {
    /// The parent as NSString gives it, for the paths it does not trap on, and one-character paths too.
    @Test func parentMatchesFoundationWithoutTrapping() {
        let cases: [(String, String)] = [
            ("a", ""), ("é", ""), ("a/", ""), ("ab", ""), ("/", "/"), ("", ""), ("/a", "/"), ("x/a", "x"),
            ("a/b/c", "a/b"), ("a/b/", "a"), ("/a/b", "/a"), ("./a", "."), ("outputs/monaco", "outputs"), ("a//b", "a"),
        ]
        for (path, parent) in cases { #expect(PathText.parent(path) == parent, "\(path)") }
        for path in ["ab", "/a", "x/a", "a/b/c", "a/b/", "/a/b", "./a", "outputs/monaco", "/"] {
            #expect(PathText.parent(path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }
}
