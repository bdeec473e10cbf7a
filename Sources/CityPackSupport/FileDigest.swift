import Crypto
import Foundation

/// SHA-256 as CityPack writes it everywhere (manifests, catalogs, key ids, baseline fingerprints): lowercase
/// hex of swift-crypto's digest. Also the size and digest of a whole file, read in chunks.
public struct FileDigest: Sendable, Equatable {
    /// Size in bytes.
    public var bytes: Int
    /// SHA-256, lowercase hex (64 digits).
    public var sha256: String

    /// A digest with known values (e.g. the combined digest of a folder's files).
    public init(bytes: Int, sha256: String) {
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// Why a file could not be hashed.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// The `errno` of the failure (`ENOENT` for a missing file).
        public var code: Int32
        /// True when the file could not be opened, false when reading it failed.
        public var opening: Bool

        /// `strerror` of ``code``.
        public var message: String { String(cString: strerror(code)) }

        /// `PATH: cannot open|read: MESSAGE`.
        public var description: String { "\(path): cannot \(opening ? "open" : "read"): \(message)" }
    }

    /// Reads a whole file and hashes it.
    /// - Parameter path: The file.
    /// - Throws: ``ReadError`` when the file cannot be opened or read.
    public init(path: String) throws(ReadError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ReadError(path: path, code: errno, opening: true) }
        defer { close(fd) }
        let chunk = 256 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var total = 0
        while true {
            let n = read(fd, buffer.baseAddress, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(path: path, code: errno, opening: false)
            }
            if n == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            total += n
        }
        bytes = total
        sha256 = Self.hex(hasher.finalize())
    }

    /// SHA-256 of bytes in memory, lowercase hex.
    public static func sha256(of data: some DataProtocol) -> String {
        hex(SHA256.hash(data: data))
    }

    /// SHA-256 of bytes in memory, the 32 raw bytes.
    public static func sha256Bytes(of data: some DataProtocol) -> [UInt8] {
        Array(SHA256.hash(data: data))
    }

    /// Lowercase hex of digest bytes (e.g. of a `SHA256` hasher fed while streaming).
    public static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A file's ``FileDigest`` computed from bytes another reader reads anyway (a PBF parse), so the file is read once:
/// the bytes must come in file order from offset 0 without gaps; anything else leaves ``digest`` nil.
package struct StreamingFileDigest {
    private var hasher = SHA256()
    /// Bytes hashed so far: the next byte expected is at this file offset.
    package private(set) var count: Int64 = 0
    /// False once a read skipped or repeated bytes.
    package private(set) var contiguous = true

    package init() {}

    /// Feeds `bytes`, read at file offset `offset`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer, at offset: Int64) {
        guard contiguous, !bytes.isEmpty else { return }
        guard offset == count else {
            contiguous = false
            return
        }
        hasher.update(bufferPointer: bytes)
        count += Int64(bytes.count)
    }

    /// Marks the stream as broken (a read stepped over bytes).
    package mutating func skipped() { contiguous = false }

    /// The digest when exactly the first `fileSize` bytes were fed, in order; else nil.
    package func digest(fileSize: Int64) -> FileDigest? {
        guard contiguous, count == fileSize else { return nil }
        return FileDigest(bytes: Int(count), sha256: FileDigest.hex(hasher.finalize()))
    }
}
