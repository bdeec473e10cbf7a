#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCityPackZlib
import Foundation

/// A read-only zip archive for untrusted feeds: the central directory is parsed with every offset and length
/// checked against the file, and entries are inflated with zlib from exactly their compressed bytes.
///
/// Written for CityPack after fuzzing found that a truncated deflate entry at the end of an archive made
/// ZIPFoundation 0.9.20's Linux inflate loop forever (it keeps asking for input past the end of the file).
/// Supports stored and deflated entries and ZIP64 sizes and offsets; encrypted entries and other methods are
/// reported as unsupported. Not thread-safe.
final class ZipReader {
    struct Entry {
        /// Path inside the archive, decoded as UTF-8 (invalid bytes replaced).
        var path: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        /// A directory (name ends with `/`) or a symbolic link: never read.
        var isFile: Bool
    }

    enum Failure: Error, CustomStringConvertible {
        case notAZip(String)
        case corrupt(String)
        case unsupported(String)
        case tooLarge(Int)
        case ratio(UInt64)

        var description: String {
            switch self {
            case .notAZip(let why), .corrupt(let why), .unsupported(let why): why
            case .tooLarge(let limit): "entry inflates beyond the limit of \(limit) bytes"
            case .ratio(let ratio): "entry inflates to more than \(ratio) times its compressed size"
            }
        }
    }

    private let fd: Int32
    let fileSize: UInt64
    private(set) var entries: [Entry] = []

    /// Opens `path` and reads its central directory, stopping after `maxEntries` entries.
    /// - Throws: ``Failure/notAZip(_:)`` or ``Failure/corrupt(_:)``; `tooManyEntries` is reported by the caller
    ///   through ``entryCountExceeded``.
    init(path: String, maxEntries: Int) throws {
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure.notAZip("cannot open: \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw Failure.notAZip("not a regular file")
        }
        fileSize = UInt64(st.st_size)
        do {
            try readCentralDirectory(maxEntries: maxEntries)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// More entries than the limit were declared.
    private(set) var entryCountExceeded = false

    // MARK: Reading bytes

    private func read(_ count: Int, at offset: UInt64) throws -> [UInt8] {
        guard count >= 0, offset <= fileSize, UInt64(count) <= fileSize - offset else {
            throw Failure.corrupt("a header points outside the archive")
        }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure.corrupt("cannot read the archive: \(n < 0 ? String(cString: strerror(errno)) : "unexpected end")") }
            done += n
        }
        return out
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    private static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    // MARK: Central directory

    private func readCentralDirectory(maxEntries: Int) throws {
        // End of central directory: 22 bytes plus a comment of up to 65 535 bytes, at the end of the file.
        guard fileSize >= 22 else { throw Failure.notAZip("too short to be a zip archive") }
        let tailSize = Int(min(fileSize, 22 + 65_535))
        let tail = try read(tailSize, at: fileSize - UInt64(tailSize))
        var eocd = -1
        var i = tailSize - 22
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 0x05 && tail[i + 3] == 0x06 {
                eocd = i
                break
            }
            i -= 1
        }
        guard eocd >= 0 else { throw Failure.notAZip("no end-of-central-directory record") }
        var count = UInt64(Self.u16(tail, eocd + 10))
        var size = UInt64(Self.u32(tail, eocd + 12))
        var offset = UInt64(Self.u32(tail, eocd + 16))
        let eocdOffset = fileSize - UInt64(tailSize) + UInt64(eocd)
        // ZIP64: a locator just before the record points at the 64-bit record.
        if (count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF) && eocdOffset >= 20 {
            let locator = try read(20, at: eocdOffset - 20)
            if Self.u32(locator, 0) == 0x0706_4B50 {
                let record = try read(56, at: Self.u64(locator, 8))
                guard Self.u32(record, 0) == 0x0606_4B50 else { throw Failure.corrupt("bad ZIP64 end-of-central-directory record") }
                count = Self.u64(record, 32)
                size = Self.u64(record, 40)
                offset = Self.u64(record, 48)
            }
        }
        guard offset <= fileSize, size <= fileSize - offset else {
            throw Failure.corrupt("the central directory lies outside the archive")
        }
        // Each central header is at least 46 bytes: a declared count beyond that is a lie.
        guard count <= size / 46 + 1 else { throw Failure.corrupt("the archive declares \(count) entries in \(size) bytes") }
        if count > UInt64(maxEntries) {
            entryCountExceeded = true
            return
        }
        let directory = try read(Int(size), at: offset)
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, Self.u32(directory, p) == 0x0201_4B50 else {
                throw Failure.corrupt("bad central directory header")
            }
            let madeBy = Self.u16(directory, p + 4)
            let flags = Self.u16(directory, p + 8)
            let method = Self.u16(directory, p + 10)
            let crc = Self.u32(directory, p + 16)
            var compressed = UInt64(Self.u32(directory, p + 20))
            var uncompressed = UInt64(Self.u32(directory, p + 24))
            let nameLength = Int(Self.u16(directory, p + 28))
            let extraLength = Int(Self.u16(directory, p + 30))
            let commentLength = Int(Self.u16(directory, p + 32))
            let external = Self.u32(directory, p + 38)
            var local = UInt64(Self.u32(directory, p + 42))
            let end = p + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw Failure.corrupt("a central directory header overruns the directory") }
            let name = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            // ZIP64 extended information: the 64-bit values, in order, for each 32-bit field that is all ones.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = Self.u16(directory, e)
                let length = Int(Self.u16(directory, e + 2))
                guard e + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var f = e + 4
                    func next() -> UInt64? {
                        guard f + 8 <= e + 4 + length else { return nil }
                        defer { f += 8 }
                        return Self.u64(directory, f)
                    }
                    if uncompressed == 0xFFFF_FFFF, let v = next() { uncompressed = v }
                    if compressed == 0xFFFF_FFFF, let v = next() { compressed = v }
                    if local == 0xFFFF_FFFF, let v = next() { local = v }
                }
                e += 4 + length
            }
            let unixMode = (madeBy >> 8) == 3 ? (external >> 16) & UInt32(S_IFMT) : 0
            let isLink = unixMode == UInt32(S_IFLNK)
            let isDirectory = name.hasSuffix("/") || (unixMode == UInt32(S_IFDIR)) || (external & 0x10 != 0 && madeBy >> 8 == 0)
            entries.append(
                Entry(
                    path: name, method: method, flags: flags, crc32: crc, compressedSize: compressed,
                    uncompressedSize: uncompressed, localHeaderOffset: local, isFile: !isLink && !isDirectory))
            p = end
        }
    }

    // MARK: Extraction

    /// The entry's bytes, inflated from exactly its compressed bytes, with `maxBytes` and the ratio
    /// `maxRatio` × compressed size (with 1 MiB of slack) enforced on what is actually produced, and the CRC-32
    /// checked.
    func extract(_ entry: Entry, maxBytes: Int, maxRatio: Int) throws -> Data {
        guard entry.flags & 1 == 0 else { throw Failure.unsupported("entry is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw Failure.unsupported("entry uses compression method \(entry.method); only stored and deflate are read")
        }
        let header = try read(30, at: entry.localHeaderOffset)
        guard Self.u32(header, 0) == 0x0403_4B50 else { throw Failure.corrupt("bad local header") }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        guard dataOffset <= fileSize, entry.compressedSize <= fileSize - dataOffset else {
            throw Failure.corrupt("entry claims \(entry.compressedSize) compressed bytes, more than the archive holds")
        }
        let (product, overflow) = max(entry.compressedSize, 1).multipliedReportingOverflow(by: UInt64(max(maxRatio, 1)))
        let ratioLimit = max(overflow ? UInt64.max : product, 1 << 20)
        var out = Data()
        out.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(max(maxBytes, 0)), 16 << 20)))
        var crc = crc32(0, nil, 0)
        func append(_ p: UnsafePointer<UInt8>, _ n: Int) throws {
            guard n > 0 else { return }
            if out.count + n > maxBytes { throw Failure.tooLarge(maxBytes) }
            if UInt64(out.count + n) > ratioLimit { throw Failure.ratio(UInt64(maxRatio)) }
            out.append(p, count: n)
            crc = crc32(crc, p, UInt32(n))
        }
        let chunk = 1 << 16
        var position = dataOffset
        var remaining = entry.compressedSize
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw Failure.corrupt("stored entry has different compressed and uncompressed sizes")
            }
            while remaining > 0 {
                let n = Int(min(remaining, UInt64(chunk)))
                let bytes = try read(n, at: position)
                try bytes.withUnsafeBufferPointer { try append($0.baseAddress!, n) }
                position += UInt64(n)
                remaining -= UInt64(n)
            }
        } else {
            var stream = z_stream()
            guard citypack_inflateInit2(&stream, -15) == Z_OK else { throw Failure.corrupt("zlib cannot start") }
            defer { inflateEnd(&stream) }
            var output = [UInt8](repeating: 0, count: chunk)
            var ended = false
            while !ended {
                guard remaining > 0 else { throw Failure.corrupt("the compressed data ends early (truncated entry)") }
                let n = Int(min(remaining, UInt64(chunk)))
                var input = try read(n, at: position)
                position += UInt64(n)
                remaining -= UInt64(n)
                try input.withUnsafeMutableBufferPointer { inp in
                    stream.next_in = inp.baseAddress
                    stream.avail_in = UInt32(n)
                    repeat {
                        let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                            stream.next_out = out.baseAddress
                            stream.avail_out = UInt32(chunk)
                            return inflate(&stream, Z_NO_FLUSH)
                        }
                        let produced = chunk - Int(stream.avail_out)
                        try output.withUnsafeBufferPointer { try append($0.baseAddress!, produced) }
                        if status == Z_STREAM_END {
                            ended = true
                            return
                        }
                        guard status == Z_OK || status == Z_BUF_ERROR else {
                            throw Failure.corrupt("the compressed data is corrupt (zlib \(status))")
                        }
                        if status == Z_BUF_ERROR && produced == 0 { return }  // needs more input
                    } while stream.avail_in > 0 || stream.avail_out == 0
                }
            }
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else { throw Failure.corrupt("CRC-32 mismatch: the entry is corrupt") }
        return out
    }
}
