/// Why ``Gunzip/inflate(_:limit:)`` failed.
package enum GunzipError: Error, Equatable, Sendable {
    /// zlib could not be initialised.
    case initialisation
    /// The stream inflates to more than the limit.
    case tooLarge(limit: Int)
    /// The stream is damaged or truncated: zlib's message when it has one, and its return code.
    case damaged(message: String?, code: Int32)
    /// Bytes follow the end of the gzip stream.
    case trailingBytes
}

/// In-memory gunzip with an output bound, for what is small enough to hold: deltas, and the previous pack a delta
/// is computed from.
package enum Gunzip {
    /// Inflates the gzip stream `data`, refusing more than `limit` output bytes and any byte after the stream.
    package static func inflate(_ data: [UInt8], limit: Int) throws(GunzipError) -> [UInt8] {
        let stream: ZlibStream
        do { stream = try ZlibStream(inflating: .gzip) } catch { throw .initialisation }
        var out: [UInt8] = []
        let chunk = 256 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        var result = ZlibResult.progress
        var oversized = false
        data.withUnsafeBytes { input in
            stream.setInput(input.baseAddress, count: input.count)
            repeat {
                buffer.withUnsafeMutableBytes { b in
                    let produced: Int
                    (result, produced) = stream.run(into: b, finish: false)
                    if out.count + produced > limit {
                        oversized = true
                    } else {
                        out.append(contentsOf: b[0..<produced])
                    }
                }
            } while result == .progress && !oversized
        }
        if oversized { throw .tooLarge(limit: limit) }
        guard result == .end else { throw .damaged(message: stream.message, code: result.code) }
        guard stream.availableInput == 0 else { throw .trailingBytes }
        return out
    }
}
