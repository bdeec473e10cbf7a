import ArgumentParser
import CityPackFormat
import CityPackSupport

/// The root `citypack` command.
package struct CityPackCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "citypack",
        abstract: "Compile a city's OpenStreetMap, GTFS and editorial sources into offline packs.",
        discussion: """
            Exit codes: 0 success (warnings allowed), 1 error diagnostics remain (after --rule, the city file's \
            rules:, --baseline and --werror), 64 usage, 66 missing input, 70 internal error, 74 I/O failure. \
            Diagnostics and progress go to stderr, data to stdout; see docs/DIAGNOSTICS.md for the formats.
            """,
        version: "0.1.0",
        subcommands: [Init.self, Build.self, Check.self, Preview.self, Query.self, Inspect.self, Diff.self, Catalog.self, Publish.self, FleetCommand.self, Keygen.self, Verify.self, Install.self, Installed.self, Uninstall.self, RulesCommand.self, Bench.self]
    )
    package init() {}

    /// Runs the command line `arguments` (without the program name) in this process, as the executable would, and
    /// returns its exit code and what it wrote to stdout and stderr. Usage errors and `--help` are rendered as
    /// `main()` renders them. For tests: no crash handler is installed, and the process's environment and
    /// working directory are the caller's. Thread-safe; concurrent runs capture their outputs separately.
    package static func runInProcess(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let capture = Terminal.Capture()
        let status: Int32 = Terminal.$capture.withValue(capture) {
            do {
                var command = try parseAsRoot(arguments)
                try runReporting(&command)
                return 0
            } catch {
                let code = exitCode(for: error)
                let message = fullMessage(for: error)
                if !message.isEmpty { code == .success ? Terminal.out(message + "\n") : Terminal.err(message + "\n") }
                return code.rawValue
            }
        }
        return (status, capture.standardOutput, capture.standardError)
    }

    /// Turns crashes into exit code 70 with a message (see ``CrashHandler``). Called by the executable only,
    /// so in-process tests keep their own crash reporting.
    package static func installCrashHandler() {
        CrashHandler.install()
        TimeTrace.enable(destination: ToolEnvironment.timeTrace)
    }
}
