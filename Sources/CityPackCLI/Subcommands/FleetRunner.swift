import ArgumentParser
import CityPackBuild
import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import CityPackIngest
import Foundation

/// `citypack build DIR DIR …`, `--fleet fleet.yaml`, `--shard i/n`: many cities in one run (``Fleet``).
///
/// Each city's diagnostics are rendered and its reports written as a single build's are (human and GitHub
/// formats print each city's findings in turn); then one fleet summary follows: a table on stderr, or with
/// `--format json` one JSON document on stdout (per city: status, POIs, stops, bytes, seconds, errors, warnings
/// and its report.json). Exit codes: 0 every city built, 1 a city failed (the others are built; a failed city
/// keeps its previous pack), 64 usage, 66 the fleet file is missing, 74 I/O failure.
struct FleetRunner {
    let command: Build
    var release: EmitOptions

    init(command: Build, release: EmitOptions) {
        self.command = command
        self.release = release
    }

    /// One city's line of the summary.
    struct CitySummary: Codable {
        var id: String?
        var city: String
        /// built, unchanged, failed or missing.
        var status: String
        var pois: Int
        var stops: Int
        var bytes: Int?
        var seconds: Double
        var errors: Int
        var warnings: Int
        var report: String?
    }

    /// The fleet summary (`--format json`).
    struct Summary: Codable {
        var version = 1
        var shard: String?
        var cities: [CitySummary]
        var sharedReads: [SharedRead]
        var catalog: String?
        var failed: Int
        var seconds: Double

        struct SharedRead: Codable {
            var path: String
            var cities: [String]
            var seconds: Double
            var bytes: Int64
            var megabytesPerSecond: Double
            var secondPassBlobs: Int
            var blobs: Int
        }
    }

    mutating func run() throws {
        let diagnostics = command.diagnostics
        if diagnostics.format == .sarif {
            throw CLIError.usage("--format sarif describes one city; a fleet writes each city's report.json (use --format json for the fleet summary)")
        }
        var cities = command.cities
        var output = command.output
        var templates = command.templates ?? ToolEnvironment.templates
        if let path = command.fleet {
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError.missingInput("no such fleet file: \(path)")
            }
            let bag = DiagnosticBag()
            guard let file = FleetFileLoader.load(path, bag: bag) else {
                let report = DiagnosticReport(command: "build", city: nil, root: ".", bag: bag)
                BuildRunner.render(report, diagnostics)
                throw ExitCode(ExitCodes.dataErrors)
            }
            cities += file.cities
            output = output ?? file.output
            templates = templates ?? file.templates
            if command.keep == nil, let keep = file.keep {
                release.keepVersions = keep
                release.keepVersionsExplicit = true
            }
        }
        let outputRoot = output ?? "outputs"
        var shardText: String?
        if let text = command.shard, let (index, count) = FleetShard.parse(text) {
            let names = cities.map { ($0 as NSString).standardizingPath }
            let mine = FleetShard.assign(weights: FleetShard.weights(of: cities), names: names, index: index, count: count)
            cities = mine.map { cities[$0] }
            shardText = text
        }
        release.writeCatalog = false

        // One bag per city; cities whose folder is missing fail at once.
        let baseline = try BuildRunner.loadBaseline(diagnostics)
        var members: [FleetCity] = []
        var roots: [String?] = []
        var requests: [BuildRequest] = []
        for city in cities {
            let root = BuildRunner.cityRoot(city)
            roots.append(root)
            let request = try BuildRunner.request(
                city: city, templates: templates, output: outputRoot, emit: true, diagnostics: diagnostics, release: release,
                progress: nil)
            let bag = BuildSession.makeBag(request, baseline: baseline, root: root ?? city)
            requests.append(request)
            members.append(FleetCity(options: request.buildOptions, bag: bag))
        }
        let present = members.indices.filter { roots[$0] != nil }
        let fleet = Fleet.run(present.map { members[$0] }, outputDirectory: outputRoot, concurrency: command.jobs)

        var summaries: [CitySummary] = []
        var ioFailure = fleet.catalogFailure != nil
        for (i, city) in cities.enumerated() {
            guard let root = roots[i], let slot = present.firstIndex(of: i) else {
                Terminal.error(.noSuchCity(city))
                summaries.append(
                    CitySummary(city: city, status: "missing", pois: 0, stops: 0, seconds: 0, errors: 1, warnings: 0))
                continue
            }
            let build = fleet.cities[slot]
            let bag = members[i].bag
            let prepared = BuildSession.Prepared(request: requests[i], root: root, bag: bag, plan: build.plan)
            let outcome = BuildRunner.finish(
                build, prepared, diagnostics: diagnostics, verbose: command.verbose, printReport: diagnostics.format != .json)
            ioFailure = ioFailure || outcome.ioFailure
            let emitted = build.emitted
            let id = build.city?.id
            summaries.append(
                CitySummary(
                    id: id, city: city,
                    status: emitted.map { $0.changed ? "built" : "unchanged" } ?? "failed",
                    pois: emitted?.manifest.counts.pois ?? build.poisKept,
                    stops: emitted?.manifest.counts.stops ?? 0,
                    bytes: emitted.map { $0.manifest.artifact.bytes },
                    seconds: BuildStats.milliseconds(fleet.seconds[slot]),
                    errors: outcome.report.errors, warnings: outcome.report.warnings,
                    report: ReportWriter.folder(output: outputRoot, city: id ?? (root as NSString).lastPathComponent) + "/report.json"))
        }
        if let failure = fleet.catalogFailure {
            Terminal.error(.ioFailure("cannot write the catalog of \(outputRoot): \(failure)"))
        }
        let failed = summaries.filter { $0.status == "failed" || $0.status == "missing" }.count
        let summary = Summary(
            shard: shardText, cities: summaries,
            sharedReads: fleet.sharedReads.map {
                Summary.SharedRead(
                    path: $0.path, cities: $0.cities, seconds: BuildStats.milliseconds($0.seconds), bytes: $0.figures.fileBytes,
                    megabytesPerSecond: ($0.seconds > 0 ? Double($0.figures.fileBytes) / 1e6 / $0.seconds * 10 : 0).rounded() / 10,
                    secondPassBlobs: $0.figures.secondPassBlobs, blobs: $0.figures.blobs)
            },
            catalog: fleet.catalogPath, failed: failed, seconds: BuildStats.milliseconds(fleet.totalSeconds))
        if diagnostics.format == .json {
            Terminal.out(DiagnosticRenderer.encode(summary))
        } else if !diagnostics.quiet {
            Terminal.err(Self.table(summary))
        }
        if ioFailure { throw ExitCode(ExitCodes.ioFailure) }
        if failed > 0 { throw ExitCode(ExitCodes.dataErrors) }
    }

    /// The human summary: one line for the fleet, one per shared read, a table of cities.
    static func table(_ s: Summary) -> String {
        let built = s.cities.filter { $0.status == "built" || $0.status == "unchanged" }.count
        var out = "fleet\(s.shard.map { " shard \($0)" } ?? ""): \(s.cities.count) cities, \(built) built, \(s.failed) failed in "
            + String(format: "%.1f s", s.seconds) + (s.catalog.map { "; catalog \($0)" } ?? "") + "\n"
        for read in s.sharedReads {
            out += "  read \(read.path) once for \(read.cities.count) \(read.cities.count == 1 ? "city" : "cities"): "
                + String(format: "%.1f s, %.1f MB/s", read.seconds, read.megabytesPerSecond)
                + " (\(read.secondPassBlobs) of \(read.blobs) blobs read again for nodes outside the boxes)\n"
        }
        let rows = [["city", "status", "POIs", "stops", "bytes", "time", "errors", "warnings"]]
            + s.cities.map {
                [$0.id ?? $0.city, $0.status, "\($0.pois)", "\($0.stops)", $0.bytes.map(String.init) ?? "-",
                 String(format: "%.1f s", $0.seconds), "\($0.errors)", "\($0.warnings)"]
            }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            out += "  " + row.enumerated().map { c, cell in
                c <= 1 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ") + "\n"
        }
        return out
    }
}
