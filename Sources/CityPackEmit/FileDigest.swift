import Crypto
import Foundation

/// SHA-256 and size of a file, read in 1 MiB chunks.
public struct FileDigest: Sendable, Equatable {
    public var bytes: Int
    /// Lowercase hex.
    public var sha256: String

    public init(bytes: Int, sha256: String) {
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// SHA-256 of bytes in memory, lowercase hex.
    public static func sha256(of data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    public init(path: String) throws(EmitError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .io(path: path, message: "cannot open for hashing")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var total = 0
        while true {
            let data: Data
            do { data = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw .io(path: path, message: "read failed: \(error)")
            }
            if data.isEmpty { break }
            total += data.count
            hasher.update(data: data)
        }
        self.bytes = total
        self.sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
