import CCityPackDeflate
import CityPackStorage
import Foundation

/// Deterministic gzip: no file name, no timestamp, OS byte 255 ("unknown"). Packs, deltas and web files are made
/// whole in memory by libdeflate (``compress(bytes:level:)``, ``compressFile(_:to:level:)``).
enum Gzip {
    /// libdeflate's level for packs and deltas. Measured on 28 Nov 2026 against zlib's level 9, which the emitter
    /// used before: Milan's pack with the ATM feed (1.9 MB database) 294 675 bytes in 22 ms against 296 329 in
    /// 158 ms; OSM-only Milan (270 KB) 106 737 bytes in 8 ms against 106 253 in 39 ms.
    static let packLevel: Int32 = 7
    /// libdeflate's level for the web flavour's JSON files: Milan's 393 files, 587 162 bytes in 84 ms against
    /// 594 088 in about 400 ms with zlib's level 9 (each file on its own).
    static let webLevel: Int32 = 6

    /// `bytes` as one gzip member (libdeflate, whole buffer; deterministic for a level and library version: no
    /// name, no timestamp, OS byte 255).
    static func compress(bytes: [UInt8], level: Int32) throws(EmitError) -> [UInt8] {
        guard let gz = bytes.withUnsafeBytes({ compress($0, level: level) }) else {
            throw .compression(path: "(memory)", message: "libdeflate could not compress at level \(level)")
        }
        return gz
    }

    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let written = out.withUnsafeMutableBytes { o in
            libdeflate_gzip_compress(compressor, bytes.baseAddress, bytes.count, o.baseAddress, o.count)
        }
        guard written > 0 else { return nil }
        out.removeLast(bound - written)
        return out
    }

    /// Compresses the file at `source` into `destination` (created or replaced) as one gzip member.
    static func compressFile(_ source: String, to destination: String, level: Int32) throws(EmitError) {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw .io(path: source, message: "cannot read: \(errnoText())")
        }
        guard let gz = data.withUnsafeBytes({ compress($0, level: level) }) else {
            throw .compression(path: destination, message: "libdeflate could not compress at level \(level)")
        }
        try OutputFiles.write(Data(gz), to: destination)
    }

    /// Decompresses a gzip file (a pack this tool wrote) into memory, refusing more than `limit` bytes.
    static func decompress(_ path: String, limit: Int) throws(EmitError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, message: "cannot read: \(errnoText())")
        }
        do throws(GunzipError) {
            return try Gunzip.inflate([UInt8](data), limit: limit)
        } catch {
            throw .compression(path: path, message: "damaged gzip stream (\(error))")
        }
    }
}

/// The current `errno` as text with its symbolic name when known: `No space left on device (ENOSPC)`.
func errnoText() -> String {
    let code = errno
    let text = String(cString: strerror(code))
    return OutputFiles.errnoName(code).map { "\(text) (\($0))" } ?? text
}
