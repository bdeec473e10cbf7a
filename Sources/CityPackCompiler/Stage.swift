import CityPackIngest
import Foundation

/// What one stage of a build does. Made by ``Compiler/plan(_:bag:)``, executed by ``Compiler/run(_:bag:)``.
///
/// Paths are as the city file resolved them (relative to the working directory, or absolute).
package enum StageKind: Sendable, Hashable {
    /// Reads the OSM XML files (`.osm` or `.osm.gz`), in order, into POIs with the category profile.
    case ingestOSM(files: [String])
    /// Reads the GTFS feeds (folders or zips), in order: stops, lines, trips and timetables.
    case ingestGTFS(feeds: [String])
    /// Reads the editorial CSV folder: cards, situations, actions, walking routes and their waypoints.
    case ingestEditorial(directory: String)
    /// Reads the template copy, then the city's copy folder when it has one (its strings win).
    case ingestCopy(templates: TemplateSource, cityDirectory: String?)
    /// Runs every rule on what was read: POIs, feeds, editorial content and copy.
    case validate
    /// Indexes the POIs kept (geohash buckets, search terms), writes the pack, its manifest and copy tables, and
    /// updates the catalog under `outputDirectory` (``CityPackEmit/PackEmitter``, which builds the index as it
    /// writes the pack: the two are one stage).
    case emit(outputDirectory: String)

    /// Short name, as printed by `--dry-run` and `-v` (`ingest OSM`).
    package var name: String {
        switch self {
        case .ingestOSM: "ingest OSM"
        case .ingestGTFS: "ingest GTFS"
        case .ingestEditorial: "ingest editorial"
        case .ingestCopy: "ingest copy"
        case .validate: "validate"
        case .emit: "index+emit"
        }
    }

    /// Identifier in `build-stats.json` (`ingestOSM`).
    package var id: String {
        switch self {
        case .ingestOSM: "ingestOSM"
        case .ingestGTFS: "ingestGTFS"
        case .ingestEditorial: "ingestEditorial"
        case .ingestCopy: "ingestCopy"
        case .validate: "validate"
        case .emit: "emit"
        }
    }

    /// The phase the stage belongs to.
    package var phase: BuildPhase {
        switch self {
        case .ingestOSM, .ingestGTFS, .ingestEditorial, .ingestCopy: .ingest
        case .validate: .validate
        case .emit: .emit
        }
    }
}

/// A group of stages that share a stopping rule and one entry in `build-stats.json`'s `stages`.
package enum BuildPhase: String, Sendable, Hashable, CaseIterable {
    /// Reading the sources.
    case ingest
    /// Checking what was read.
    case validate
    /// Indexing and writing the outputs.
    case emit = "index+emit"

    /// Whether the phase's stages run after errors were reported. Reading goes on after a source failed (the
    /// other sources are still worth reading), and validation runs on whatever was read, so that one `check`
    /// shows every problem (rules that need what could not be read report `pack.rules_not_run` instead);
    /// nothing is written once there are errors.
    package var runsAfterErrors: Bool {
        switch self {
        case .ingest, .validate: true
        case .emit: false
        }
    }

    /// Counts the phase's entry in `build-stats.json` always lists, zero when no stage of the plan counted
    /// them (a city without GTFS still shows `stops: 0`).
    package var alwaysCounted: [StageCount] {
        switch self {
        case .ingest: [.bytes, .nodes, .ways, .relations, .pois, .stops, .stopTimes]
        case .validate: [.poisKept, .feeds]
        case .emit: []
        }
    }
}

/// A value a stage reads or produces: a file on disk, or something an earlier stage made.
package enum BuildArtifact: Sendable, Hashable, CustomStringConvertible {
    /// A source file or folder named by the city file (shown by its last path component).
    case source(String)
    /// The template copy folder (`<templates>/copy`).
    case templateCopy(TemplateSource)
    /// The category profile (`categories.json`, `synonyms.json`), loaded when the build is planned.
    case profile
    /// POIs read from OSM, before validation.
    case pois
    /// GTFS feeds: stops, lines, trips and timetables.
    case transit
    /// Editorial content as read: cards, situations, actions, walking routes.
    case editorial
    /// The copy table: template strings, the city's own and the fallbacks filled in.
    case copy
    /// Findings, in the build's diagnostic bag.
    case diagnostics
    /// The POIs validation keeps: those that go into the pack.
    case keptPOIs
    /// The editorial content validation keeps (routes with unresolved waypoints left out).
    case keptEditorial
    /// A file or folder the build writes.
    case output(String)

    /// How `--dry-run` and `-v` name it: a file by its last path component, an output by its path.
    package var description: String {
        switch self {
        case .source(let path): (path as NSString).lastPathComponent
        case .templateCopy: "template copy"
        case .profile: "profile"
        case .pois: "POIs"
        case .transit: "stops, timetables"
        case .editorial: "cards, routes"
        case .copy: "copy"
        case .diagnostics: "diagnostics"
        case .keptPOIs: "POIs kept"
        case .keptEditorial: "cards, routes kept"
        case .output(let path): path
        }
    }
}

/// One planned stage: what it does, what it reads and what it produces.
package struct Stage: Sendable, Hashable, CustomStringConvertible {
    /// What the stage does.
    package var kind: StageKind
    /// Files it reads and products of earlier stages it needs, in order.
    package var inputs: [BuildArtifact]
    /// What it produces, in order.
    package var outputs: [BuildArtifact]

    /// Creates a stage.
    /// - Parameters:
    ///   - kind: what the stage does.
    ///   - inputs: what it reads.
    ///   - outputs: what it produces.
    package init(_ kind: StageKind, inputs: [BuildArtifact], outputs: [BuildArtifact]) {
        self.kind = kind
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The stage's phase (see ``BuildPhase``).
    package var phase: BuildPhase { kind.phase }

    /// `ingest OSM: monaco-2021.osm.gz, profile → POIs`.
    package var description: String {
        "\(kind.name): \(inputs.map(\.description).joined(separator: ", ")) → \(outputs.map(\.description).joined(separator: ", "))"
    }
}

/// A figure a stage counts, named as in `build-stats.json` and `-v`.
package enum StageCount: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Uncompressed source bytes read.
    case bytes
    /// OSM elements read.
    case nodes, ways, relations
    /// POIs: read (ingest) or written into the pack (emit).
    case pois
    /// POIs placed from multipolygon relations (counted in `pois` too).
    case multipolygonPOIs
    /// GTFS stops and stop_times rows read.
    case stops, stopTimes
    /// Editorial cards and walking routes read.
    case cards, routes
    /// Copy strings (every locale and key, template defaults included).
    case strings
    /// POIs validation kept.
    case poisKept
    /// GTFS feeds validated.
    case feeds
    /// Size of the compressed pack.
    case packBytes

    /// Alphabetical by JSON name.
    package static func < (lhs: StageCount, rhs: StageCount) -> Bool { lhs.rawValue < rhs.rawValue }
}
