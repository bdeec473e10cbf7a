/// A parsed copy message: literal text and named placeholders, in order.
///
/// Syntax (the same in every copy file and in the web JSON output):
/// - `{name}` is a placeholder; `name` is an ASCII letter or `_` followed by letters, digits or `_`.
/// - `{{` is a literal `{` and `}}` a literal `}`.
/// - Anything else is literal text (any Unicode, including `%`, quotes, `@`, `<`, `&`, newlines).
///
/// ``parse(_:)`` is a pure function with no limits of its own beyond the input; it never traps.
public struct CopyMessage: Sendable, Hashable {
    /// One piece of a message.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    /// Why a message does not parse; `offset` counts Unicode scalars from the start (0-based).
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public init(offset: Int, message: String) {
            self.offset = offset
            self.message = message
        }
        public var description: String { "\(message) at character \(offset + 1)" }
    }

    /// Literal runs are merged, so two literals never follow each other and none is empty.
    public var segments: [Segment]

    public init(segments: [Segment]) { self.segments = segments }

    /// Placeholder names in order of first appearance, without repeats.
    public var placeholders: [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for case .placeholder(let name) in segments where seen.insert(name).inserted { out.append(name) }
        return out
    }

    /// The literal text with placeholders dropped (for whitespace and emptiness checks).
    public var literalText: String {
        var out = ""
        for case .literal(let text) in segments { out += text }
        return out
    }

    /// Parses message text.
    /// - Throws: ``SyntaxError`` for an unclosed `{`, a lone `}`, an empty `{}` or an invalid placeholder name.
    public static func parse(_ text: String) throws(SyntaxError) -> CopyMessage {
        var segments: [Segment] = []
        var literal = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func flush() {
            if !literal.isEmpty {
                segments.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
            }
        }
        while i < scalars.count {
            let c = scalars[i]
            if c == "{" {
                if i + 1 < scalars.count && scalars[i + 1] == "{" {
                    literal.append("{")
                    i += 2
                    continue
                }
                let start = i
                var j = i + 1
                var name = String.UnicodeScalarView()
                while j < scalars.count && scalars[j] != "}" {
                    if scalars[j] == "{" {
                        throw SyntaxError(offset: j, message: "`{` inside a placeholder (write `{{` for a literal brace)")
                    }
                    name.append(scalars[j])
                    j += 1
                }
                guard j < scalars.count else {
                    throw SyntaxError(offset: start, message: "placeholder is not closed with `}` (write `{{` for a literal brace)")
                }
                let nameText = String(name)
                guard !nameText.isEmpty else { throw SyntaxError(offset: start, message: "empty placeholder `{}`") }
                guard isPlaceholderName(nameText) else {
                    throw SyntaxError(
                        offset: start + 1,
                        message: "placeholder name `\(nameText)` must be a letter or `_` followed by letters, digits or `_`")
                }
                flush()
                segments.append(.placeholder(nameText))
                i = j + 1
            } else if c == "}" {
                guard i + 1 < scalars.count && scalars[i + 1] == "}" else {
                    throw SyntaxError(offset: i, message: "lone `}` (write `}}` for a literal brace)")
                }
                literal.append("}")
                i += 2
            } else {
                literal.append(c)
                i += 1
            }
        }
        flush()
        return CopyMessage(segments: segments)
    }

    /// The message written back in copy syntax (`{` and `}` doubled in literals). `parse(source)` gives it back.
    public var source: String {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                for ch in text.unicodeScalars {
                    if ch == "{" { out += "{{" } else if ch == "}" { out += "}}" } else { out.unicodeScalars.append(ch) }
                }
            case .placeholder(let name): out += "{\(name)}"
            }
        }
        return out
    }

    /// ASCII letter or `_`, then letters, digits or `_`.
    public static func isPlaceholderName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func letter(_ s: Unicode.Scalar) -> Bool { (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_" }
        return letter(first) && name.unicodeScalars.dropFirst().allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
    }

    /// Whether a placeholder carries an integer (`count` or a name ending in `_count`); every other one is text.
    /// Platform outputs format integers as `%lld` / `%d` and text as `%@` / `%s`.
    public static func isInteger(_ placeholder: String) -> Bool {
        placeholder == "count" || placeholder.hasSuffix("_count")
    }
}
