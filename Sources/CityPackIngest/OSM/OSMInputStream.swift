#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemClose = Darwin.close
#endif
import CCityPackBzip2
import CityPackStorage

/// How an OSM file's bytes are compressed on disk.
package enum OSMCompression: String, Sendable {
    case none
    /// RFC 1952 gzip (`.osm.gz`), read through ``CityPackStorage/GzipReader``.
    case gzip
    /// bzip2 (`.osm.bz2`, what many published extracts and Overpass dumps ship as), read through libbz2's
    /// streaming decompressor; concatenated streams (pbzip2, lbzip2) are read one after the other.
    case bzip2

    /// The compression of `path`: by its first bytes (gzip `1f 8b`, bzip2 `BZh1`…`BZh9`), else by its name
    /// (`.gz`, `.bz2`); `.none` when neither says anything (and for a file that cannot be read).
    package static func of(path: String) -> OSMCompression {
        var head = [UInt8](repeating: 0, count: 4)
        var count = 0
        let fd = open(path, O_RDONLY)
        if fd >= 0 {
            count = head.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, 4) }
            _ = systemClose(fd)
        }
        if count >= 2 && head[0] == 0x1F && head[1] == 0x8B { return .gzip }
        if count >= 4 && head[0] == 0x42 && head[1] == 0x5A && head[2] == 0x68 && (0x31...0x39).contains(head[3]) {
            return .bzip2
        }
        if path.hasSuffix(".gz") { return .gzip }
        if path.hasSuffix(".bz2") { return .bzip2 }
        return .none
    }
}

/// Sequential bytes of an OSM file: `read(2)` for `.osm`, ``CityPackStorage/GzipReader`` for gzip, libbz2 for bzip2 (see
/// ``OSMCompression/of(path:)``).
///
/// Not thread-safe: one reader at a time.
package final class OSMInputStream {
    private var fd: Int32 = -1
    private var gz: GzipReader?
    private var bz: Bzip2Decoder?
    let path: String
    /// Size of the file on disk.
    package let fileSize: Int64
    /// How the file is compressed.
    package let compression: OSMCompression

    /// Opens `path`; gzip and bzip2 files (by content, else by name) are decompressed.
    /// - Throws: ``OSMReadError/cannotOpen(path:reason:)``.
    package init(path: String) throws {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw OSMReadError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw OSMReadError.cannotOpen(path: path, reason: "not a regular file")
        }
        fileSize = Int64(st.st_size)
        compression = OSMCompression.of(path: path)
        fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw OSMReadError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        // A file named `.gz` that does not start like gzip is read as it is (as zlib's `gzread` reads it).
        var magic: [UInt8] = [0, 0]
        if compression == .gzip && pread(fd, &magic, 2, 0) == 2 && magic == [0x1F, 0x8B] {
            do { gz = try GzipReader(fd: fd) } catch {
                throw OSMReadError.cannotOpen(path: path, reason: "zlib could not start a decompressor")
            }
        } else {
            if compression == .bzip2 {
                guard let decoder = Bzip2Decoder(fd: fd) else {
                    throw OSMReadError.cannotOpen(path: path, reason: "libbz2 could not start a decompressor")
                }
                bz = decoder
            }
        }
    }

    deinit { close() }

    /// The outcome of one read.
    package enum Chunk {
        case bytes(Int)
        case end
        /// The compressed stream is corrupt or truncated: the library and its message (`zlib: …`, `bzip2: …`).
        case corrupt(String)
    }

    /// Fills up to `capacity` bytes at `buffer`.
    /// - Throws: ``OSMReadError/readFailed(path:reason:)`` on an operating-system read error.
    package func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Chunk {
        if let gz {
            do throws(GzipReader.Failure) {
                let n = try gz.read(into: buffer, capacity: capacity)
                return n > 0 ? .bytes(n) : .end
            } catch {
                switch error {
                case .system(let code): throw OSMReadError.readFailed(path: path, reason: String(cString: strerror(code)))
                case .corrupt(let message): return .corrupt("zlib: \(message)")
                }
            }
        }
        if let bz {
            do throws(Bzip2Decoder.Failure) {
                return try bz.read(into: buffer, capacity: capacity)
            } catch {
                switch error {
                case .system(let code): throw OSMReadError.readFailed(path: path, reason: String(cString: strerror(code)))
                case .corrupt(let message): return .corrupt("bzip2: \(message)")
                }
            }
        }
        while true {
            let n = systemRead(fd, buffer, capacity)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .end }
            if errno == EINTR { continue }
            throw OSMReadError.readFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Bytes consumed from the file on disk so far.
    package var offset: Int64 {
        if let gz { return gz.compressedOffset }
        if let bz { return bz.compressedOffset }
        return Int64(lseek(fd, 0, SEEK_CUR))
    }

    package func close() {
        gz = nil
        bz?.end()
        bz = nil
        if fd >= 0 {
            _ = systemClose(fd)
            fd = -1
        }
    }
}

/// libbz2's streaming decompressor over a file descriptor it does not own. Not thread-safe.
private final class Bzip2Decoder {
    enum Failure: Error {
        /// An operating-system read error (`errno`).
        case system(Int32)
        /// The data is not bzip2, damaged or truncated.
        case corrupt(String)
    }

    private let fd: Int32
    private var stream = bz_stream()
    private var live = false
    /// The current stream ended; more input starts another (concatenated) stream.
    private var streamEnded = false
    private var inputEnded = false
    private let input: UnsafeMutablePointer<CChar>
    private static let inputSize = 256 << 10
    private var fileBytesRead: Int64 = 0
    private var streamsDone = 0

    init?(fd: Int32) {
        self.fd = fd
        input = .allocate(capacity: Self.inputSize)
        guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
            input.deallocate()
            return nil
        }
        live = true
    }

    deinit {
        end()
        input.deallocate()
    }

    func end() {
        if live { BZ2_bzDecompressEnd(&stream) }
        live = false
    }

    /// Compressed bytes consumed so far.
    var compressedOffset: Int64 { fileBytesRead - Int64(stream.avail_in) }

    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(Failure) -> OSMInputStream.Chunk {
        guard live else { return .end }
        while true {
            if stream.avail_in == 0 && !inputEnded {
                var n = 0
                repeat { n = systemRead(fd, input, Self.inputSize) } while n < 0 && errno == EINTR
                if n < 0 { throw .system(errno) }
                if n == 0 {
                    inputEnded = true
                } else {
                    fileBytesRead += Int64(n)
                    stream.next_in = input
                    stream.avail_in = UInt32(n)
                }
            }
            if streamEnded {
                if stream.avail_in == 0 && inputEnded { return .end }
                if stream.avail_in == 0 { continue }
                // Another stream follows (pbzip2 and lbzip2 write one per block group).
                let pending = (stream.next_in, stream.avail_in)
                BZ2_bzDecompressEnd(&stream)
                stream = bz_stream()
                guard BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK else {
                    live = false
                    throw .corrupt("could not start the next stream")
                }
                (stream.next_in, stream.avail_in) = pending
                streamEnded = false
            }
            stream.next_out = buffer.assumingMemoryBound(to: CChar.self)
            stream.avail_out = UInt32(capacity)
            let code = BZ2_bzDecompress(&stream)
            let produced = capacity - Int(stream.avail_out)
            switch code {
            case BZ_OK:
                if produced > 0 { return .bytes(produced) }
                if inputEnded && stream.avail_in == 0 { throw .corrupt("the file ends inside a compressed stream") }
            case BZ_STREAM_END:
                streamEnded = true
                streamsDone += 1
                if produced > 0 { return .bytes(produced) }
            case BZ_DATA_ERROR_MAGIC:
                throw .corrupt(streamsDone > 0 ? "bytes after the last stream are not bzip2" : "not bzip2 data")
            case BZ_DATA_ERROR: throw .corrupt("damaged data (a block's checksum or structure is wrong)")
            case BZ_MEM_ERROR: throw .corrupt("out of memory")
            default: throw .corrupt("error \(code)")
            }
        }
    }
}
