import ArgumentParser
import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import CityPackKit
import CityPackSupport
import Foundation

/// `citypack build <city-dir>`: ingest, validate, index and emit a pack.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
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
            var release = EmitOptions(keepVersions: keep ?? 2)
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
        } catch {
            Terminal.err("citypack: error: internal error: \(error)\n")
            throw ExitCode(ExitCodes.software)
        }
    }

    static func run(
        city: String, templates: String?, diagnostics: DiagnosticOptions, output: String, emit: Bool, dryRun: Bool,
        verbose: Bool = false, release: EmitOptions = EmitOptions(), useCache: Bool = true,
        testHooks: TestHookOptions = TestHookOptions()
    ) throws {
        let command = emit ? "build" : "check"
        defer { TimeTrace.flush() }
        var lap = TimeTrace.Lap()
        guard let root = cityRoot(city) else {
            Terminal.err("citypack: error: no such city directory or file: \(city)\n")
            throw ExitCode(ExitCodes.missingInput)
        }
        let baseline = try loadBaseline(diagnostics)
        let bag = try makeBag(diagnostics, baseline: baseline, root: root)
        let progress = ProgressLine(enabled: !diagnostics.quiet && diagnostics.format == .human)
        let options = buildOptions(
            city: city, templates: templates, output: output, emit: emit, diagnostics: diagnostics, release: release,
            progress: progress, useCache: useCache)
        let plan = Compiler.plan(options, bag: bag)
        lap.mark("plan")
        if dryRun {
            guard let plan, !bag.hasErrors else {
                let report = DiagnosticReport(command: command, city: plan?.city.id, root: root, bag: bag, baselineFile: diagnostics.baseline)
                render(report, diagnostics)
                throw ExitCode(ExitCodes.dataErrors)
            }
            Terminal.out(plan.description + "\n")
            return
        }
        try testHooks.raiseFault()

        lap = TimeTrace.Lap()
        let build = plan.map { Compiler.run($0, bag: bag) } ?? BuildReport()
        lap.mark("run")
        progress.clear()
        let outcome = finish(
            build, bag: bag, command: command, city: city, root: root, diagnostics: diagnostics, output: output,
            verbose: verbose, printReport: true)
        if outcome.ioFailure {
            throw ExitCode(ExitCodes.ioFailure)
        }
        if bag.hasErrors {
            // 66 only for a city file that cannot be read at all; a missing source is located in it: exit 1.
            let missing = bag.diagnostics.contains {
                $0.code == Rules.cityMissingSource.code && $0.severity == .error && ($0.location?.line ?? 0) == 0
            }
            throw ExitCode(missing && build.city == nil ? ExitCodes.missingInput : ExitCodes.dataErrors)
        }
    }

    /// The folder of a city directory or city file; nil when it does not exist.
    static func cityRoot(_ city: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: city, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? city : PathText.parent(city)
    }

    /// The `--baseline` file, loaded before any work: a missing or unreadable baseline is a usage problem.
    static func loadBaseline(_ diagnostics: DiagnosticOptions) throws -> Baseline? {
        guard let path = diagnostics.baseline else { return nil }
        do {
            return try Baseline.load(path: path)
        } catch .unreadable {
            Terminal.err("citypack: error: no such baseline file: \(path)\n")
            throw ExitCode(ExitCodes.missingInput)
        } catch .notABaseline {
            Terminal.err("citypack: error: \(path) is not a citypack baseline (version \(Baseline.currentVersion))\n")
            throw ExitCode(ExitCodes.usage)
        }
    }

    /// A city's bag, with the command line's rule settings and baseline.
    static func makeBag(_ diagnostics: DiagnosticOptions, baseline: Baseline?, root: String) throws -> DiagnosticBag {
        // A baseline must see every finding, so the per-rule cap is lifted when one is used or written.
        let keepAll = diagnostics.baseline != nil || diagnostics.writeBaseline != nil
        let bag = DiagnosticBag(warningsAsErrors: diagnostics.warningsAsErrors, maxPerCode: keepAll ? Int.max : 1000)
        bag.pin(try diagnostics.ruleSettings())
        if let baseline { bag.use(baseline: baseline, root: root) }
        return bag
    }

    /// What to build, from the command line and the tool's environment.
    static func buildOptions(
        city: String, templates: String?, output: String, emit: Bool, diagnostics: DiagnosticOptions, release: EmitOptions,
        progress: ProgressLine?, useCache: Bool = true
    ) -> BuildOptions {
        var options = BuildOptions(
            cityPath: city, outputDirectory: output, templatesDirectory: templates, emit: emit,
            warningsAsErrors: diagnostics.warningsAsErrors, sourceDateEpoch: ToolEnvironment.sourceDateEpoch)
        options.threads = ToolEnvironment.threads
        options.useCache = useCache
        options.release = release
        // The build stats' size breakdown, measured by the emitter on the staged database while it compresses.
        options.release.measureSizes = true
        if let progress {
            options.progress = { event in progress.update(stage: event.stage, item: event.item, done: event.done, total: event.total, unit: event.unit) }
        }
        return options
    }

    /// What ``finish`` found.
    struct Outcome {
        var ioFailure = false
        var report: DiagnosticReport
    }

    /// Renders a city's diagnostics (`printReport`: in the chosen format, else only the human summary line),
    /// writes its reports and baseline, and prints the one-line summary.
    static func finish(
        _ build: BuildReport, bag: DiagnosticBag, command: String, city: String, root: String, diagnostics: DiagnosticOptions,
        output: String, verbose: Bool, printReport: Bool
    ) -> Outcome {
        let emit = command == "build"
        var lap = TimeTrace.Lap()
        var report = DiagnosticReport(
            command: command, city: build.city?.id, root: root, bag: bag, baselineFile: diagnostics.baseline)
        if let fallbacks = build.copy?.fallbacks, !fallbacks.isEmpty { report.copyFallbacks = fallbacks }
        if printReport { render(report, diagnostics) }
        lap.mark("render diagnostics")

        // Reports are written on every run, also a failed one.
        var stats = BuildStats(command: command, build: build)
        stats.templates = build.plan?.templatesDirectory.map(TemplateLocator.describe)
        if let emitted = build.emitted {
            stats.sizes = emitted.sizes
            let m = emitted.manifest
            // Per place the pack serves: POIs, and stops for a transit pack (a transit-only pack has no POIs).
            if m.counts.pois > 0 { stats.packBytesPerPOI = (Double(m.artifact.bytes) / Double(m.counts.pois) * 10).rounded() / 10 }
            if let stops = m.counts.stops, stops > 0 { stats.packBytesPerStop = (Double(m.artifact.bytes) / Double(stops) * 10).rounded() / 10 }
        }
        lap.mark("build stats (pack sizes)")
        let folder = ReportWriter.folder(
            output: output, city: build.city?.id ?? ((root as NSString).standardizingPath as NSString).lastPathComponent)
        var ioFailure = build.failure
        do {
            let html = HTMLReport.render(report, build: build, toolVersion: Compiler.generator)
            lap.mark("html report")
            try ReportWriter.write(report, stats: stats, html: html, to: folder, toolVersion: toolVersion)
            lap.mark("write reports")
        } catch {
            Terminal.err("citypack: error: cannot write the report to \(folder): \(error)\n")
            ioFailure = ioFailure ?? "\(error)"
        }
        if let path = diagnostics.writeBaseline {
            let written = Baseline(silencing: bag.baselined + bag.diagnostics, root: root)
            do {
                try ReportWriter.atomicWrite(Data(DiagnosticRenderer.encode(written).utf8), to: path)
            } catch {
                Terminal.err("citypack: error: cannot write the baseline \(path): \(error)\n")
                ioFailure = ioFailure ?? "\(error)"
            }
        }

        if verbose {
            if let plan = build.plan, !plan.stages.isEmpty { Terminal.err("plan:\n\(plan.description)\n") }
            Terminal.err("stages:\n" + stats.verboseText)
        }
        if !diagnostics.quiet && diagnostics.format == .human {
            let summary = report.summary
            if let templates = build.plan?.templatesDirectory, BuiltInTemplates.isBuiltIn(templates) {
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
                Terminal.err("citypack: \(command) failed: \(summary)\(emit ? "; no pack was written" : "")\n")
            } else {
                let editorial = build.cards + build.routes > 0 ? ", \(build.cards) cards, \(build.routes) routes" : ""
                let stops = build.count(.stops, in: .ingest)
                Terminal.err("checked \(build.city?.id ?? city): \(Self.contents(build, pois: build.poisKept, stops: stops > 0 ? stops : nil, lines: nil, short: true))\(editorial); \(summary)\n")
            }
            if diagnostics.baseline != nil {
                for entry in report.fixed {
                    Terminal.err("citypack: note: baseline entry fixed: [\(entry.code)] \(entry.file ?? "") \(entry.entity ?? entry.message)\n")
                }
            }
        }
        return Outcome(ioFailure: ioFailure != nil, report: report)
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
    static var toolVersion: String {
        String(Compiler.generator.split(separator: " ").last ?? "0")
    }

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
