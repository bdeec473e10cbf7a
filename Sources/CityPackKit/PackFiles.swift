import CityPackStorage
import CityPackSupport
import Crypto
import Foundation

/// File-level work on packs: sniffing, hashing and streaming gzip decompression. Stateless.
enum PackFiles {
    /// What the first bytes of a file say it is.
    enum Kind {
        case gzip
        case sqlite
        case other
    }

    /// Sizes and SHA-256 (lowercase hex) of a decompression's input and output.
    struct Digests {
        var compressedBytes = 0
        var compressedSHA256 = ""
        var uncompressedBytes = 0
        var uncompressedSHA256 = ""
    }

    static let chunkSize = 256 * 1024

    static func kind(ofFileAt path: String) throws(PackError) -> Kind {
        let fd = try openForReading(path)
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        let n = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        if n >= 2 && header[0] == 0x1F && header[1] == 0x8B { return .gzip }
        if n == 16 && header == Array("SQLite format 3\0".utf8) { return .sqlite }
        return .other
    }

    /// SHA-256 and size of a whole file.
    /// - Throws: `PackError.fileNotFound`, or `.io` with the errno's text.
    static func digest(ofFileAt path: String) throws(PackError) -> FileDigest {
        do { return try FileDigest(path: path) } catch {
            if error.opening && error.code == ENOENT { throw PackError.fileNotFound(path: path) }
            throw PackError.io(path: path, message: error.message)
        }
    }

    /// Streams a gzip file (RFC 1952; concatenated members allowed) into `destination`, hashing both sides.
    /// - Parameters:
    ///   - source: The `.citypack.gz` path.
    ///   - destination: The file to create (replaced if present), mode 0600.
    ///   - maxBytes: Abort when the output would exceed this many bytes.
    /// - Throws: `PackError.corruptCompressedData` for damaged, truncated or oversized streams, `.io` for I/O.
    ///   On error the destination is removed.
    static func inflate(gzip source: String, to destination: String, maxBytes: Int) throws(PackError) -> Digests {
        let input = try openForReading(source)
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard output >= 0 else { throw PackError.io(path: destination, message: errnoMessage()) }
        var completed = false
        defer {
            close(output)
            if !completed { unlink(destination) }
        }

        let reader: GzipReader
        do { reader = try GzipReader(fd: input, bufferSize: chunkSize, strict: true) } catch {
            throw PackError.corruptCompressedData(path: source, message: "zlib initialisation failed")
        }
        let outBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { outBuffer.deallocate() }
        var inHash = SHA256()
        var outHash = SHA256()
        var digests = Digests()
        reader.inputObserver = { chunk in
            inHash.update(bufferPointer: chunk)
            digests.compressedBytes += chunk.count
        }
        while true {
            let produced: Int
            do throws(GzipReader.Failure) { produced = try reader.read(into: outBuffer, capacity: chunkSize) } catch {
                switch error {
                case .system(let code): throw PackError.io(path: source, message: String(cString: strerror(code)))
                case .corrupt(let message): throw PackError.corruptCompressedData(path: source, message: message)
                }
            }
            if produced == 0 { break }
            digests.uncompressedBytes += produced
            if digests.uncompressedBytes > maxBytes {
                throw PackError.corruptCompressedData(path: source, message: "decompresses to more than \(maxBytes) bytes")
            }
            outHash.update(bufferPointer: UnsafeRawBufferPointer(start: outBuffer, count: produced))
            try writeAll(output, outBuffer, produced, path: destination)
        }
        digests.compressedSHA256 = FileDigest.hex(inHash.finalize())
        digests.uncompressedSHA256 = FileDigest.hex(outHash.finalize())
        completed = true
        return digests
    }

    // MARK: - Helpers

    static func openForReading(_ path: String) throws(PackError) -> Int32 {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            if errno == ENOENT { throw PackError.fileNotFound(path: path) }
            throw PackError.io(path: path, message: errnoMessage())
        }
        return fd
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeMutablePointer<UInt8>, _ count: Int, path: String) throws(PackError) {
        var offset = 0
        while offset < count {
            let n = write(fd, bytes + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw PackError.io(path: path, message: errnoMessage())
            }
            offset += n
        }
    }

    static func errnoMessage() -> String { String(cString: strerror(errno)) }

    /// Flushes a file's bytes to the disk (``AtomicFile/flush(_:)``).
    /// - Throws: `PackError.io`.
    static func syncFile(_ path: String) throws(PackError) {
        do { try AtomicFile.flush(path) } catch { throw PackError.io(path: path, message: error.message) }
    }

    /// Flushes a folder's entries (after a rename or unlink in it), as far as the platform allows.
    static func syncDirectory(_ path: String) { AtomicFile.flushFolder(path) }

    /// Renames `source` over `destination` (atomically replacing it) and flushes the destination's folder
    /// (``AtomicFile/replace(_:with:flushFolder:)``).
    /// - Throws: `PackError.io`; `source` is left in place.
    static func replace(_ source: String, with destination: String) throws(PackError) {
        do { try AtomicFile.replace(destination, with: source) } catch {
            throw PackError.io(path: destination, message: error.message)
        }
    }
}
