#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemClose = Darwin.close
#endif
import CCityPackZlib

/// Sequential bytes of an OSM file: `read(2)` for `.osm`, zlib's `gzread` for `.osm.gz`.
final class OSMInputStream {
    private var fd: Int32 = -1
    private var gz: gzFile?
    let path: String
    /// Size of the file on disk.
    let fileSize: Int64

    /// Opens `path`; `.gz` files (by name) are decompressed.
    /// - Throws: ``OSMReadError/cannotOpen(path:reason:)``.
    init(path: String) throws {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw OSMReadError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw OSMReadError.cannotOpen(path: path, reason: "not a regular file")
        }
        fileSize = Int64(st.st_size)
        if path.hasSuffix(".gz") {
            guard let g = gzopen(path, "rb") else {
                throw OSMReadError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            gzbuffer(g, 256 << 10)
            gz = g
        } else {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw OSMReadError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    deinit { close() }

    /// The outcome of one read.
    enum Chunk {
        case bytes(Int)
        case end
        /// The compressed stream is corrupt or truncated; zlib's message.
        case corrupt(String)
    }

    /// Fills up to `capacity` bytes at `buffer`.
    /// - Throws: ``OSMReadError/readFailed(path:reason:)`` on an operating-system read error.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws -> Chunk {
        if let gz {
            let n = gzread(gz, buffer, UInt32(capacity))
            var code: Int32 = 0
            if n > 0 { return .bytes(Int(n)) }
            let message = gzerror(gz, &code).map { String(cString: $0) } ?? "unknown zlib error"
            if code == Z_ERRNO { throw OSMReadError.readFailed(path: path, reason: String(cString: strerror(errno))) }
            if n < 0 || (code != Z_OK && code != Z_STREAM_END) { return .corrupt(message) }
            return .end
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
    var offset: Int64 {
        if let gz { return Int64(gzoffset(gz)) }
        return Int64(lseek(fd, 0, SEEK_CUR))
    }

    func close() {
        if let g = gz {
            gzclose(g)
            gz = nil
        }
        if fd >= 0 {
            _ = systemClose(fd)
            fd = -1
        }
    }
}
