import CityPackStorage
import Foundation

/// Deterministic gzip: no file name, no timestamp, OS byte 255 ("unknown"), level 6 by default (packs and deltas
/// use 9: about 1.3 % smaller packs for a few milliseconds per MB at pack sizes). ``ZlibStream`` writes that header.
enum Gzip {
    /// Compresses `source` into `destination` in 1 MiB chunks.
    static func compress(_ source: String, to destination: String, level: Int32 = 6) throws(EmitError) {
        guard let input = fopen(source, "rb") else { throw .io(path: source, message: "cannot open: \(errnoText())") }
        defer { fclose(input) }
        guard let output = fopen(destination, "wb") else {
            throw .io(path: destination, message: "cannot create: \(errnoText())")
        }
        var closed = false
        defer { if !closed { fclose(output) } }

        let stream: ZlibStream
        do { stream = try ZlibStream(deflating: .gzip, level: level) } catch {
            throw .compression(path: destination, message: "deflateInit2 failed")
        }

        let chunk = 1 << 20
        let inBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        let outBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer {
            inBuffer.deallocate()
            outBuffer.deallocate()
        }
        var finished = false
        while !finished {
            let n = fread(inBuffer.baseAddress, 1, chunk, input)
            if ferror(input) != 0 { throw .io(path: source, message: "read failed") }
            let last = n < chunk
            stream.setInput(inBuffer.baseAddress, count: n)
            var produced = 0
            repeat {
                let result: ZlibResult
                (result, produced) = stream.run(into: outBuffer, finish: last)
                if case .failed = result { throw .compression(path: destination, message: "deflate failed") }
                if produced > 0 && fwrite(outBuffer.baseAddress, 1, produced, output) != produced {
                    throw .io(path: destination, message: "write failed: \(errnoText())")
                }
                if result == .end { finished = true }
            } while produced == chunk
            if last && !finished {
                throw .compression(path: destination, message: "deflate did not finish")
            }
        }
        closed = true
        if fclose(output) != 0 { throw .io(path: destination, message: "close failed: \(errnoText())") }
    }
}

/// The current `errno` as text with its symbolic name when known: `No space left on device (ENOSPC)`.
func errnoText() -> String {
    let code = errno
    let text = String(cString: strerror(code))
    return OutputFiles.errnoName(code).map { "\(text) (\($0))" } ?? text
}

extension Gzip {
    /// Deterministic gzip of bytes in memory (same header as ``compress(_:to:level:)``).
    static func compress(bytes: [UInt8], level: Int32 = 9) throws(EmitError) -> [UInt8] {
        do throws(ZlibError) {
            return try ZlibStream.deflated(bytes, into: .gzip, level: level)
        } catch {
            throw .compression(path: "(memory)", message: "deflate did not finish (zlib \(error.code))")
        }
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
