#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CityPackDiagnostics
import Foundation

/// One file of a feed, read in pieces: a file of a folder feed (plain reads) or an entry of a zip feed (inflated
/// as it is read, with the archive's limits checked on the bytes produced). Nothing is accumulated. Not
/// thread-safe.
final class GTFSFileStream {
    enum Failure: Error, CustomStringConvertible {
        case io(String)
        /// A folder file grew past `file_size` after its size was checked.
        case grew(Int)

        var description: String {
            switch self {
            case .io(let why): why
            case .grew(let limit): "file grew beyond the limit of \(limit) bytes while it was read"
            }
        }
    }

    private enum Backend {
        case file(Int32)
        case zip(ZipEntryStream)
    }

    private let backend: Backend
    /// Display path.
    let path: String
    /// The file's size on disk, or the entry's declared inflated size (bounded by the limit in force).
    let sizeHint: Int
    /// Most bytes this file may produce.
    let limit: Int
    /// Bytes read so far.
    private(set) var bytesRead = 0
    /// Zip entries are only known to be sound once read to the end (limits, CRC-32): rows read from them before
    /// a failure must not be trusted.
    var canFailLate: Bool {
        if case .zip = backend { return true }
        return false
    }

    private init(backend: Backend, path: String, sizeHint: Int, limit: Int) {
        self.backend = backend
        self.path = path
        self.sizeHint = sizeHint
        self.limit = limit
    }

    /// A file on disk of `size` bytes (already checked against `limit`).
    static func file(_ url: URL, path: String, size: Int, limit: Int) throws -> GTFSFileStream {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw Failure.io(String(cString: strerror(errno))) }
        return GTFSFileStream(backend: .file(fd), path: path, sizeHint: size, limit: limit)
    }

    /// A zip entry being inflated.
    static func entry(_ stream: ZipEntryStream, path: String, limit: Int) -> GTFSFileStream {
        let declared = Int(clamping: stream.entry.uncompressedSize)
        return GTFSFileStream(backend: .zip(stream), path: path, sizeHint: min(declared, limit), limit: limit)
    }

    deinit {
        if case .file(let fd) = backend { close(fd) }
    }

    /// Fills the start of `buffer` with the next bytes.
    /// - Returns: how many; 0 at the end (for a zip entry: after its CRC-32 matched).
    /// - Throws: ``Failure`` or ``ZipReader/Failure``.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch backend {
        case .zip(let stream):
            let n = try stream.read(into: buffer)
            bytesRead += n
            return n
        case .file(let fd):
            guard buffer.count > 0 else { return 0 }
            while true {
                let n = readFile(fd, buffer.baseAddress!, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw Failure.io(String(cString: strerror(errno))) }
                bytesRead += n
                if bytesRead > limit { throw Failure.grew(limit) }
                return n
            }
        }
    }

    /// Moves on to byte `offset` (not before the bytes read so far): a folder's file seeks there, a zip entry is
    /// inflated up to it and the bytes discarded.
    /// - Throws: ``Failure`` or ``ZipReader/Failure``; ``Failure/io(_:)`` when the file ends before `offset`.
    func skip(to offset: Int) throws {
        guard offset > bytesRead else { return }
        switch backend {
        case .file(let fd):
            guard offset <= limit, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
                throw Failure.io("cannot seek to byte \(offset)")
            }
            bytesRead = offset
        case .zip:
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            while bytesRead < offset {
                let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, offset - bytesRead)]))
                guard n > 0 else { throw Failure.io("entry ends before byte \(offset)") }
            }
        }
    }

    /// Reads to the end, discarding the bytes: for a zip entry, checks it whole (limits, CRC-32).
    func drain(chunkSize: Int = 1 << 16) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 1), alignment: 16)
        defer { buffer.deallocate() }
        while try read(into: buffer) > 0 {}
    }

    /// The diagnostic for a failure of this stream, located at the file.
    func report(_ error: Error, bag: DiagnosticBag) {
        let whole = SourceLocation(file: path)
        switch error {
        case ZipReader.Failure.tooLarge:
            bag.report(Rules.gtfsArchiveTooLarge, "entry inflates beyond the limit of \(limit) bytes", at: whole)
        case ZipReader.Failure.ratio(let ratio, let produced, let consumed):
            let compressed = if case .zip(let stream) = backend { stream.entry.compressedSize } else { UInt64(0) }
            bag.report(Rules.gtfsZipBomb,
                "entry inflates to more than \(ratio) times its \(compressed) compressed bytes (a zip bomb?); not read "
                    + "(stopped after \(produced) inflated bytes from \(consumed) compressed)",
                at: whole)
        case Failure.grew(let limit):
            bag.report(Rules.csvFileTooLarge, "file grew beyond the limit of \(limit) bytes while it was read", at: whole)
        case Failure.io(let why):
            bag.report(Rules.packIOFailure, "cannot read file: \(why)", at: whole)
        default:
            bag.report(Rules.gtfsInvalidArchive, "cannot read entry: \(error)", at: whole)
        }
    }
}

/// `read(2)`, out of the way of ``GTFSFileStream/read(into:)``.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
