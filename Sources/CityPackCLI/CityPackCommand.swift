import ArgumentParser

/// The root `citypack` command.
public struct CityPackCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "citypack",
        abstract: "Compile a city's OpenStreetMap, GTFS and editorial sources into offline packs.",
        subcommands: []
    )
    public init() {}
}
