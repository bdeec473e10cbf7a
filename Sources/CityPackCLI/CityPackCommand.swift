import ArgumentParser

/// The root `citypack` command.
public struct CityPackCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "citypack",
        abstract: "Compile a city's OpenStreetMap, GTFS and editorial sources into offline packs.",
        discussion: """
            Exit codes: 0 success (warnings allowed), 1 error diagnostics, 64 usage, 66 missing input,
            70 internal error, 74 I/O failure. Diagnostics and progress go to stderr, data to stdout.
            """,
        version: "0.1.0",
        subcommands: [Init.self, Build.self, Check.self, Query.self, Inspect.self, Diff.self, Catalog.self, Keygen.self, Verify.self, RulesCommand.self, Bench.self]
    )
    public init() {}
}
