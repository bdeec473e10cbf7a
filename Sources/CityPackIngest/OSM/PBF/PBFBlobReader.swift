#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCityPackDeflate
import CityPackStorage
import CityPackSupport

/// Why an OSM PBF file could not be read; every case names a byte offset in the file (for errors inside a
/// decompressed block: the file offset of that block's header-length prefix, plus the offset in the block).
package enum PBFError: Error, Equatable, Sendable {
    /// The file could not be opened or read (`errno`).
    case io(errno: Int32, offset: Int64)
    /// The file ends inside a blob's framing or data.
    case truncated(offset: Int64)
    /// A BlobHeader length above the 64 KiB limit.
    case blobHeaderTooLarge(length: Int, offset: Int64)
    /// A blob `datasize` above the 32 MiB limit, or negative.
    case blobTooLarge(size: Int64, offset: Int64)
    /// The BlobHeader lacks its `type` or `datasize`.
    case missingBlobHeaderField(String, offset: Int64)
    /// A blob compressed with something other than zlib (lzma, lz4, zstd, bzip2, unknown), or holding no data.
    case unsupportedBlobKind(String, offset: Int64)
    /// A zlib blob whose `raw_size` is missing, above 32 MiB, or not what the data inflates to.
    case rawSizeMismatch(declared: Int64, offset: Int64)
    /// A zlib blob whose data is corrupt.
    case inflateFailed(String, offset: Int64)
    /// A protobuf message in the blob at `blobOffset` is malformed.
    case malformed(ProtobufError, blobOffset: Int64)
    /// A string-table index beyond the table of the block at `blobOffset`.
    case stringIndexOutOfRange(index: Int64, count: Int, blobOffset: Int64)
    /// Parallel arrays (dense ids/lats/lons, keys/vals, roles/memids/types) of different lengths, or a dangling
    /// dense tag run.
    case inconsistentArrays(String, blobOffset: Int64)
    /// A coordinate that leaves `Int64` nanodegrees.
    case coordinateOverflow(blobOffset: Int64)
    /// A relation member type other than node, way, relation.
    case invalidMemberType(Int64, blobOffset: Int64)
    /// The OSMHeader requires a feature this reader does not have.
    case unsupportedRequiredFeature(String, blobOffset: Int64)
}

/// One blob of a PBF file, inflated.
package struct PBFBlob: Sendable {
    /// The BlobHeader `type` ("OSMHeader", "OSMData", or something a reader should skip).
    package var type: String
    /// File offset of the 4-byte header length that starts this blob.
    package var offset: Int64
    /// The blob's content (a HeaderBlock or PrimitiveBlock), uncompressed.
    package var data: [UInt8]
}

/// One blob of a PBF file as stored: its Blob message, not yet inflated.
package struct PBFRawBlob: Sendable {
    package var type: String
    /// File offset of the 4-byte header length that starts this blob.
    package var offset: Int64
    /// The Blob message.
    package var bytes: [UInt8]
}

/// Reads the blobs of an OSM PBF file one at a time, with `pread`, never holding more than one blob.
///
/// The framing is a 4-byte big-endian BlobHeader length, the BlobHeader, then `datasize` bytes of Blob.
package final class PBFBlobReader {
    /// Largest BlobHeader accepted (the format's own limit).
    package static let maxBlobHeaderSize = 64 * 1024
    /// Largest Blob, compressed or inflated, accepted (the format's own limit).
    package static let maxBlobSize = 32 * 1024 * 1024

    /// The open file.
    private let fd: Int32
    /// File offset of the next blob.
    package private(set) var offset: Int64 = 0
    /// The file's SHA-256, computed from the bytes the reader reads (nil when not asked for): complete when every
    /// blob was read with its data from the start to the end of the file.
    package var digest: StreamingFileDigest?

    /// Opens `path` for reading.
    package init(path: String) throws(PBFError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io(errno: errno, offset: 0) }
        self.fd = fd
    }

    /// Closes the file.
    deinit { close(fd) }

    /// Reads exactly `count` bytes at `at`; returns how many could be read before the end of the file.
    private func read(_ count: Int, at: Int64, into bytes: inout [UInt8]) throws(PBFError) -> Int {
        var failure: Int32?
        // Uninitialized: `pread` writes every byte kept (zero-filling first touched each page twice).
        bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(at) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw .io(errno: failure, offset: at + Int64(bytes.count)) }
        if digest != nil { bytes.withUnsafeBytes { digest!.update($0, at: at) } }
        return bytes.count
    }

    /// Reads exactly `count` bytes at `at` or throws ``PBFError/truncated(offset:)`` at the end of the file.
    private func readExactly(_ count: Int, at: Int64) throws(PBFError) -> [UInt8] {
        var bytes: [UInt8] = []
        let got = try read(count, at: at, into: &bytes)
        guard got == count else { throw .truncated(offset: at + Int64(got)) }
        return bytes
    }

    /// The next blob, inflated, or `nil` at a clean end of file.
    package func next() throws(PBFError) -> PBFBlob? {
        guard let raw = try nextRaw() else { return nil }
        return PBFBlob(type: raw.type, offset: raw.offset, data: try Self.decodeBlob(raw.bytes, blobOffset: raw.offset))
    }

    /// The next blob as stored (still compressed), or `nil` at a clean end of file: the framing is checked here,
    /// the content by ``decodeBlob(_:blobOffset:)``, which may run on another thread.
    package func nextRaw() throws(PBFError) -> PBFRawBlob? { try nextRaw(readingData: true) }

    /// The next blob's framing, its data read only when `readingData` (else `bytes` is empty and the data is
    /// stepped over), or `nil` at a clean end of file.
    package func nextRaw(readingData: Bool) throws(PBFError) -> PBFRawBlob? {
        let start = offset
        var prefix: [UInt8] = []
        let got = try read(4, at: start, into: &prefix)
        if got == 0 { return nil }
        guard got == 4 else { throw .truncated(offset: start + Int64(got)) }
        let headerLength = prefix.reduce(0) { $0 << 8 | Int($1) }
        guard headerLength <= Self.maxBlobHeaderSize else {
            throw .blobHeaderTooLarge(length: headerLength, offset: start)
        }
        let headerBytes = try readExactly(headerLength, at: start + 4)
        let (type, dataSize) = try Self.parseBlobHeader(headerBytes, blobOffset: start)
        guard dataSize >= 0, dataSize <= Int64(Self.maxBlobSize) else {
            throw .blobTooLarge(size: dataSize, offset: start)
        }
        let blobBytes = readingData ? try readExactly(Int(dataSize), at: start + 4 + Int64(headerLength)) : []
        if !readingData && dataSize > 0 { digest?.skipped() }
        offset = start + 4 + Int64(headerLength) + dataSize
        return PBFRawBlob(type: type, offset: start, bytes: blobBytes)
    }

    /// Parses a BlobHeader into its `type` and `datasize`.
    static func parseBlobHeader(_ bytes: [UInt8], blobOffset: Int64) throws(PBFError) -> (String, Int64) {
        var type: String?
        var dataSize: Int64?
        do {
            try bytes.withUnsafeBytes { (raw) in
                var reader = ProtobufReader(raw)
                while let key = try reader.readKey() {
                    switch (key.field, key.wireType) {
                    case (1, .lengthDelimited): type = try reader.readString()
                    case (3, .varint): dataSize = Int64(Int32(truncatingIfNeeded: try reader.readVarint()))
                    default: try reader.skip(key.wireType, at: key.offset)
                    }
                }
            }
        } catch let error as ProtobufError {
            throw .malformed(error, blobOffset: blobOffset)
        } catch { preconditionFailure("unexpected \(error)") }
        guard let type else { throw .missingBlobHeaderField("type", offset: blobOffset) }
        guard let dataSize else { throw .missingBlobHeaderField("datasize", offset: blobOffset) }
        return (type, dataSize)
    }

    /// Decodes a Blob message: copies `raw`, inflates `zlib_data`, refuses every other kind.
    package static func decodeBlob(_ bytes: [UInt8], blobOffset: Int64) throws(PBFError) -> [UInt8] {
        var raw: Range<Int>?
        var zlib: Range<Int>?
        var rawSize: Int64?
        var otherKind: String?
        do {
            try bytes.withUnsafeBytes { (buffer) in
                var reader = ProtobufReader(buffer)
                while let key = try reader.readKey() {
                    switch (key.field, key.wireType) {
                    case (1, .lengthDelimited): raw = try reader.readLengthDelimitedRange()
                    case (2, .varint): rawSize = Int64(Int32(truncatingIfNeeded: try reader.readVarint()))
                    case (3, .lengthDelimited): zlib = try reader.readLengthDelimitedRange()
                    case (4, _), (5, _), (6, _), (7, _):
                        otherKind = [4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"][key.field]
                        try reader.skip(key.wireType, at: key.offset)
                    default: try reader.skip(key.wireType, at: key.offset)
                    }
                }
            }
        } catch let error as ProtobufError {
            throw .malformed(error, blobOffset: blobOffset)
        } catch { preconditionFailure("unexpected \(error)") }
        if let raw { return Array(bytes[raw]) }
        if let zlib {
            guard let rawSize, rawSize >= 0, rawSize <= Int64(maxBlobSize) else {
                throw .rawSizeMismatch(declared: rawSize ?? -1, offset: blobOffset)
            }
            return try inflate(bytes, range: zlib, rawSize: Int(rawSize), blobOffset: blobOffset)
        }
        throw .unsupportedBlobKind(otherKind ?? "empty", offset: blobOffset)
    }

    /// Inflates the zlib stream at `range` of `bytes`, which must produce exactly `rawSize` bytes.
    ///
    /// A blob declares its inflated size, so libdeflate inflates it in one call into a buffer of that size
    /// (zlib's streaming inflate took about a quarter of a country read's CPU time, libdeflate about half of that).
    static func inflate(_ bytes: [UInt8], range: Range<Int>, rawSize: Int, blobOffset: Int64) throws(PBFError) -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw .inflateFailed("out of memory for the decompressor", offset: blobOffset)
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var status = LIBDEFLATE_SUCCESS
        // One spare byte: a stream that fills it inflates to more than it declared.
        let output = [UInt8](unsafeUninitializedCapacity: rawSize + 1) { out, initialized in
            var produced = 0
            status = bytes.withUnsafeBytes { all in
                let input = UnsafeRawBufferPointer(rebasing: all[range])
                return libdeflate_zlib_decompress(
                    decompressor, input.baseAddress, input.count, out.baseAddress, rawSize + 1, &produced)
            }
            initialized = status == LIBDEFLATE_SUCCESS ? produced : 0
        }
        switch status {
        case LIBDEFLATE_SUCCESS: break
        case LIBDEFLATE_INSUFFICIENT_SPACE: throw .rawSizeMismatch(declared: Int64(rawSize), offset: blobOffset)
        default: throw .inflateFailed("invalid or truncated zlib stream", offset: blobOffset)
        }
        guard output.count == rawSize else { throw .rawSizeMismatch(declared: Int64(rawSize), offset: blobOffset) }
        return output
    }
}
