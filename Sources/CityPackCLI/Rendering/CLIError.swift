import ArgumentParser

/// A failure a command reports as one `citypack: error: <message>` line on stderr, with its exit code (README's
/// exit codes). Commands throw it; ``CityPackCommand`` renders it at the top, in one place
/// (``CityPackCommand/runReporting(_:)``), whether the executable or an in-process test runs the command. A
/// command that reports a failure and goes on (a fleet's missing city, a report that cannot be written) renders
/// it with the same ``Terminal/error(_:)``.
enum CLIError: Error, Equatable {
    /// A city directory or city file that does not exist (exit 66).
    case noSuchCity(String)
    /// An input that does not exist (exit 66).
    case missingInput(String)
    /// Arguments that do not go together, found after parsing (exit 64).
    case usage(String)
    /// The data holds errors (exit 1).
    case dataErrors(String)
    /// An output that cannot be written (exit 74).
    case ioFailure(String)
    /// A failure that is a bug in citypack (exit 70).
    case internalError(String)

    /// The text after `citypack: error: `.
    var message: String {
        switch self {
        case .noSuchCity(let city): "no such city directory or file: \(city)"
        case .missingInput(let m), .usage(let m), .dataErrors(let m), .ioFailure(let m): m
        case .internalError(let m): "internal error: \(m)"
        }
    }

    /// The exit status.
    var exitCode: Int32 {
        switch self {
        case .noSuchCity, .missingInput: ExitCodes.missingInput
        case .usage: ExitCodes.usage
        case .dataErrors: ExitCodes.dataErrors
        case .ioFailure: ExitCodes.ioFailure
        case .internalError: ExitCodes.software
        }
    }
}

extension Terminal {
    /// Writes `citypack: error: <message>` to stderr: the one place a CLI error is rendered.
    static func error(_ failure: CLIError) { error(message: failure.message) }

    /// Writes `citypack: error: <message>` for a failure a library reported as text (a benchmark's).
    static func error(message: String) {
        err("citypack: error: \(message)\n")
    }
}

extension CityPackCommand {
    /// Runs a parsed command; a ``CLIError`` it throws is rendered here and becomes its exit code.
    static func runReporting(_ command: inout any ParsableCommand) throws {
        do {
            try command.run()
        } catch let error as CLIError {
            Terminal.error(error)
            throw ExitCode(error.exitCode)
        }
    }

    /// The executable's entry: ArgumentParser's `main()`, with ``CLIError``s rendered by ``runReporting(_:)``.
    package static func main() {
        do {
            var command = try parseAsRoot()
            try runReporting(&command)
        } catch {
            exit(withError: error)
        }
    }
}
