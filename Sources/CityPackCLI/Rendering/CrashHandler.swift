import Foundation

/// Turns a crash (a Swift runtime trap such as a failed precondition, or a memory fault) into exit code 70
/// with a one-line explanation, instead of a bare signal death that CI reports as "killed".
///
/// Only async-signal-safe calls run in the handler: `write(2)` and `_exit(2)`.
enum CrashHandler {
    private static let message = Array(
        "citypack: error: internal error: citypack crashed; this is a bug in citypack, not in your data. Please report it with the input.\n".utf8)

    /// Installs the handler for SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS and SIGFPE. Idempotent.
    static func install() {
        for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
            signal(sig) { _ in
                CrashHandler.message.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
                _exit(70)
            }
        }
    }
}

/// An unexpected failure inside citypack (exit 70). Also raised on purpose by the hidden `--debug-fault`
/// test hook (``TestHookOptions``), which the exit-code tests use to prove the path works.
struct InternalError: Error, CustomStringConvertible {
    var description: String
}
