import ArgumentParser

/// The root `citypack` command.
public struct CityPackCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "citypack",
        abstract: "Compile a city's OpenStreetMap, GTFS and editorial sources into offline packs.",
        discussion: """
            Exit codes: 0 success (warnings allowed), 1 error diagnostics remain (after --rule, the city file's
            rules:, --baseline and --werror), 64 usage, 66 missing input, 70 internal error, 74 I/O failure.
            Diagnostics and progress go to stderr, data to stdout; see docs/DIAGNOSTICS.md for the formats.
            """,
        version: "0.1.0",
        subcommands: [Init.self, Build.self, Check.self, Query.self, Inspect.self, Diff.self, Catalog.self, Keygen.self, Verify.self, RulesCommand.self, Bench.self]
    )
    public init() {}

    /// Turns crashes into exit code 70 with a message (see ``CrashHandler``). Called by the executable only,
    /// so in-process tests keep their own crash reporting.
    public static func installCrashHandler() { CrashHandler.install() }
}
