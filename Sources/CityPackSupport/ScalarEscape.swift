/// Escaping by Unicode scalar, where `replacingOccurrences(of:with:)` cannot be trusted: it matches whole
/// characters (grapheme clusters), so a `%`, `"` or `{` followed by a combining mark (`%\u{301}`) is one character
/// that is not `%` and goes through unescaped. Every escape written for a machine format (format strings, YAML,
/// JSON, workflow commands) goes through here instead.
extension String {
    /// The text with each scalar that `replacement` maps replaced by its text; other scalars are kept.
    package func escapingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { out.append(contentsOf: text.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// The text with each scalar in `table` replaced by its text.
    package func escapingScalars(_ table: [Unicode.Scalar: String]) -> String {
        escapingScalars { table[$0] }
    }
}
