import ArgumentParser

/// Hooks for citypack's own end-to-end tests, left out of `--help` and completions (never needed in normal use).
struct TestHookOptions: ParsableArguments {
    /// A fault to raise just before the build starts, so the exit-70 paths can be tested end to end.
    enum Fault: String, ExpressibleByArgument, Sendable {
        /// An unexpected Swift error: reported as an internal error.
        case `throw`
        /// A crash (`fatalError`): caught by the ``CrashHandler``.
        case trap
    }

    @Option(name: .customLong("debug-fault"), help: ArgumentHelp(visibility: .private))
    var fault: Fault?

    /// Microseconds the emitter sleeps before each commit step (``EmitOptions/testStepDelayMicroseconds``), so a
    /// kill test can land between any two renames. Only `build` emits.
    @Option(name: .customLong("test-step-delay-us"), help: ArgumentHelp(visibility: .private))
    var stepDelayMicroseconds: UInt32 = 0

    /// Raises the requested fault, if any.
    /// - Throws: ``InternalError`` for `throw`.
    func raiseFault() throws {
        switch fault {
        case .throw: throw InternalError(description: "--debug-fault throw")
        case .trap: fatalError("--debug-fault trap")
        case nil: break
        }
    }
}
