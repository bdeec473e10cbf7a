import ArgumentParser
import CityPackBuild
import Foundation

/// `citypack build --watch <city>`: the first build prints what `build` prints; after that, each rebuild prints
/// only the diagnostics that are new and those that were fixed, then a one-line summary (``CityWatch``).
enum BuildWatch {
    static func run(_ command: Build, release: ReleaseOptions) throws {
        let city = command.cities[0]
        guard let root = BuildRunner.cityRoot(city) else {
            throw CLIError.noSuchCity(city)
        }
        let watch = CityWatch(
            city: city, root: root, templates: command.templates ?? ToolEnvironment.templates, diagnostics: command.diagnostics,
            output: command.output ?? "outputs", release: release, useCache: !command.noCache)
        try watch.run(onBuild: { _ in })
    }
}
