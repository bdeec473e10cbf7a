import CityPackSupport
import Foundation

/// File operations of the emitter with POSIX error reporting: every failure is an ``EmitError/io(path:message:)``
/// naming the path and the errno (`No space left on device (ENOSPC)`), which the compiler reports as
/// `pack.io_failure` and the CLI maps to exit code 74.
package enum OutputFiles {
    /// Sorted-key, pretty JSON with a trailing newline: the byte form of manifests and catalogs.
    static func encode<T: Encodable>(_ value: T) throws(EmitError) -> Data {
        do {
            var data = try SortedJSON.data(value, pretty: true)
            data.append(0x0A)
            return data
        } catch {
            throw .io(path: "<json>", message: "cannot encode: \(error)")
        }
    }

    /// Size and SHA-256 of a file, failures located at it.
    static func digest(_ path: String) throws(EmitError) -> FileDigest {
        do { return try FileDigest(path: path) } catch {
            throw .io(path: path, message: error.opening ? "cannot open for hashing" : "read failed: \(error.message)")
        }
    }

    /// Creates `path` and its parents (mode 0755) if missing.
    static func makeDirectory(_ path: String) throws(EmitError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw .io(path: path, message: "cannot create folder: a file is in the way (EEXIST)")
        }
        let parent = PathText.parent(path)
        if !parent.isEmpty && parent != path { try makeDirectory(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw .io(path: path, message: "cannot create folder: \(errnoText())")
        }
    }

    /// An ``AtomicFile`` failure as the emitter reports it (`cannot write: No space left on device (ENOSPC)`).
    static func failure(_ error: AtomicFileError, path: String? = nil) -> EmitError {
        let text = String(cString: strerror(error.code))
        return .io(path: path ?? error.path, message: "cannot \(error.step): \(errnoName(error.code).map { "\(text) (\($0))" } ?? text)")
    }

    /// Writes `data` to a new staged file (replacing any), not yet flushed: the release flushes every file it
    /// commits in one batch (``flushAll(_:)``) before the first rename.
    static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws(EmitError) {
        do { try AtomicFile.writeNew(data, to: path, mode: mode, flush: false) } catch { throw failure(error) }
    }

    /// Flushes staged files to disk together (``AtomicFile/flushAll(_:width:)``): one wait for the batch.
    static func flushAll(_ paths: [String]) throws(EmitError) {
        do { try AtomicFile.flushAll(paths) } catch { throw failure(error) }
    }

    /// Copies a file's bytes to a new file (a staged working copy; not flushed).
    static func copy(_ from: String, to: String) throws(EmitError) {
        guard let data = FileManager.default.contents(atPath: from) else {
            throw .io(path: from, message: "cannot read: \(errnoText())")
        }
        // Written in place under its own (hidden, staged) name: not `FileManager.createFile`, whose atomic write
        // goes through a second temporary file that a killed build would leave behind.
        do { try data.write(to: URL(fileURLWithPath: to)) } catch {
            throw .io(path: to, message: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Flushes a file that was written by other code (SQLite, gzip) to disk.
    static func flush(_ path: String) throws(EmitError) {
        do { try AtomicFile.flush(path) } catch { throw failure(error) }
    }

    /// Flushes a folder's entries (after renames), so the new names survive a power loss. Best effort.
    static func flushDirectory(_ path: String) { AtomicFile.flushFolder(path) }

    /// Atomically replaces `to` with `from` (same file system).
    static func rename(_ from: String, _ to: String) throws(EmitError) {
        do { try AtomicFile.replace(to, with: from, flushFolder: false) } catch { throw failure(error) }
    }

    /// Writes `data` under a hidden temporary name beside `path`, flushes it, and renames it over `path`
    /// (``AtomicFile/write(_:to:mode:durable:)``). Missing parent folders of `path` are created first (`keygen
    /// --output keys/release` in a fresh clone).
    static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o644) throws(EmitError) {
        try createParent(of: path)
        do { try AtomicFile.write(data, to: path, mode: mode) } catch { throw failure(error) }
    }

    /// Creates the folders above `path` that do not exist yet (like `mkdir -p`).
    /// - Throws: ``EmitError/io(path:message:)`` naming the folder that could not be made.
    package static func createParent(of path: String) throws(EmitError) {
        let directory = PathText.parent(path)
        guard !directory.isEmpty else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw .io(path: directory, message: "is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: directory, message: "cannot create the folder: \((error as NSError).localizedDescription)")
        }
    }

    /// A hidden temporary name for `name` (``AtomicFile/temporaryPath(for:)``), recognised as debris by
    /// ``isTemporary(_:)``.
    static func temporaryName(for name: String) -> String { AtomicFile.temporaryPath(for: name) }

    /// Whether a folder entry is debris of an interrupted write: a staging folder, or a temporary file
    /// (``AtomicFile/temporaryPath(for:)``: `.<name>.tmp-<pid>-<hex>`) whose writer is gone or is this process.
    /// A temporary file of another live process is not debris: the reports are written outside the output lock,
    /// so a build may meet another one's report being written.
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix(".") else { return false }
        if name.hasPrefix(PackEmitter.stagingPrefix) { return true }
        guard let marker = name.range(of: ".tmp-", options: .backwards) else { return false }
        let pidText = name[marker.upperBound...].prefix { $0 != "-" }
        guard let pid = Int32(pidText) else { return true }
        return pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH)
    }

    /// Whether two files hold the same bytes (false when either is missing).
    static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let x = FileManager.default.contents(atPath: a), let y = FileManager.default.contents(atPath: b) else {
            return false
        }
        return x == y
    }

    /// The symbolic name of an errno value for the common I/O failures.
    static func errnoName(_ code: Int32) -> String? {
        switch code {
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EEXIST: "EEXIST"
        case EDQUOT: "EDQUOT"
        case EIO: "EIO"
        case EMFILE: "EMFILE"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case EXDEV: "EXDEV"
        case ENOTEMPTY: "ENOTEMPTY"
        case EBUSY: "EBUSY"
        default: nil
        }
    }
}
