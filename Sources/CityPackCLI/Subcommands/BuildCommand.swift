import ArgumentParser
import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import Foundation

/// `citypack build <city-dir>`: ingest, validate, index and emit a pack.
struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compile a city into outputs/<city>/ (pack, manifest) and update outputs/catalog.json.",
        discussion: """
            Errors stop the build before anything is written; the previous pack, manifest and catalog stay intact.
            Exit codes: 0 built (warnings allowed), 1 error diagnostics, 64 usage, 66 missing input, 74 I/O failure.
            """)

    @OptionGroup var input: InputOptions
    @OptionGroup var diagnostics: DiagnosticOptions

    @Option(name: [.short, .long], help: "Output root folder.")
    var output: String = "outputs"

    @Flag(name: .long, help: "Print the build plan and exit without building.")
    var dryRun = false

    @Flag(name: [.short, .long], help: "Print the plan and per-stage timings to stderr.")
    var verbose = false

    @Option(name: .long, help: "Ed25519 private key (from `citypack keygen`) that signs the manifest and the catalog.")
    var signKey: String?

    @Option(name: .long, help: "How many previous data versions to keep beside the current one.")
    var keep: Int = 2

    func validate() throws {
        if keep < 0 { throw ValidationError("--keep must be 0 or more") }
    }

    func run() throws {
        var release = EmitOptions(keepVersions: keep)
        if let signKey { release.signingKey = try KeyLoader.load(signKey) }
        try BuildRunner.run(
            input: input, diagnostics: diagnostics, output: output, emit: true, dryRun: dryRun, verbose: verbose,
            release: release)
    }
}

/// `citypack check <city-dir>`: everything but writing.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a city's sources and print every problem at once; writes nothing.",
        discussion: "Exit codes: 0 no errors (warnings allowed), 1 error diagnostics, 64 usage, 66 missing input.")

    @OptionGroup var input: InputOptions
    @OptionGroup var diagnostics: DiagnosticOptions

    func run() throws {
        try BuildRunner.run(input: input, diagnostics: diagnostics, output: "outputs", emit: false, dryRun: false)
    }
}

/// Shared body of `build` and `check`.
enum BuildRunner {
    static func run(
        input: InputOptions, diagnostics: DiagnosticOptions, output: String, emit: Bool, dryRun: Bool, verbose: Bool = false,
        release: EmitOptions = EmitOptions()
    ) throws {
        guard FileManager.default.fileExists(atPath: input.city) else {
            Terminal.err("citypack: error: no such city directory or file: \(input.city)\n")
            throw ExitCode(ExitCodes.missingInput)
        }
        let bag = DiagnosticBag(warningsAsErrors: diagnostics.warningsAsErrors)
        let progress = ProgressLine(enabled: !diagnostics.quiet && diagnostics.format == .human)
        var options = BuildOptions(
            cityPath: input.city, outputDirectory: output, templatesDirectory: input.templates, emit: emit && !dryRun,
            warningsAsErrors: diagnostics.warningsAsErrors)
        options.release = release
        options.progress = { event in progress.update(stage: event.stage, item: event.item, done: event.done, total: event.total) }
        if dryRun {
            options.emit = true
        }
        let report: BuildReport
        if dryRun {
            guard let city = CityPackIngestBridge.loadCity(input.city, bag: bag) else {
                render(bag, diagnostics)
                throw ExitCode(ExitCodes.dataErrors)
            }
            Terminal.out(Compiler.plan(for: city, options: options).description + "\n")
            return
        } else {
            report = Compiler.build(options, bag: bag)
        }
        progress.clear()
        render(bag, diagnostics)
        if verbose {
            if let plan = report.plan { Terminal.err("plan:\n\(plan.description)\n") }
            for (stage, seconds) in report.timings {
                Terminal.err(String(format: "  %-12@ %8.3f s\n", stage as NSString, seconds))
            }
        }

        if !diagnostics.quiet && diagnostics.format == .human {
            let summary = DiagnosticRenderer.summary(
                errors: bag.errorCount, warnings: bag.warningCount,
                infos: bag.diagnostics.filter { $0.severity == .info }.count, suppressed: bag.suppressed)
            if let emitted = report.emitted {
                let m = emitted.manifest
                Terminal.err(
                    "built \(m.city.id): \(m.counts.pois) POIs from \(report.nodes) nodes, \(report.ways) ways → "
                        + "\(emitted.packPath) (\(m.artifact.bytes) bytes, data version \(m.dataVersion)"
                        + (emitted.changed ? "" : ", unchanged")
                        + (m.keyId.map { ", signed by key \($0)" } ?? "") + "); \(summary)\n")
            } else if bag.hasErrors {
                Terminal.err("citypack: \(emit ? "build" : "check") failed: \(summary)\(emit ? "; nothing was written" : "")\n")
            } else {
                Terminal.err("checked \(report.city?.id ?? input.city): \(report.poisKept) POIs; \(summary)\n")
            }
        }
        if let failure = report.failure {
            _ = failure
            throw ExitCode(ExitCodes.ioFailure)
        }
        if bag.hasErrors {
            let missing = bag.diagnostics.contains { $0.code == Rules.cityMissingSource.code && $0.severity == .error }
            throw ExitCode(missing && report.city == nil ? ExitCodes.missingInput : ExitCodes.dataErrors)
        }
    }

    static func render(_ bag: DiagnosticBag, _ options: DiagnosticOptions) {
        let all = bag.diagnostics
        switch options.format {
        case .human:
            Terminal.err(DiagnosticRenderer.human(all, limit: options.maxDiagnostics, colour: Terminal.stderrIsTTY))
        case .json:
            Terminal.out(DiagnosticRenderer.json(all, errors: bag.errorCount, warnings: bag.warningCount))
        case .sarif:
            Terminal.out(DiagnosticRenderer.sarif(all, toolVersion: Compiler.generator))
        case .github:
            Terminal.out(DiagnosticRenderer.github(all))
        }
    }
}
