import CCityPackZlib

/// Why ``Gunzip/inflate(_:limit:)`` failed.
public enum GunzipError: Error, Equatable, Sendable {
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
public enum Gunzip {
    /// Inflates the gzip stream `data`, refusing more than `limit` output bytes and any byte after the stream.
    public static func inflate(_ data: [UInt8], limit: Int) throws(GunzipError) -> [UInt8] {
        var stream = z_stream()
        guard citypack_inflateInit2(&stream, 15 + 16) == Z_OK else { throw .initialisation }
        defer { inflateEnd(&stream) }
        var input = data
        var out: [UInt8] = []
        let chunk = 256 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        var rc: Int32 = Z_OK
        var oversized = false
        input.withUnsafeMutableBufferPointer { inp in
            stream.next_in = inp.baseAddress
            stream.avail_in = UInt32(inp.count)
            repeat {
                buffer.withUnsafeMutableBufferPointer { b in
                    stream.next_out = b.baseAddress
                    stream.avail_out = UInt32(chunk)
                    rc = CCityPackZlib.inflate(&stream, Z_NO_FLUSH)
                    let produced = chunk - Int(stream.avail_out)
                    if out.count + produced > limit {
                        oversized = true
                    } else {
                        out.append(contentsOf: b[0..<produced])
                    }
                }
            } while rc == Z_OK && !oversized
        }
        if oversized { throw .tooLarge(limit: limit) }
        guard rc == Z_STREAM_END else { throw .damaged(message: stream.msg.map { String(cString: $0) }, code: rc) }
        guard stream.avail_in == 0 else { throw .trailingBytes }
        return out
    }
}
