import ArgumentParser
import CityPackBuild
import CityPackCompiler
import CityPackDiagnostics
import CityPackKit
import CityPackSupport
import Foundation

/// `citypack build <city-dir>`: ingest, validate, index and emit a pack.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Compile a city into outputs/<city>/ (pack, manifest) and update outputs/catalog.json.",
        discussion: """
            Errors stop the build before the pack is written; the previous pack, manifest and catalog stay intact. \
            The report (report.json, report.html, build-stats.json) is written to outputs/<city>/ on every run.
            Exit codes: 0 built (warnings allowed), 1 error diagnostics remain (including a missing source named \
            in the city file), 64 usage, 66 city folder or city file missing, 70 internal error, 74 I/O failure \
            (e.g. an output folder that cannot be written).
            """)

    @Argument(help: "City directories (each holding city.yaml) or city files; several build a fleet.")
    var cities: [String] = []

    @Option(name: .long, help: "Templates folder (categories.json, synonyms.json). Default: $CITYPACK_TEMPLATES, else discovered.")
    var templates: String?

    @OptionGroup var diagnostics: DiagnosticOptions

    @Option(name: [.short, .long], help: "Output root folder (default: the fleet file's defaults.output, else outputs).")
    var output: String?

    @Option(name: .long, help: "A fleet file: `cities:` (a list of city folders) and optional `defaults:` (output, templates, keep).")
    var fleet: String?

    @Option(name: .long, help: "Build only share i of n of the fleet's cities (0 ≤ i < n; e.g. 0/4 … 3/4), for CI matrices and array jobs.")
    var shard: String?

    @Option(name: .long, help: "Cities of a fleet built at once (default: one per core).")
    var jobs: Int?

    @Flag(name: .long, help: "Print the build plan and exit without building.")
    var dryRun = false

    @Flag(name: [.short, .long], help: "Print the plan and per-stage timings to stderr.")
    var verbose = false

    @Option(name: .long, help: "Ed25519 private key (from `citypack keygen`) that signs the manifest and the catalog.")
    var signKey: String?

    @Option(name: .long, help: "How many previous data versions to keep beside the current one (default: the city file's keep_versions, else 2).")
    var keep: Int?

    @Flag(name: .long, help: "Keep running: rebuild when a source, the city file or a template changes, and print what changed in the diagnostics (Ctrl-C stops).")
    var watch = false

    @Flag(name: .long, help: "Neither read nor write the build cache (<output>/.cache/<city>/): every stage runs.")
    var noCache = false

    @OptionGroup var testHooks: TestHookOptions

    func validate() throws {
        if let keep, keep < 0 { throw ValidationError("--keep must be 0 or more") }
        if watch && !isSingleCity { throw ValidationError("--watch builds one city: give one city directory, without --fleet or --shard") }
        if watch && dryRun { throw ValidationError("--watch and --dry-run do not go together") }
        if cities.isEmpty && fleet == nil { throw ValidationError("give a city directory (or several), or --fleet FILE") }
        if let shard, FleetShard.parse(shard) == nil {
            throw ValidationError("--shard \(shard): expected i/n with 0 ≤ i < n, e.g. 0/4")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
    }

    /// One city, no fleet file and no shard: the single build.
    var isSingleCity: Bool { cities.count == 1 && fleet == nil && shard == nil }

    func run() throws {
        try BuildRunner.guarded {
            var release = ReleaseOptions(keepVersions: keep ?? 2)
            release.keepVersionsExplicit = keep != nil
            release.testStepDelayMicroseconds = testHooks.stepDelayMicroseconds
            if let signKey { release.signingKey = try KeyLoader.load(signKey) }
            if watch {
                try BuildWatch.run(self, release: release)
            } else if isSingleCity {
                try BuildRunner.run(
                    city: cities[0], templates: templates ?? ToolEnvironment.templates, diagnostics: diagnostics,
                    output: output ?? "outputs", emit: true, dryRun: dryRun, verbose: verbose, release: release,
                    useCache: !noCache, testHooks: testHooks)
            } else {
                var runner = FleetRunner(command: self, release: release)
                try runner.run()
            }
        }
    }
}

/// `citypack check <city-dir>`: everything but writing the pack.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a city's sources and print every problem at once; writes no pack.",
        discussion: """
            The report (report.json, report.html, build-stats.json) is written to <output>/<city>/.
            Exit codes: 0 no errors (warnings allowed), 1 error diagnostics remain, 64 usage, 66 missing input, \
            70 internal error, 74 I/O failure (writing the report).
            """)

    @OptionGroup var input: InputOptions
    @OptionGroup var diagnostics: DiagnosticOptions

    @Option(name: [.short, .long], help: "Output root folder (the report goes to <output>/<city>/).")
    var output: String = "outputs"

    @Flag(name: [.short, .long], help: "Print the plan and per-stage timings and counts to stderr.")
    var verbose = false

    @Flag(name: .long, help: "Neither read nor write the build cache (<output>/.cache/<city>/): every stage runs.")
    var noCache = false

    @OptionGroup var testHooks: TestHookOptions

    func run() throws {
        try BuildRunner.guarded {
            try BuildRunner.run(
                city: input.city, templates: input.templatesDirectory, diagnostics: diagnostics, output: output, emit: false,
                dryRun: false, verbose: verbose, useCache: !noCache, testHooks: testHooks)
        }
    }
}

/// Shared body of `build` and `check`.
enum BuildRunner {
    /// Runs `body`, turning unexpected Swift errors into exit code 70 with a message (crashes are the
    /// executable's ``CrashHandler``).
    static func guarded(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.internalError("\(error)")
        }
    }

    static func run(
        city: String, templates: String?, diagnostics: DiagnosticOptions, output: String, emit: Bool, dryRun: Bool,
        verbose: Bool = false, release: ReleaseOptions = ReleaseOptions(), useCache: Bool = true,
        testHooks: TestHookOptions = TestHookOptions()
    ) throws {
        defer { TimeTrace.flush() }
        var lap = TimeTrace.Lap()
        let progress = ProgressLine(enabled: !diagnostics.quiet && diagnostics.format == .human)
        let request = try self.request(
            city: city, templates: templates, output: output, emit: emit, diagnostics: diagnostics, release: release,
            progress: progress, useCache: useCache)
        let prepared = try prepare(request)
        lap.mark("plan")
        if dryRun {
            guard let plan = prepared.plan, !prepared.bag.hasErrors else {
                let report = DiagnosticReport(
                    command: request.command, city: prepared.plan?.city.id, root: prepared.root, bag: prepared.bag,
                    baselineFile: diagnostics.baseline)
                render(report, diagnostics)
                throw ExitCode(ExitCodes.dataErrors)
            }
            Terminal.out(plan.description + "\n")
            return
        }
        try testHooks.raiseFault()

        lap = TimeTrace.Lap()
        let build = BuildSession.run(prepared)
        lap.mark("run")
        progress.clear()
        let result = finish(build, prepared, diagnostics: diagnostics, verbose: verbose, printReport: true)
        if result.exit != .success { throw ExitCode(result.exit.rawValue) }
    }

    /// The library's request for a city, from the command line and the tool's environment.
    static func request(
        city: String, templates: String?, output: String, emit: Bool, diagnostics: DiagnosticOptions, release: ReleaseOptions,
        progress: ProgressLine?, useCache: Bool = true
    ) throws -> BuildRequest {
        var request = BuildRequest(city: city, templates: templates, output: output, emit: emit)
        request.warningsAsErrors = diagnostics.warningsAsErrors
        request.ruleSettings = try diagnostics.ruleSettings()
        request.baseline = diagnostics.baseline
        request.writeBaseline = diagnostics.writeBaseline
        request.release = release
        request.useCache = useCache
        request.threads = ToolEnvironment.threads
        request.sourceDateEpoch = ToolEnvironment.sourceDateEpoch
        if let progress {
            request.progress = { event in progress.update(stage: event.stage, item: event.item, done: event.done, total: event.total, unit: event.unit) }
        }
        return request
    }

    /// The folder of a city directory or city file; nil when it does not exist.
    static func cityRoot(_ city: String) -> String? { BuildSession.cityRoot(city) }

    /// ``BuildSession/prepare(_:)``, its errors as ``CLIError``s.
    static func prepare(_ request: BuildRequest) throws -> BuildSession.Prepared {
        do { return try BuildSession.prepare(request) } catch { throw cliError(error) }
    }

    /// ``BuildSession/loadBaseline(_:)``, its errors as ``CLIError``s.
    static func loadBaseline(_ diagnostics: DiagnosticOptions) throws -> Baseline? {
        do { return try BuildSession.loadBaseline(diagnostics.baseline) } catch { throw cliError(error) }
    }

    /// Why a build could not start, as the CLI reports it.
    static func cliError(_ error: BuildSessionError) -> CLIError {
        switch error {
        case .noSuchCity(let city): .noSuchCity(city)
        case .noSuchBaseline(let path): .missingInput("no such baseline file: \(path)")
        case .notABaseline(let path): .usage("\(path) is not a citypack baseline (version \(Baseline.currentVersion))")
        }
    }

    /// Finishes a build through the library (reports, baseline, exit decision), then renders it: the city's
    /// diagnostics (`printReport`: in the chosen format, else only the human summary line), what could not be
    /// written, and the one-line summary.
    static func finish(
        _ build: BuildReport, _ prepared: BuildSession.Prepared, diagnostics: DiagnosticOptions, verbose: Bool,
        printReport: Bool
    ) -> BuildResult {
        let result = BuildSession.finish(build, prepared)
        let report = result.report, command = prepared.request.command, bag = prepared.bag
        var lap = TimeTrace.Lap()
        if printReport { render(report, diagnostics) }
        lap.mark("render diagnostics")
        for failure in result.writeFailures { Terminal.error(.ioFailure("\(failure)")) }

        if verbose {
            if let plan = build.plan, !plan.stages.isEmpty { Terminal.err("plan:\n\(plan.description)\n") }
            Terminal.err("stages:\n" + result.stats.verboseText)
        }
        if !diagnostics.quiet && diagnostics.format == .human {
            let summary = report.summary
            if build.plan?.templates?.isBuiltIn == true {
                Terminal.err("citypack: note: using the templates built into citypack (no templates/ folder above the "
                    + "city, the working directory or the binary; --templates DIR or CITYPACK_TEMPLATES use others)\n")
            }
            if let emitted = build.emitted {
                let m = emitted.manifest
                Terminal.err(
                    "built \(m.city.id): \(Self.contents(build, pois: m.counts.pois, stops: m.counts.stops, lines: m.counts.lines)) → "
                        + "\(emitted.packPath) (\(m.artifact.bytes) bytes, data version \(m.dataVersion)"
                        + (emitted.changed ? "" : ", unchanged")
                        + (m.keyId.map { ", signed by key \($0)" } ?? "") + ")"
                        + (m.copy.map { "; \(m.counts.cards ?? 0) cards, \(m.counts.routes ?? 0) routes, \($0.count) copy files" } ?? "")
                        + (m.web.map { "; web flavour \($0.parts.reduce(0) { $0 + $1.totalBytes }) bytes in \($0.parts.count) parts" } ?? "")
                        + "; \(summary)\n")
                if (m.counts.stops ?? 0) > 0 { Self.reportReachability(emitted.manifestPath) }
            } else if bag.hasErrors {
                Terminal.err("citypack: \(command) failed: \(summary)\(prepared.request.emit ? "; no pack was written" : "")\n")
            } else {
                let editorial = build.cards + build.routes > 0 ? ", \(build.cards) cards, \(build.routes) routes" : ""
                let stops = build.count(.stops, in: .ingest)
                Terminal.err("checked \(build.city?.id ?? prepared.request.city): \(Self.contents(build, pois: build.poisKept, stops: stops > 0 ? stops : nil, lines: nil, short: true))\(editorial); \(summary)\n")
            }
            if diagnostics.baseline != nil {
                for entry in report.fixed {
                    Terminal.err("citypack: note: baseline entry fixed: [\(entry.code)] \(entry.file ?? "") \(entry.entity ?? entry.message)\n")
                }
                // Entries of rules switched off in this run were not checked: one note per rule, never "fixed".
                let unchecked = Dictionary(grouping: bag.uncheckedBaselineEntries, by: \.code)
                for code in unchecked.keys.sorted() {
                    let n = unchecked[code]?.count ?? 0
                    Terminal.err("citypack: note: \(n) baseline \(n == 1 ? "entry" : "entries") of \(code) not checked: the rule is off in this run\n")
                }
            }
        }
        return result
    }

    /// What a build holds, in the words of its sources: POIs (and the OSM nodes and ways read) for a city with OSM
    /// sources; stops, lines and the stop times read for one with GTFS feeds; both for both. `short` leaves out
    /// what was read (nodes, ways, stop times).
    static func contents(_ build: BuildReport, pois: Int, stops: Int?, lines: Int?, short: Bool = false) -> String {
        let hasOSM = !(build.city?.osmFiles.isEmpty ?? true) || pois > 0
        let hasTransit = !(build.city?.gtfsFeeds.isEmpty ?? true) || (stops ?? 0) > 0
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var parts: [String] = []
        if hasOSM || !hasTransit {
            parts.append(short ? "\(pois) POIs" : "\(pois) POIs from \(build.nodes) nodes, \(build.ways) ways")
        }
        if hasTransit {
            var transit = [plural(stops ?? 0, "stop")]
            if let lines { transit.append(plural(lines, "line")) }
            if !short { transit.append("\(build.count(.stopTimes, in: .ingest)) stop times read") }
            parts.append(transit.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    /// Per feed, the stops reachable from the busiest stop within two hours of a weekday morning: a network that
    /// falls apart (a broken feed, a wrong calendar) shows here. Best effort: a pack that does not open says so.
    static func reportReachability(_ manifestPath: String) {
        do {
            let reader = try PackReader.open(manifest: URL(fileURLWithPath: manifestPath))
            defer { reader.close() }
            for r in try reader.transit.reachability() {
                let name = r.busiestStopName.map { " (\($0))" } ?? ""
                Terminal.err(
                    "transit: feed \(r.feed): \(r.reachable) of \(r.served) served stops reachable within 2 h of 08:00 on "
                        + "\(r.date) from the busiest stop \(r.busiestStopID)\(name)\n")
            }
        } catch {
            Terminal.err("citypack: note: journeys not checked: \(error)\n")
        }
    }

    /// The version written into reports (`citypack 0.1.0` → `0.1.0`).
    static var toolVersion: String { BuildSession.toolVersion }

    static func render(_ report: DiagnosticReport, _ options: DiagnosticOptions) {
        let limits = DiagnosticRenderer.Limits(maxErrors: options.maxErrors, maxDiagnostics: options.maxDiagnostics)
        switch options.format {
        case .human:
            var human = limits
            human.maxPerRule = options.maxPerRule
            Terminal.err(DiagnosticRenderer.human(report, limits: human, colour: Terminal.colour, sources: SourceText()))
        case .json:
            Terminal.out(DiagnosticRenderer.json(report, toolVersion: toolVersion))
        case .sarif:
            Terminal.out(DiagnosticRenderer.sarif(report, toolVersion: toolVersion))
        case .github:
            Terminal.out(DiagnosticRenderer.github(report, limits: limits))
        }
    }
}
