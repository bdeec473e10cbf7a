#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCityPackZlib
import CityPackStorage
import CityPackSupport
import Foundation

/// A read-only zip archive for untrusted feeds: the central directory is parsed with every offset and length
/// checked against the file, and entries are inflated with zlib from exactly their compressed bytes, a piece at a
/// time (``stream(_:maxBytes:maxRatio:)``, ``forEachChunk(_:maxBytes:maxRatio:chunkSize:_:)``): an entry is never
/// held whole, and its limits hold while it inflates (see ``ZipEntryStream``).
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
        /// The entry's modification time as the archive records it (MS-DOS date and time, read as UTC), in
        /// seconds since 1970; nil when the date field is 0 or invalid. Data of the archive, not of the file system.
        var modified: Int64? = nil
    }

    /// Seconds since 1970 of an MS-DOS date and time (local time by the format, read here as UTC so the value is
    /// the same on every machine); nil for a zero or impossible date.
    static func dosTime(date: UInt16, time: UInt16) -> Int64? {
        let year = 1980 + Int(date >> 9), month = Int((date >> 5) & 0xF), day = Int(date & 0x1F)
        let hour = Int(time >> 11), minute = Int((time >> 5) & 0x3F), second = Int(time & 0x1F) * 2
        guard date != 0, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        let days = CivilDate.dayNumber(year: year, month: month, day: day)
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    enum Failure: Error, CustomStringConvertible {
        case notAZip(String)
        case corrupt(String)
        case unsupported(String)
        case tooLarge(Int)
        /// More than `ratio` × the compressed bytes consumed (plus slack) came out: `produced` bytes from
        /// `consumed` compressed ones when it was noticed.
        case ratio(UInt64, produced: UInt64, consumed: UInt64)

        var description: String {
            switch self {
            case .notAZip(let why), .corrupt(let why), .unsupported(let why): why
            case .tooLarge(let limit): "entry inflates beyond the limit of \(limit) bytes"
            case .ratio(let ratio, let produced, let consumed):
                "entry inflates to more than \(ratio) times its compressed size (\(produced) bytes from \(consumed))"
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
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        return out
    }

    /// Fills `buffer` with the archive's bytes at `offset`.
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        let count = buffer.count
        guard offset <= fileSize, UInt64(count) <= fileSize - offset else {
            throw Failure.corrupt("a header points outside the archive")
        }
        var done = 0
        while done < count {
            let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure.corrupt("cannot read the archive: \(n < 0 ? String(cString: strerror(errno)) : "unexpected end")") }
            done += n
        }
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
            let modified = Self.dosTime(date: Self.u16(directory, p + 14), time: Self.u16(directory, p + 12))
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
                    uncompressedSize: uncompressed, localHeaderOffset: local, isFile: !isLink && !isDirectory,
                    modified: modified))
            p = end
        }
    }

    // MARK: Extraction

    /// Opens `entry` for reading in pieces (see ``ZipEntryStream``).
    func stream(_ entry: Entry, maxBytes: Int, maxRatio: Int) throws -> ZipEntryStream {
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
        if entry.method == 0 && entry.compressedSize != entry.uncompressedSize {
            throw Failure.corrupt("stored entry has different compressed and uncompressed sizes")
        }
        return try ZipEntryStream(archive: self, entry: entry, dataOffset: dataOffset, maxBytes: maxBytes, maxRatio: maxRatio)
    }

    /// Inflates `entry` and hands its bytes to `body` in pieces of at most `chunkSize` bytes, with the limits of
    /// ``ZipEntryStream`` enforced as the bytes are produced and the CRC-32 checked at the end (before the call
    /// returns, after the last piece). Nothing is accumulated.
    /// - Returns: the number of bytes the entry inflated to.
    @discardableResult
    func forEachChunk(
        _ entry: Entry, maxBytes: Int, maxRatio: Int, chunkSize: Int = 1 << 16,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        let stream = try stream(entry, maxBytes: maxBytes, maxRatio: maxRatio)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try stream.read(into: buffer)
            if n == 0 { return stream.produced }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
        }
    }
}

/// One zip entry being read: stored bytes are copied, deflated bytes inflated with zlib from exactly the entry's
/// compressed bytes, straight into the caller's buffer. Every limit holds on what is actually produced, while
/// it is produced, so nothing large is ever held:
///
/// - size: more than `maxBytes` inflated bytes throws ``ZipReader/Failure/tooLarge(_:)``;
/// - ratio: as soon as the bytes produced exceed `maxRatio` × the compressed bytes consumed so far plus
///   ``ratioSlack`` (1 MiB, so a small entry or a highly compressible header is fine), it throws
///   ``ZipReader/Failure/ratio(_:produced:consumed:)``: a bomb is refused after a few megabytes, whatever its size;
/// - integrity: the CRC-32 is checked when the entry ends (the call that returns 0), and a deflate stream
///   that ends before its compressed bytes do, or runs past them, is ``ZipReader/Failure/corrupt(_:)``.
///
/// After a throw the stream is spent. Not thread-safe.
final class ZipEntryStream {
    /// Inflated bytes allowed beyond the ratio, so tiny entries never trip it.
    static let ratioSlack: UInt64 = 1 << 20
    /// Compressed bytes read from the archive at a time, and most bytes inflated between two limit checks.
    static let step = 1 << 16

    private let archive: ZipReader
    let entry: ZipReader.Entry
    private let maxBytes: UInt64
    private let maxRatio: UInt64
    private var position: UInt64
    private var remaining: UInt64
    /// Bytes handed out so far.
    private(set) var produced: UInt64 = 0
    /// Compressed bytes consumed so far (read for stored entries, taken by zlib for deflated ones).
    private(set) var consumed: UInt64 = 0
    private var crc: UInt = crc32(0, nil, 0)
    private var finished = false
    private var failed = false
    private var zstream: ZlibStream?
    private var input: UnsafeMutableRawBufferPointer?
    /// zlib stopped because it had no input left (as opposed to no room for output).
    private var needsInput = true

    fileprivate init(archive: ZipReader, entry: ZipReader.Entry, dataOffset: UInt64, maxBytes: Int, maxRatio: Int) throws {
        self.archive = archive
        self.entry = entry
        self.maxBytes = UInt64(max(maxBytes, 0))
        self.maxRatio = UInt64(max(maxRatio, 1))
        position = dataOffset
        remaining = entry.compressedSize
        if entry.method == 8 {
            do { zstream = try ZlibStream(inflating: .raw) } catch { throw ZipReader.Failure.corrupt("zlib cannot start") }
            input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.step, alignment: 16)
        }
    }

    deinit {
        input?.deallocate()
    }

    /// Fills the start of `buffer` with the entry's next bytes.
    /// - Returns: how many bytes were written; 0 once the entry has ended and its CRC-32 matched.
    /// - Throws: ``ZipReader/Failure`` when a limit is crossed or the entry is corrupt; the stream is spent.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        guard !failed else { throw ZipReader.Failure.corrupt("the entry was already refused") }
        do {
            return try fill(buffer)
        } catch {
            failed = true
            throw error
        }
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let out = buffer.baseAddress!
        var written = 0
        if zstream == nil {
            // Stored: the compressed bytes are the bytes.
            while written < buffer.count && remaining > 0 {
                let n = Int(min(remaining, UInt64(min(buffer.count - written, Self.step))))
                try archive.read(into: UnsafeMutableRawBufferPointer(start: out + written, count: n), at: position)
                position += UInt64(n)
                remaining -= UInt64(n)
                consumed += UInt64(n)
                try account(out + written, n)
                written += n
            }
            if remaining == 0 && written == 0 { try end() }
            return written
        }
        let z = zstream!
        while written < buffer.count {
            if needsInput && z.availableInput == 0 {
                guard remaining > 0 else { throw ZipReader.Failure.corrupt("the compressed data ends early (truncated entry)") }
                let n = Int(min(remaining, UInt64(Self.step)))
                let inp = input!
                try archive.read(into: UnsafeMutableRawBufferPointer(rebasing: inp[..<n]), at: position)
                position += UInt64(n)
                remaining -= UInt64(n)
                z.setInput(inp.baseAddress, count: n)
            }
            let room = min(buffer.count - written, Self.step)
            let inBefore = z.availableInput
            let (status, made) = z.run(into: UnsafeMutableRawBufferPointer(start: out + written, count: room), finish: false)
            let taken = inBefore - z.availableInput
            consumed += UInt64(taken)
            try account(out + written, made)
            written += made
            if status == .end {
                try end()
                return written
            }
            guard status == .progress || status == .stalled else {
                throw ZipReader.Failure.corrupt("the compressed data is corrupt (zlib \(status.code))")
            }
            // Output room left over means zlib ran out of input; a full output may hide more pending output.
            needsInput = made < room || (made == 0 && taken == 0)
            if made == 0 && taken == 0 && z.availableInput > 0 {
                throw ZipReader.Failure.corrupt("the compressed data is corrupt (no progress)")
            }
        }
        return written
    }

    /// Counts `n` new bytes against the limits and the CRC.
    private func account(_ bytes: UnsafeMutableRawPointer, _ n: Int) throws {
        guard n > 0 else { return }
        produced += UInt64(n)
        if produced > maxBytes { throw ZipReader.Failure.tooLarge(Int(clamping: maxBytes)) }
        let (scaled, overflow) = consumed.multipliedReportingOverflow(by: maxRatio)
        let (allowed, overflowToo) = scaled.addingReportingOverflow(Self.ratioSlack)
        if !overflow && !overflowToo && produced > allowed {
            throw ZipReader.Failure.ratio(maxRatio, produced: produced, consumed: consumed)
        }
        crc = crc32(crc, bytes.assumingMemoryBound(to: Bytef.self), UInt32(n))
    }

    private func end() throws {
        finished = true
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw ZipReader.Failure.corrupt("CRC-32 mismatch: the entry is corrupt")
        }
    }
}
