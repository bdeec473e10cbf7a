import ArgumentParser

/// Hooks for citypack's own end-to-end tests: `--debug-fault throw|trap` and `--test-step-delay-us N`.
///
/// Compiled into debug builds only (`swift build`, which `swift test` runs): a release binary, the one users ship,
/// does not accept them at all, so no hidden flag can make a production build crash or stall on purpose. They are
/// not a run-time switch either (an environment variable or a hidden flag in every build), because a hook that
/// exists in production is a hook someone will find.
struct TestHookOptions: ParsableArguments {
    /// A fault to raise just before the build starts, so the exit-70 paths can be tested end to end.
    enum Fault: String, ExpressibleByArgument, Sendable {
        /// An unexpected Swift error: reported as an internal error.
        case `throw`
        /// A crash (`fatalError`): caught by the ``CrashHandler``.
        case trap
    }

    #if DEBUG
    @Option(name: .customLong("debug-fault"), help: ArgumentHelp(visibility: .private))
    var fault: Fault?

    /// Microseconds the emitter sleeps before each commit step (``EmitOptions/testStepDelayMicroseconds``), so a
    /// kill test can land between any two renames. Only `build` emits.
    @Option(name: .customLong("test-step-delay-us"), help: ArgumentHelp(visibility: .private))
    var stepDelayMicroseconds: UInt32 = 0
    #else
    var fault: Fault? { nil }
    var stepDelayMicroseconds: UInt32 { 0 }
    #endif

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
