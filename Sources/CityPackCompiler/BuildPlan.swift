import CityPackCache
import CityPackEmit
import CityPackFormat
import CityPackIngest
import CityPackModel
import Foundation

/// The stages of one build, in order, decided before anything runs (swift-driver's `planBuild()`): made by
/// ``Compiler/plan(_:bag:)`` from the city file and the category profile, printed by `--dry-run` and `-v`,
/// executed by ``Compiler/run(_:bag:)``, which runs exactly these stages and records each one's time and counts.
package struct BuildPlan: Sendable, CustomStringConvertible {
    /// What to build and how.
    package var options: BuildOptions
    /// The city, as its city file describes it.
    package var city: City
    /// The templates (category profile, synonyms, template copy): a folder, or the built-in ones; nil before
    /// planning got that far.
    package var templates: TemplateSource?
    /// The category profile every stage maps and checks with; nil when it could not be loaded (reported), and
    /// then the plan has no stages.
    package var profile: TemplatePOIProfile?
    /// The parsed synonyms for the build cache, stored when the build ends without errors (``ProfileMemo``).
    var profileStore: (entry: String, key: CacheKey, payload: [UInt8])?
    /// The stages, in execution order.
    package var stages: [Stage]

    /// The kinds of the stages, in order.
    package var kinds: [StageKind] { stages.map(\.kind) }

    /// One numbered line per stage: `1. ingest OSM: monaco-2021.osm.gz, profile → POIs`.
    package var description: String {
        stages.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }

    /// The stages that build `city`: one ingest stage per kind of source the city has (copy always, for the
    /// template strings), validation, the field-column lookup, and for a build (not a check) index+emit.
    /// - Parameters:
    ///   - city: the loaded city.
    ///   - templates: the templates (their `copy/` holds the template strings).
    ///   - options: `emit` and the output folder.
    static func stages(for city: City, templates: TemplateSource, options: BuildOptions) -> [Stage] {
        var stages: [Stage] = []
        if !city.osmFiles.isEmpty {
            stages.append(Stage(.ingestOSM(files: city.osmFiles), inputs: city.osmFiles.map(BuildArtifact.source) + [.profile], outputs: [.pois]))
        }
        if !city.gtfsFeeds.isEmpty {
            stages.append(Stage(.ingestGTFS(feeds: city.gtfsFeeds), inputs: city.gtfsFeeds.map(BuildArtifact.source), outputs: [.transit]))
        }
        if let directory = city.editorialDirectory {
            stages.append(Stage(.ingestEditorial(directory: directory), inputs: [.source(directory)], outputs: [.editorial]))
        }
        let templateCopy = templates.subfolder("copy")
        stages.append(
            Stage(
                .ingestCopy(templates: templateCopy, cityDirectory: city.copyDirectory),
                inputs: [.templateCopy(templateCopy)] + (city.copyDirectory.map { [.source($0)] } ?? []), outputs: [.copy]))

        let read = stages.flatMap(\.outputs)
        let kept: [BuildArtifact] = [.keptPOIs] + (read.contains(.editorial) ? [.keptEditorial] : [])
        stages.append(Stage(.validate, inputs: read + [.profile], outputs: [.diagnostics] + kept))

        if options.emit {
            let cityFolder = (options.outputDirectory as NSString).appendingPathComponent(city.id)
            func output(_ name: String, in folder: String = cityFolder) -> BuildArtifact {
                .output((folder as NSString).appendingPathComponent(name))
            }
            let packed = kept + read.filter { $0 == .transit || $0 == .copy }
            stages.append(
                Stage(
                    .emit(outputDirectory: options.outputDirectory),
                    // The manifest lists every source with its hash (computed on a second core from the start).
                    inputs: packed + [.profile] + hashedSources(of: city).map(BuildArtifact.source),
                    outputs: [
                        output("\(city.id)-N\(PackSchema.packSuffix)"), output("\(city.id)-N\(PackEmitter.versionedManifestSuffix)"),
                        output(PackSchema.manifestName), output("copy/"), output("\(WebFlavour.folder)/"),
                        output(PackSchema.catalogName, in: options.outputDirectory),
                    ]))
        }
        return stages
    }

    /// The files and folders whose hashes the manifest lists, in manifest order.
    static func hashedSources(of city: City) -> [String] {
        city.osmFiles + city.gtfsFeeds + [city.editorialDirectory, city.copyDirectory].compactMap { $0 }
    }
}
