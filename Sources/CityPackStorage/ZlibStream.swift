import CCityPackZlib

/// Which wrapper a deflate stream has: zlib's window bits (15) plus 16 for gzip, negated for raw deflate.
package enum ZlibFraming: Sendable {
    /// RFC 1952 gzip: packs, deltas, `.osm.gz`.
    case gzip
    /// RFC 1950 zlib: PBF blobs.
    case zlib
    /// RFC 1951 raw deflate: zip entries.
    case raw

    var windowBits: Int32 {
        switch self {
        case .gzip: 15 + 16
        case .zlib: 15
        case .raw: -15
        }
    }
}

/// What one call of zlib did (``ZlibStream/run(into:finish:)``).
package enum ZlibResult: Sendable, Equatable {
    /// Progress was made; more input or output room may follow (`Z_OK`).
    case progress
    /// The stream is complete (`Z_STREAM_END`).
    case end
    /// No progress was possible: the input ran out or there was no room for output (`Z_BUF_ERROR`).
    case stalled
    /// zlib refused the stream (damaged data, or misuse): its return code.
    case failed(code: Int32)

    /// zlib's return code.
    package var code: Int32 {
        switch self {
        case .progress: Z_OK
        case .end: Z_STREAM_END
        case .stalled: Z_BUF_ERROR
        case .failed(let code): code
        }
    }
}

/// zlib could not set a stream up (out of memory, a bad parameter), or an in-memory deflate did not finish.
package struct ZlibError: Error, Sendable, Equatable {
    /// zlib's return code.
    package var code: Int32
}

/// One zlib stream, inflating or deflating: the only place the project sets up a `z_stream`.
///
/// The stream keeps zlib's state at a stable address (zlib points back into it), so an instance can be reused:
/// ``reset()`` starts the next stream (the next gzip member) without a new set-up. The caller drives it the way
/// zlib is driven — ``setInput(_:count:)``, then ``run(into:finish:)`` until the input is taken and the output
/// room is not filled — which keeps each caller's chunking, and so its output bytes, exactly as chosen.
///
/// A gzip deflater writes a deterministic header: no file name, no modification time, OS byte 255 ("unknown"), so
/// the same input always gives the same bytes.
package final class ZlibStream {
    private let stream: UnsafeMutablePointer<z_stream>
    private let header: UnsafeMutablePointer<gz_header>?
    private let inflating: Bool

    /// A stream that decompresses `framing`.
    package init(inflating framing: ZlibFraming) throws(ZlibError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        header = nil
        inflating = true
        let rc = citypack_inflateInit2(stream, framing.windowBits)
        guard rc == Z_OK else {
            stream.deallocate()
            throw ZlibError(code: rc)
        }
    }

    /// A stream that compresses into `framing` at `level` (0…9) with zlib's default strategy.
    /// - Parameter memLevel: zlib's memory level, 8 (its default) unless a caller wants otherwise.
    package init(deflating framing: ZlibFraming, level: Int32, memLevel: Int32 = 8) throws(ZlibError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        inflating = false
        var rc = citypack_deflateInit2(stream, level, framing.windowBits, memLevel)
        if rc == Z_OK && framing == .gzip {
            // zlib reads the header when it writes the first bytes: it lives as long as the stream.
            let h = UnsafeMutablePointer<gz_header>.allocate(capacity: 1)
            h.initialize(to: gz_header())
            h.pointee.os = 255
            header = h
            rc = deflateSetHeader(stream, h)
            if rc != Z_OK { deflateEnd(stream) }
        } else {
            header = nil
        }
        guard rc == Z_OK else {
            stream.deallocate()
            header?.deallocate()
            throw ZlibError(code: rc)
        }
    }

    deinit {
        if inflating { inflateEnd(stream) } else { deflateEnd(stream) }
        stream.deallocate()
        header?.deallocate()
    }

    /// Hands zlib its next input. The bytes must stay valid until ``availableInput`` is 0 or the next call.
    package func setInput(_ bytes: UnsafeRawPointer?, count: Int) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(count)
    }

    /// Input bytes zlib has not taken yet.
    package var availableInput: Int { Int(stream.pointee.avail_in) }

    /// Output bytes produced since the set-up (or the last ``reset()``).
    package var totalOut: Int { Int(stream.pointee.total_out) }

    /// zlib's message about the last failure, when it has one.
    package var message: String? { stream.pointee.msg.map { String(cString: $0) } }

    /// Runs zlib once, writing into `output`.
    /// - Parameter finish: `Z_FINISH` (all input is given; end the stream) rather than `Z_NO_FLUSH`.
    /// - Returns: What zlib did, and how many bytes it wrote at the start of `output`.
    package func run(into output: UnsafeMutableRawBufferPointer, finish: Bool) -> (result: ZlibResult, produced: Int) {
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(output.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        let rc = inflating ? CCityPackZlib.inflate(stream, flush) : CCityPackZlib.deflate(stream, flush)
        let produced = output.count - Int(stream.pointee.avail_out)
        switch rc {
        case Z_OK: return (.progress, produced)
        case Z_STREAM_END: return (.end, produced)
        case Z_BUF_ERROR: return (.stalled, produced)
        default: return (.failed(code: rc), produced)
        }
    }

    /// Starts the next stream with the same settings (the next member of a concatenated gzip file).
    package func reset() {
        if inflating { inflateReset(stream) } else { deflateReset(stream) }
    }

    /// `bytes` compressed whole into `framing` at `level`, in memory.
    package static func deflated(_ bytes: [UInt8], into framing: ZlibFraming, level: Int32) throws(ZlibError)
        -> [UInt8]
    {
        let z = try ZlibStream(deflating: framing, level: level)
        // deflateBound is what one Z_FINISH call can need; the margin covers the gzip header.
        var out = [UInt8](repeating: 0, count: Int(deflateBound(z.stream, UInt(bytes.count))) + 64)
        let result = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                z.setInput(input.baseAddress, count: input.count)
                return z.run(into: output, finish: true).result
            }
        }
        guard result == .end else { throw ZlibError(code: result.code) }
        out.removeSubrange(z.totalOut...)
        return out
    }

    /// `bytes` as raw deflate blocks at `level`, from a fresh stream and ending with a sync flush (an empty stored
    /// block, byte-aligned, not final): chunks made this way, concatenated and followed by a final empty block,
    /// form one deflate stream, and each chunk's bytes depend on that chunk's input alone (pigz's independent
    /// blocks), so an unchanged chunk can be reused and chunks can be compressed in parallel.
    package static func deflatedChunk(_ bytes: UnsafeRawBufferPointer, level: Int32) throws(ZlibError) -> [UInt8] {
        let z = try ZlibStream(deflating: .raw, level: level)
        // deflateBound covers the blocks; the sync flush adds at most a few bytes (an empty stored block).
        let capacity = Int(deflateBound(z.stream, UInt(bytes.count))) + 16
        var rc: Int32 = Z_OK
        let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            z.stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            z.stream.pointee.avail_in = UInt32(bytes.count)
            z.stream.pointee.next_out = buffer.baseAddress
            z.stream.pointee.avail_out = UInt32(capacity)
            rc = CCityPackZlib.deflate(z.stream, Z_SYNC_FLUSH)
            initialized = capacity - Int(z.stream.pointee.avail_out)
        }
        // All input taken and room left over: the flush is complete.
        guard rc == Z_OK, z.stream.pointee.avail_in == 0, z.stream.pointee.avail_out > 0 else {
            throw ZlibError(code: rc == Z_OK ? Z_BUF_ERROR : rc)
        }
        return out
    }

    /// zlib's CRC-32 of `bytes` (the gzip trailer's checksum).
    package static func crc32(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CCityPackZlib.crc32(0, nil, 0)
        var offset = 0
        // zlib takes a 32-bit length.
        while offset < bytes.count {
            let n = min(bytes.count - offset, 1 << 30)
            crc = CCityPackZlib.crc32(crc, bytes.baseAddress!.assumingMemoryBound(to: Bytef.self) + offset, uInt(n))
            offset += n
        }
        return UInt32(crc)
    }
}
