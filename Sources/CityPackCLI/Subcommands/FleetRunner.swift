import ArgumentParser
import CityPackBuild
import Foundation

/// `citypack build DIR DIR …`, `--fleet fleet.yaml`, `--shard i/n`: many cities in one run (``FleetSession``).
///
/// Each city's diagnostics are rendered and its reports written as a single build's are (human and GitHub
/// formats print each city's findings in turn); then one fleet summary follows: a table on stderr, or with
/// `--format json` one JSON document on stdout (per city: status, POIs, stops, bytes, seconds, errors, warnings
/// and its report.json). Exit codes: 0 every city built, 1 a city failed (the others are built; a failed city
/// keeps its previous pack), 64 usage, 66 the fleet file or a city is missing (the others are built), 74 I/O failure.
struct FleetRunner {
    let command: Build
    var release: ReleaseOptions

    init(command: Build, release: ReleaseOptions) {
        self.command = command
        self.release = release
    }

    mutating func run() throws {
        let diagnostics = command.diagnostics
        if diagnostics.format == .sarif {
            throw CLIError.usage("--format sarif describes one city; a fleet writes each city's report.json (use --format json for the fleet summary)")
        }
        let base = try BuildRunner.request(
            city: "", templates: command.templates ?? ToolEnvironment.templates, output: "outputs", emit: true,
            diagnostics: diagnostics, release: release, progress: nil)
        var request = FleetSession.Request(cities: command.cities, base: base)
        request.fleetFile = command.fleet
        request.shard = command.shard
        request.jobs = command.jobs
        request.output = command.output
        let outcome: FleetSession.Outcome
        do {
            outcome = try FleetSession.run(
                request,
                finish: { build, prepared in
                    BuildRunner.finish(
                        build, prepared, diagnostics: diagnostics, verbose: command.verbose,
                        printReport: diagnostics.format != .json)
                },
                events: { event in
                    switch event {
                    case .missingCity(let city): Terminal.error(.noSuchCity(city))
                    case .catalogNotWritten(let output, let failure):
                        Terminal.error(.ioFailure("cannot write the catalog of \(output): \(failure)"))
                    }
                })
        } catch {
            switch error {
            case .noSuchFleetFile(let path): throw CLIError.missingInput("no such fleet file: \(path)")
            case .invalidFleetFile(let bag):
                BuildRunner.render(DiagnosticReport(command: "build", city: nil, root: ".", bag: bag), diagnostics)
                throw ExitCode(ExitCodes.dataErrors)
            case .session(let error): throw BuildRunner.cliError(error)
            }
        }
        if diagnostics.format == .json {
            Terminal.out(DiagnosticRenderer.encode(outcome.summary))
        } else if !diagnostics.quiet {
            Terminal.err(Self.table(outcome.summary))
        }
        if outcome.exit == .ioFailure { throw ExitCode(outcome.exit.rawValue) }
        // A city that does not exist is a missing input (README's table: 66), as for a single city; the other
        // cities are still built.
        if outcome.summary.cities.contains(where: { $0.status == "missing" }) { throw ExitCode(ExitCodes.missingInput) }
        if outcome.exit != .success { throw ExitCode(outcome.exit.rawValue) }
    }

    /// The human summary: one line for the fleet, one per shared read, a table of cities.
    static func table(_ s: FleetSession.Summary) -> String {
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
