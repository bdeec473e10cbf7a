import CityPackCompiler
import CityPackDiagnostics
import CityPackSupport
import Foundation

/// A whole build or check as a library call: plan, run, and finish — write report.json, report.html,
/// build-stats.json and the baseline, and decide the exit — exactly as `citypack build` and `citypack check` do.
/// Prints nothing: the caller renders the diagnostics and the summary from the ``BuildResult``.
///
/// `build(_:)` does it in one call; the CLI calls the three steps itself to print the plan (`--dry-run`),
/// draw progress and render between them.
package enum BuildSession {
    /// A build set up and planned, not run yet.
    package struct Prepared: Sendable {
        package var request: BuildRequest
        /// The city's folder.
        package var root: String
        /// The diagnostics of this build, with the request's rule settings and baseline.
        package var bag: DiagnosticBag
        /// The plan; nil when the city file could not be loaded (the bag says why).
        package var plan: BuildPlan?

        package init(request: BuildRequest, root: String, bag: DiagnosticBag, plan: BuildPlan?) {
            self.request = request
            self.root = root
            self.bag = bag
            self.plan = plan
        }
    }

    /// Plans, runs and finishes `request`.
    /// - Throws: ``BuildSessionError`` when the build cannot start (no city, a bad baseline).
    package static func build(_ request: BuildRequest) throws(BuildSessionError) -> BuildResult {
        let prepared = try prepare(request)
        return finish(run(prepared), prepared)
    }

    /// Loads the baseline, sets up the bag and plans the build.
    /// - Throws: ``BuildSessionError`` for a missing city or an unusable baseline.
    package static func prepare(_ request: BuildRequest) throws(BuildSessionError) -> Prepared {
        guard let root = cityRoot(request.city) else { throw .noSuchCity(request.city) }
        let bag = makeBag(request, baseline: try loadBaseline(request.baseline), root: root)
        let plan = Compiler.plan(request.buildOptions, bag: bag)
        return Prepared(request: request, root: root, bag: bag, plan: plan)
    }

    /// A city's bag, with the request's rule settings and `baseline` (loaded by ``loadBaseline(_:)``; a fleet loads
    /// it once for all its cities).
    package static func makeBag(_ request: BuildRequest, baseline: Baseline?, root: String) -> DiagnosticBag {
        // A baseline must see every finding, so the per-rule cap is lifted when one is used or written.
        let keepAll = request.baseline != nil || request.writeBaseline != nil
        let bag = DiagnosticBag(warningsAsErrors: request.warningsAsErrors, maxPerCode: keepAll ? Int.max : 1000)
        bag.pin(request.ruleSettings)
        if let baseline { bag.use(baseline: baseline, root: root) }
        return bag
    }

    /// Runs the plan (an empty report when there is none).
    package static func run(_ prepared: Prepared) -> BuildReport {
        prepared.plan.map { Compiler.run($0, bag: prepared.bag) } ?? BuildReport()
    }

    /// Writes the reports (on every run, also a failed one) and the baseline, and decides the exit.
    package static func finish(_ build: BuildReport, _ prepared: Prepared) -> BuildResult {
        let request = prepared.request, bag = prepared.bag, root = prepared.root
        var lap = TimeTrace.Lap()
        var report = DiagnosticReport(
            command: request.command, city: build.city?.id, root: root, bag: bag, baselineFile: request.baseline)
        if let fallbacks = build.copy?.fallbacks, !fallbacks.isEmpty { report.copyFallbacks = fallbacks }
        let stats = BuildStats(command: request.command, build: build, templates: build.plan?.templates)
        lap.mark("build stats (pack sizes)")
        let folder = ReportWriter.folder(
            output: request.output, city: build.city?.id ?? ((root as NSString).standardizingPath as NSString).lastPathComponent)
        var failures: [WriteFailure] = []
        do {
            let json = DiagnosticRenderer.json(report, toolVersion: toolVersion)
            let memo = HTMLReportMemo(
                build: build, json: json, output: request.output, useCache: request.useCache, hasErrors: bag.hasErrors)
            let stored = memo?.load()
            let html = stored ?? Data(HTMLReport.render(report, build: build, toolVersion: ToolIdentity.generator).utf8)
            if stored == nil { memo?.store(html) }
            lap.mark("html report")
            try ReportWriter.write(json: json, stats: stats, html: html, to: folder)
            lap.mark("write reports")
        } catch {
            failures.append(.report(folder: folder, error: "\(error)"))
        }
        if let path = request.writeBaseline {
            let written = Baseline(silencing: bag.baselined + bag.diagnostics, root: root)
            do {
                try ReportWriter.atomicWrite(Data(DiagnosticRenderer.encode(written).utf8), to: path)
            } catch {
                failures.append(.baseline(path: path, error: "\(error)"))
            }
        }
        return BuildResult(
            build: build, report: report, stats: stats, reportFolder: folder, writeFailures: failures,
            exit: exit(build, bag: bag, ioFailure: build.failure != nil || !failures.isEmpty))
    }

    /// The exit decision: an output not written, else errors (66 only for a city file that cannot be read at all;
    /// a missing source is located in it: 1), else success.
    static func exit(_ build: BuildReport, bag: DiagnosticBag, ioFailure: Bool) -> BuildExit {
        if ioFailure { return .ioFailure }
        guard bag.hasErrors else { return .success }
        let missing = bag.diagnostics.contains {
            $0.code == Rules.cityMissingSource.code && $0.severity == .error && ($0.location?.line ?? 0) == 0
        }
        return missing && build.city == nil ? .missingInput : .dataErrors
    }

    /// The folder of a city directory or city file; nil when it does not exist.
    package static func cityRoot(_ city: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: city, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? city : PathText.parent(city)
    }

    /// The baseline at `path`, loaded before any work; nil when there is none.
    package static func loadBaseline(_ path: String?) throws(BuildSessionError) -> Baseline? {
        guard let path else { return nil }
        do {
            return try Baseline.load(path: path)
        } catch {
            switch error {
            case .unreadable: throw .noSuchBaseline(path)
            case .notABaseline: throw .notABaseline(path)
            }
        }
    }

    /// The version written into reports (`citypack 0.1.0` → `0.1.0`).
    package static var toolVersion: String {
        String(ToolIdentity.generator.split(separator: " ").last ?? "0")
    }
}
