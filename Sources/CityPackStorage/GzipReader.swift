#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Sequential gunzip of a file through ``ZlibStream``: the project's one streaming gzip reader (`.osm.gz`
/// sources). Members of a concatenated file (pigz, `cat a.gz b.gz`) are read one after the other; bytes after the
/// last member that do not start another one are ignored, as zlib's `gzread` ignores them.
///
/// Not thread-safe: one reader at a time. The file descriptor is the caller's (not closed here).
package final class GzipReader {
    /// Why a read failed.
    package enum Failure: Error, Sendable, Equatable {
        /// An operating-system read error (`errno`).
        case system(Int32)
        /// The data is not gzip, damaged or truncated: zlib's message.
        case corrupt(String)
    }

    private let fd: Int32
    private let stream: ZlibStream
    private let input: UnsafeMutableRawBufferPointer
    /// Bytes of ``input`` filled by the last read of the file.
    private var filled = 0
    private var totalRead: Int64 = 0
    private var endOfFile = false
    private var memberEnded = false
    private var finished = false
    private let strict: Bool
    /// Called with every compressed chunk as it is read from the file (a hash of the compressed bytes).
    package var inputObserver: ((UnsafeRawBufferPointer) -> Void)?

    /// A reader of the gzip data on `fd`, from its current position.
    /// - Parameters:
    ///   - bufferSize: bytes read from the file at a time (default 256 KiB).
    ///   - strict: refuse bytes after the last member that do not form another one (``Failure/corrupt(_:)``)
    ///     rather than ignore them (default false, as `gzread`).
    /// - Throws: ``ZlibError`` when zlib cannot start.
    package init(fd: Int32, bufferSize: Int = 256 << 10, strict: Bool = false) throws(ZlibError) {
        self.fd = fd
        self.strict = strict
        stream = try ZlibStream(inflating: .gzip)
        input = .allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit { input.deallocate() }

    /// Compressed bytes taken from the file so far.
    package var compressedOffset: Int64 { totalRead - Int64(stream.availableInput) }

    /// Fills up to `capacity` bytes at `buffer` with decompressed data.
    /// - Returns: the bytes written; 0 at the end of the data.
    /// - Throws: ``Failure``.
    package func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(Failure) -> Int {
        var produced = 0
        while produced == 0 && !finished && capacity > 0 {
            if stream.availableInput == 0 && !endOfFile { try refill() }
            if memberEnded {
                // Another member follows only when the next byte starts one.
                guard stream.availableInput > 0 else {
                    if endOfFile { finished = true }
                    continue
                }
                guard strict || input[filled - stream.availableInput] == 0x1F else {
                    finished = true
                    break
                }
                stream.reset()
                memberEnded = false
            }
            let (result, n) = stream.run(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity), finish: false)
            produced += n
            switch result {
            case .progress: break
            case .end: memberEnded = true
            case .stalled:
                if endOfFile && stream.availableInput == 0 { throw .corrupt("unexpected end of gzip stream") }
            case .failed(let code): throw .corrupt(stream.message ?? "zlib error \(code)")
            }
        }
        return produced
    }

    private func refill() throws(Failure) {
        while true {
            let n = systemRead(fd, input.baseAddress, input.count)
            if n > 0 {
                filled = n
                totalRead += Int64(n)
                inputObserver?(UnsafeRawBufferPointer(rebasing: input[0..<n]))
                stream.setInput(input.baseAddress, count: n)
                return
            }
            if n == 0 {
                endOfFile = true
                return
            }
            if errno == EINTR { continue }
            throw .system(errno)
        }
    }
}
