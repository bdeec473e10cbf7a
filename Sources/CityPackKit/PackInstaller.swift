import CityPackFormat
import CityPackStorage
import CityPackSupport
import Foundation

/// Updates an installed pack in place with a delta (``CityPackFormat/PackDelta``), all or nothing.
///
/// The installed pack is the decompressed SQLite database of a release (what ``PackReader/open(_:options:)``
/// opens without a temporary copy; `PackOpener.decompress` writes it from a downloaded `.citypack.gz`).
/// Stateless and thread-safe; the caller must not write the installed file concurrently. Holds the base, the
/// decompressed delta and the result in memory at once (about three times the database: a few MB for a city).
package enum PackInstaller {
    /// Applies a delta to the installed database and replaces it atomically with the result.
    ///
    /// Checks, in order, before anything is written: the delta file's size and SHA-256 against `expected`
    /// (a damaged or truncated download), the installed file's size and SHA-256 against `expected.baseSha256`
    /// (a wrong base: another version, or a locally changed file), the delta's header against both, every op
    /// against the base's and result's bounds, and the result's size and SHA-256 against `expected.resultSha256`.
    /// Only then is the result written beside the installed file under a hidden temporary name, flushed and
    /// renamed over it; on any failure the installed file is left exactly as it was.
    /// - Parameters:
    ///   - installedPack: The installed decompressed database of data version `expected.from`.
    ///   - delta: The downloaded `.delta` file.
    ///   - expected: The delta's entry from the (verified) manifest or catalog of the new version.
    ///   - maxBytes: Refuse results larger than this (default 4 GiB).
    /// - Returns: Size and SHA-256 of the new installed database (`expected.resultSha256`).
    /// - Throws: `PackError.hashMismatch` / `.sizeMismatch` (`.compressed` for the delta file, `.uncompressed`
    ///   for the base or the result), `.corruptCompressedData` for a damaged delta stream, `.fileNotFound`, `.io`.
    @discardableResult
    package static func applyDelta(installedPack: URL, delta: URL, expected: Manifest.Delta, maxBytes: Int = 4 << 30)
        throws(PackError) -> FileDigest
    {
        let basePath = installedPack.path
        let result = try deltaResult(installedPack: installedPack, delta: delta, expected: expected, maxBytes: maxBytes)
        // 4. Atomic replace.
        let temporary = AtomicFile.temporaryPath(for: basePath)
        try writeFlushed(result.bytes, to: temporary)
        do { try PackFiles.replace(temporary, with: basePath) } catch {
            unlink(temporary)
            throw error
        }
        return FileDigest(bytes: result.bytes.count, sha256: result.sha256)
    }

    /// Steps 1–3 of ``applyDelta(installedPack:delta:expected:maxBytes:)``: every check, and the new database's
    /// bytes, without writing anything.
    /// - Returns: The result database and its SHA-256 (equal to `expected.resultSha256`).
    /// - Throws: As ``applyDelta(installedPack:delta:expected:maxBytes:)``.
    static func deltaResult(installedPack: URL, delta: URL, expected: Manifest.Delta, maxBytes: Int = 4 << 30)
        throws(PackError) -> (bytes: [UInt8], sha256: String)
    {
        let deltaPath = delta.path
        let basePath = installedPack.path
        guard expected.resultBytes >= 0, expected.resultBytes <= maxBytes else {
            throw PackError.sizeMismatch(.uncompressed, expected: maxBytes, actual: expected.resultBytes)
        }
        // 1. The delta file as downloaded.
        let deltaData = try read(deltaPath)
        guard deltaData.count == expected.bytes else {
            throw PackError.sizeMismatch(.compressed, expected: expected.bytes, actual: deltaData.count)
        }
        let deltaHash = FileDigest.sha256(of: deltaData)
        guard deltaHash == expected.sha256 else {
            throw PackError.hashMismatch(.compressed, expected: expected.sha256, actual: deltaHash)
        }
        // 2. The installed base.
        let base = try read(basePath)
        let baseHash = FileDigest.sha256(of: base)
        guard base.count == expected.baseBytes, baseHash == expected.baseSha256 else {
            throw PackError.hashMismatch(.uncompressed, expected: expected.baseSha256, actual: baseHash)
        }
        // 3. Decompress (bounded) and apply.
        let stream = try inflate(
            deltaData, limit: PackDelta.maxStreamBytes(targetBytes: expected.resultBytes), path: deltaPath)
        let result = try apply(stream, base: base, expected: expected, path: deltaPath)
        let resultHash = FileDigest.sha256(of: result)
        guard result.count == expected.resultBytes, resultHash == expected.resultSha256 else {
            throw PackError.hashMismatch(.uncompressed, expected: expected.resultSha256, actual: resultHash)
        }
        return (result, resultHash)
    }

    /// Runs the ops of a decompressed delta stream over `base`; every offset and length is checked before use.
    package static func apply(_ stream: [UInt8], base: [UInt8], expected: Manifest.Delta, path: String) throws(PackError) -> [UInt8] {
        func bad(_ message: String) -> PackError { .corruptCompressedData(path: path, message: "delta: \(message)") }
        guard stream.count > PackDelta.headerBytes, Array(stream[0..<8]) == PackDelta.magic else {
            throw bad("not a CityPack delta")
        }
        var position = 8
        func uint64() -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(stream[position + k]) << UInt64(8 * k) }
            position += 8
            return v
        }
        let baseBytes = uint64()
        let baseSha = FileDigest.hex(stream[position..<(position + 32)])
        position += 32
        let targetBytes = uint64()
        let targetSha = FileDigest.hex(stream[position..<(position + 32)])
        position += 32
        guard baseBytes == UInt64(base.count), baseSha == expected.baseSha256 else {
            throw bad("its header names another base than the manifest")
        }
        guard targetBytes == UInt64(expected.resultBytes), targetSha == expected.resultSha256 else {
            throw bad("its header names another result than the manifest")
        }
        func varint() throws(PackError) -> Int {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < stream.count else { throw bad("truncated op") }
                let byte = stream[position]
                position += 1
                guard shift < 63 else { throw bad("oversized number") }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            guard value <= UInt64(Int.max / 2) else { throw bad("oversized number") }
            return Int(value)
        }
        let total = Int(targetBytes)
        var out: [UInt8] = []
        out.reserveCapacity(total)
        while true {
            guard position < stream.count else { throw bad("missing end op") }
            let tag = stream[position]
            position += 1
            switch PackDelta.Op(rawValue: tag) {
            case .end:
                guard position == stream.count else { throw bad("bytes after the end op") }
                guard out.count == total else { throw bad("result has \(out.count) bytes, header says \(total)") }
                return out
            case .copy:
                let offset = try varint()
                let length = try varint()
                guard length > 0, offset <= base.count, length <= base.count - offset, length <= total - out.count
                else { throw bad("copy outside the base or past the result's size") }
                out.append(contentsOf: base[offset..<(offset + length)])
            case .insert:
                let length = try varint()
                guard length > 0, length <= stream.count - position, length <= total - out.count else {
                    throw bad("insert past the stream's or result's end")
                }
                out.append(contentsOf: stream[position..<(position + length)])
                position += length
            case nil:
                throw bad("unknown op \(tag)")
            }
        }
    }

    /// Inflates a gzip stream held in memory, refusing more than `limit` output bytes.
    static func inflate(_ data: [UInt8], limit: Int, path: String) throws(PackError) -> [UInt8] {
        do throws(GunzipError) {
            return try Gunzip.inflate(data, limit: limit)
        } catch {
            let message =
                switch error {
                case .initialisation: "zlib initialisation failed"
                case .tooLarge(let limit): "delta decompresses to more than \(limit) bytes"
                case .trailingBytes: "trailing bytes after the delta"
                case .damaged(let message, let code): message ?? "damaged or truncated delta (zlib \(code))"
                }
            throw PackError.corruptCompressedData(path: path, message: message)
        }
    }

    private static func read(_ path: String) throws(PackError) -> [UInt8] {
        let fd = try PackFiles.openForReading(path)
        defer { close(fd) }
        var out: [UInt8] = []
        let chunk = 256 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, chunk) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PackError.io(path: path, message: PackFiles.errnoMessage())
            }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    static func writeFlushed(_ bytes: [UInt8], to path: String) throws(PackError) {
        do { try AtomicFile.writeNew(bytes, to: path, mode: 0o600) } catch {
            throw PackError.io(path: path, message: error.message)
        }
    }
}
