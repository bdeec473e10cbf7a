import Foundation

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Why an ``AtomicFile`` step failed: the file, the step and the `errno`.
package struct AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (for a failed rename, the destination).
    package var path: String
    /// What failed: `create`, `write`, `flush`, `close` or `move into place`.
    package var step: String
    /// The `errno` of the failure.
    package var code: Int32

    /// `strerror` of ``code``.
    package var message: String { String(cString: strerror(code)) }

    /// `cannot STEP: MESSAGE`.
    package var reason: String { "cannot \(step): \(message)" }

    /// `PATH: cannot STEP: MESSAGE`.
    package var description: String { "\(path): \(reason)" }
}

/// The project's one way to replace a file atomically: write the bytes under a hidden temporary name beside the
/// file, flush them (`fsync`), rename the temporary over the file and flush the folder, so that a reader, a crash
/// or a power loss sees the file either as before or as after. Used by the emitter, the build cache and
/// CityPackKit's installer and pack library; the steps are public for writers whose bytes come from elsewhere
/// (SQLite, a gzip stream): ``temporaryPath(for:)``, ``flush(_:)``, ``replace(_:with:)``. Thread-safe.
package enum AtomicFile {
    /// `.<name>.tmp-<pid>-<8 hex>` beside `path`: hidden (readers list no dot files), unique to this writer, and
    /// recognisable as debris of an interrupted write by its `.tmp-`.
    package static func temporaryPath(for path: String) -> String {
        let name = ".\((path as NSString).lastPathComponent).tmp-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }

    /// Replaces `path` with `bytes` atomically (temporary file, `fsync`, rename, folder `fsync`).
    /// - Parameters:
    ///   - bytes: the new content.
    ///   - path: the file; its folder must exist.
    ///   - mode: the new file's permissions (default 0644).
    ///   - durable: whether to flush the file and the folder (default true; a cache that only saves time may
    ///     skip the flushes: it still never shows a partial file).
    /// - Throws: ``AtomicFileError`` naming `path`; the file is then as it was and no temporary file is left.
    package static func write<Bytes: ContiguousBytes>(
        _ bytes: Bytes, to path: String, mode: mode_t = 0o644, durable: Bool = true
    ) throws(AtomicFileError) {
        let temporary = temporaryPath(for: path)
        do { try writeNew(bytes, to: temporary, mode: mode, flush: durable) } catch {
            throw AtomicFileError(path: path, step: error.step, code: error.code)
        }
        do { try replace(path, with: temporary, flushFolder: durable) } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes `bytes` to a new file at `path` (replacing any), flushed when `flush`; removes it on failure.
    /// - Throws: ``AtomicFileError``.
    package static func writeNew<Bytes: ContiguousBytes>(
        _ bytes: Bytes, to path: String, mode: mode_t = 0o644, flush: Bool = true
    ) throws(AtomicFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard fd >= 0 else { throw AtomicFileError(path: path, step: "create", code: errno) }
        var failure: AtomicFileError?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = AtomicFileError(path: path, step: "write", code: errno)
                    return
                }
                offset += n
            }
        }
        if failure == nil && flush && fsync(fd) != 0 { failure = AtomicFileError(path: path, step: "flush", code: errno) }
        if close(fd) != 0 && failure == nil { failure = AtomicFileError(path: path, step: "close", code: errno) }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Flushes a file written by other code (SQLite, a gzip stream) to disk.
    /// - Throws: ``AtomicFileError``.
    package static func flush(_ path: String) throws(AtomicFileError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw AtomicFileError(path: path, step: "open", code: errno) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw AtomicFileError(path: path, step: "flush", code: errno) }
    }

    /// Flushes many files (written by any code) to disk together: their `fsync`s run on up to `width` threads at
    /// once, so the file system commits them in a few journal transactions instead of one wait per file (a staged
    /// release of ~200 web files). Every file is flushed even when one fails; the first failure (in `paths`'
    /// order) is thrown.
    /// - Throws: ``AtomicFileError`` (`open` or `flush`) naming the failing file.
    package static func flushAll(_ paths: [String], width: Int = 16) throws(AtomicFileError) {
        guard !paths.isEmpty else { return }
        let failures = FlushFailures(count: paths.count)
        let next = FlushCursor()
        let threads = max(1, min(width, paths.count))
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                while let i = next.take(below: paths.count) {
                    do throws(AtomicFileError) { try flush(paths[i]) } catch { failures.set(i, error) }
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        if let first = failures.first() { throw first }
    }

    /// Flushes a folder's entries (after a rename or an unlink in it), so the new names survive a power loss.
    /// Best effort: not every platform or file system allows it.
    package static func flushFolder(_ path: String) {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Renames `temporary` (a flushed file or a complete folder) over `path`, then flushes `path`'s folder when
    /// `flushFolder`.
    /// - Throws: ``AtomicFileError`` (`move into place`, naming `path`); `temporary` is left in place.
    package static func replace(_ path: String, with temporary: String, flushFolder: Bool = true) throws(AtomicFileError) {
        guard rename(temporary, path) == 0 else { throw AtomicFileError(path: path, step: "move into place", code: errno) }
        if flushFolder { Self.flushFolder((path as NSString).deletingLastPathComponent) }
    }
}

/// The next index a flushing thread takes.
private final class FlushCursor: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below count: Int) -> Int? {
        lock.withLock {
            guard value < count else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// The failures of a batch flush, by index.
private final class FlushFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [AtomicFileError?]

    init(count: Int) { errors = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ error: AtomicFileError) { lock.withLock { errors[i] = error } }
    func first() -> AtomicFileError? { lock.withLock { errors.lazy.compactMap { $0 }.first } }
}
