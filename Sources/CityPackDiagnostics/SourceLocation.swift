/// A position in an input file: 1-based line and column, as compilers print them.
///
/// For CSV sources `line` is the physical line and `column` the 1-based column of the field's first byte;
/// `field` optionally names the CSV column (e.g. `stop_lat`).
public struct SourceLocation: Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
    /// Path as given on the command line or relative to the city directory.
    public var file: String
    /// 1-based line number; 0 when unknown (the whole file).
    public var line: Int
    /// 1-based column number; 0 when unknown.
    public var column: Int
    /// Optional field name (CSV column or XML attribute).
    public var field: String?

    public init(file: String, line: Int = 0, column: Int = 0, field: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
    }

    /// `file:line:col`, omitting parts that are unknown.
    public var description: String {
        var text = file
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        return text
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
