import CCityPackZlib
import CityPackFormat
import Foundation

/// Deterministic gzip: no file name, no timestamp, OS byte 255 ("unknown"), level 6 by default (packs and deltas
/// use 9: about 1.3 % smaller packs for a few milliseconds per MB at pack sizes).
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

        var stream = z_stream()
        // windowBits 15 + 16 = gzip wrapper; memLevel 8 is zlib's default.
        guard citypack_deflateInit2(&stream, level, 15 + 16, 8) == Z_OK else {
            throw .compression(path: destination, message: "deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var header = gz_header()
        header.os = 255
        guard deflateSetHeader(&stream, &header) == Z_OK else {
            throw .compression(path: destination, message: "deflateSetHeader failed")
        }

        let chunk = 1 << 20
        let inBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        let outBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer {
            inBuffer.deallocate()
            outBuffer.deallocate()
        }
        var finished = false
        while !finished {
            let n = fread(inBuffer, 1, chunk, input)
            if ferror(input) != 0 { throw .io(path: source, message: "read failed") }
            let flush = n < chunk ? Z_FINISH : Z_NO_FLUSH
            stream.next_in = inBuffer
            stream.avail_in = UInt32(n)
            repeat {
                stream.next_out = outBuffer
                stream.avail_out = UInt32(chunk)
                let rc = deflate(&stream, flush)
                if rc == Z_STREAM_ERROR { throw .compression(path: destination, message: "deflate failed") }
                let produced = chunk - Int(stream.avail_out)
                if produced > 0 && fwrite(outBuffer, 1, produced, output) != produced {
                    throw .io(path: destination, message: "write failed: \(errnoText())")
                }
                if rc == Z_STREAM_END { finished = true }
            } while stream.avail_out == 0
            if flush == Z_FINISH && !finished {
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
        var stream = z_stream()
        guard citypack_deflateInit2(&stream, level, 15 + 16, 8) == Z_OK else {
            throw .compression(path: "(memory)", message: "deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        var header = gz_header()
        header.os = 255
        guard deflateSetHeader(&stream, &header) == Z_OK else {
            throw .compression(path: "(memory)", message: "deflateSetHeader failed")
        }
        let bound = Int(deflateBound(&stream, UInt(bytes.count))) + 64
        var out = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let rc = input.withUnsafeMutableBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { outp in
                stream.next_in = inp.baseAddress
                stream.avail_in = UInt32(inp.count)
                stream.next_out = outp.baseAddress
                stream.avail_out = UInt32(outp.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard rc == Z_STREAM_END else { throw .compression(path: "(memory)", message: "deflate did not finish") }
        out.removeSubrange(Int(stream.total_out)...)
        return out
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
