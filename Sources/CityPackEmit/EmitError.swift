/// Unrecoverable failures while writing artifacts. Data problems are diagnostics, not errors.
public enum EmitError: Error, Sendable, CustomStringConvertible {
    case sqlite(path: String, message: String)
    case io(path: String, message: String)
    case compression(path: String, message: String)

    public var description: String {
        switch self {
        case .sqlite(let path, let message): "\(path): SQLite: \(message)"
        case .io(let path, let message): "\(path): \(message)"
        case .compression(let path, let message): "\(path): compression: \(message)"
        }
    }
}
