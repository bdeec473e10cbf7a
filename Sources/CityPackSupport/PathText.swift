/// Path arithmetic on text, where Foundation's cannot be trusted: on this toolchain (Swift 6.3.1, Linux)
/// `NSString.deletingLastPathComponent` traps on a one-character relative path (`"a"`, `"é"`, `"a/"`), which an
/// output folder named `a` or a city folder `x` would hit.
package enum PathText {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it: `a/b/c` → `a/b`,
    /// `a/b/` → `a`, `/a` → `/`, `a` → `` (empty), `/` → `/`.
    package static func parent(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        if slash == text.startIndex { return "/" }
        var parent = text[..<slash]
        while parent.count > 1 && parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }
}
