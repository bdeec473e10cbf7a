import Foundation

/// An exclusive lock on an output folder (`flock` on `<outputs>/.lock`), so builds and `citypack catalog` that
/// write into the same folder run their commit steps one after the other, never interleaved.
///
/// The kernel releases the lock when the process ends in any way (including SIGKILL), so a killed build never
/// leaves the folder locked. The `.lock` file itself stays (hidden, empty). `flock` locks are advisory and only
/// reliable on local file systems; on NFS use one writer per folder (a CI matrix writes one folder per job and
/// merges with `citypack catalog`).
package final class OutputLock {
    /// Name of the lock file inside the output folder.
    package static let fileName = ".lock"

    private var fd: Int32

    /// Blocks until the folder's lock is held. Creates the folder when missing.
    /// - Throws: `EmitError.io` located at the folder or lock file (e.g. a read-only folder: EROFS/EACCES).
    package init(outputDirectory: String) throws(EmitError) {
        try OutputFiles.makeDirectory(outputDirectory)
        let path = (outputDirectory as NSString).appendingPathComponent(Self.fileName)
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: path, message: "cannot open the output lock: \(errnoText())") }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let failure = EmitError.io(path: path, message: "cannot lock: \(errnoText())")
            close(fd)
            fd = -1
            throw failure
        }
    }

    /// Releases the lock. Idempotent.
    package func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }

    /// Runs `body` while holding the folder's lock.
    package static func withLock<T>(outputDirectory: String, _ body: () throws(EmitError) -> T) throws(EmitError) -> T {
        let lock = try OutputLock(outputDirectory: outputDirectory)
        defer { lock.release() }
        return try body()
    }
}
