import CCityPackSQLite
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// SQLite's own FTS5 tokenizer, called directly: the tokens an FTS5 table with the same `tokenize` option makes of
/// a text (split, case-folded, diacritics removed as configured), without a table or a statement. A reader that
/// holds an FTS5 index in memory tokenizes queries with it, so its matches are FTS5's.
///
/// Not thread-safe: use it under the lock of the connection that made it (``SQLiteDatabase/fts5Tokenizer(_:arguments:)``).
package final class FTS5Tokenizer {
    private let tokenizer: UnsafeMutablePointer<citypack_fts5_tokenizer>

    init?(database: OpaquePointer, name: String, arguments: [String]) {
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let made: UnsafeMutablePointer<citypack_fts5_tokenizer>? = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { args in
                citypack_fts5_tokenizer_new(database, name, args.baseAddress, Int32(args.count))
            }
        }
        guard let made else { return nil }
        tokenizer = made
    }

    deinit { citypack_fts5_tokenizer_free(tokenizer) }

    /// The tokens of `text`, in order, as UTF-8 bytes.
    package func tokens(_ text: String) -> [[UInt8]] {
        final class Sink { var tokens: [[UInt8]] = [] }
        let sink = Sink()
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                _ = citypack_fts5_tokenize(tokenizer, chars.baseAddress, Int32(chars.count), Unmanaged.passUnretained(sink).toOpaque()) {
                    context, _, token, count, _, _ in
                    guard let context, let token, count >= 0 else { return SQLITE_OK }
                    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                    sink.tokens.append(token.withMemoryRebound(to: UInt8.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) })
                    return SQLITE_OK
                }
            }
        }
        return sink.tokens
    }
}
