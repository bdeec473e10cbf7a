import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loop behind `citypack build --watch` and `citypack preview`: build the city as `citypack build` does
/// (``BuildRunner``'s plan, run and report steps, so whatever `build` does — reports, atomic outputs, a stage
/// cache — happens here too), then watch its sources, city file and templates (``SourceWatcher``) and
/// build again after each change, printing only what changed in the diagnostics since the build before
/// (``DiagnosticDelta``) and a one-line summary. SIGINT and SIGTERM stop it, after the build under way
/// finishes, so outputs are never left half-written by the watcher itself.
final class CityWatch: @unchecked Sendable {
    /// One finished build.
    struct Round {
        /// 1 for the first build, then 2, 3, …
        var number: Int
        var build: BuildReport
        var report: DiagnosticReport
        /// Changes since the previous round; nil for the first.
        var delta: DiagnosticDelta?
        /// Wall time of the build, seconds.
        var seconds: Double
        /// When it finished (wall clock).
        var finishedAt: Date
        /// Whether this build wrote a pack (no errors and no I/O failure).
        var packWritten: Bool
        /// The files whose change started it (empty for the first).
        var changed: [String]
    }

    let city: String
    let root: String
    let templates: String?
    let diagnostics: DiagnosticOptions
    let output: String
    let release: EmitOptions
    /// Whether the builds read and write the build cache (`--no-cache` turns it off).
    let useCache: Bool
    /// Whether rebuilds print their delta and summary (`bench --incremental` times them silently).
    var printsRounds = true
    /// Serialises builds with stopping: a signal waits for the build under way.
    private let buildLock = NSLock()
    private var signalSources: [any DispatchSourceSignal] = []

    init(
        city: String, root: String, templates: String?, diagnostics: DiagnosticOptions, output: String, release: EmitOptions,
        useCache: Bool = true
    ) {
        self.useCache = useCache
        self.city = city
        self.root = root
        self.templates = templates
        self.diagnostics = diagnostics
        self.output = output
        self.release = release
    }

    /// Builds, calls `onBuild` (on this thread) after each build, and watches for changes until a signal stops
    /// the process (exit status 0). `stopped` is called, under the build lock, before the process exits.
    func run(onBuild: (Round) -> Void, stopped: @escaping @Sendable () -> Void = {}) throws -> Never {
        installSignalHandlers(stopped: stopped)
        var previous: Round?
        var changed: [String] = []
        while true {
            // Taken before the build, so an edit made while it runs starts the next one.
            let watched = watcher(plan: previous?.build.plan)
            let before = watched.snapshot()
            let round = try buildOnce(number: (previous?.number ?? 0) + 1, previous: previous, changed: changed)
            onBuild(round)
            previous = round
            // From now on, what the new plan reads (a city file edit may name other sources): paths it adds are
            // compared from now, the others from before the build.
            var next = watcher(plan: round.build.plan)
            let added = SourceWatcher(paths: next.paths.filter { !watched.paths.contains($0) }, excluding: next.excluded).snapshot()
            next.paths = Array(Set(next.paths + watched.paths)).sorted()
            if round.number == 1 {
                Terminal.err("citypack: watching \(next.snapshot().count) files of \(round.build.city?.id ?? city) for changes (Ctrl-C stops)\n")
            }
            guard let change = next.waitForChange(since: before.merging(added) { old, _ in old }) else { continue }
            changed = change.changed
        }
    }

    /// One build, rendered like `citypack build` the first time and as a delta afterwards.
    func buildOnce(number: Int, previous: Round?, changed: [String]) throws -> Round {
        buildLock.lock()
        defer { buildLock.unlock() }
        let start = ContinuousClock.now
        if number > 1 && printsRounds {
            let what = changed.prefix(3).map { Self.display($0) }.joined(separator: ", ") + (changed.count > 3 ? " and \(changed.count - 3) more" : "")
            Terminal.err("citypack: \(what.isEmpty ? "a source" : what) changed; rebuilding\n")
        }
        // The first build prints everything `build` prints; later ones print only the delta and a summary.
        var options = diagnostics
        if number > 1 { options.quiet = true }
        let baseline = try BuildRunner.loadBaseline(options)
        let bag = try BuildRunner.makeBag(options, baseline: baseline, root: root)
        let progress = ProgressLine(enabled: !options.quiet && options.format == .human)
        let buildOptions = BuildRunner.buildOptions(
            city: city, templates: templates, output: output, emit: true, diagnostics: options, release: release,
            progress: progress, useCache: useCache)
        let plan = Compiler.plan(buildOptions, bag: bag)
        let build = plan.map { Compiler.run($0, bag: bag) } ?? BuildReport()
        progress.clear()
        let outcome = BuildRunner.finish(
            build, bag: bag, command: "build", city: city, root: root, diagnostics: options, output: output,
            verbose: false, printReport: number == 1)
        let elapsed = ContinuousClock.now - start
        var round = Round(
            number: number, build: build, report: outcome.report, delta: nil, seconds: SourceWatcher.seconds(elapsed),
            finishedAt: Date(), packWritten: build.emitted != nil && !outcome.ioFailure, changed: changed)
        if let previous {
            let delta = DiagnosticDelta(from: previous.report.diagnostics, to: outcome.report.diagnostics, root: root)
            round.delta = delta
            if printsRounds { Terminal.err(delta.lines.map { $0 + "\n" }.joined() + Self.summary(round)) }
        }
        return round
    }

    /// `rebuilt monaco in 1.24 s: 1 new, 0 fixed; 1 error, 19 warnings in 2 files; no pack written, the previous one stays`
    static func summary(_ round: Round) -> String {
        let delta = round.delta ?? DiagnosticDelta(from: [], to: [], root: "")
        var text = "rebuilt \(round.build.city?.id ?? "city") in \(String(format: "%.2f", round.seconds)) s: "
        text += "\(delta.new.count) new, \(delta.fixed.count) fixed; \(round.report.summary); "
        if let emitted = round.build.emitted, round.packWritten {
            text += "pack data version \(emitted.manifest.dataVersion)\(emitted.changed ? "" : ", unchanged")"
        } else {
            text += "no pack written, the previous one stays"
        }
        return text + "\n"
    }

    /// The watcher over what a build reads: the city folder, the city file, every source it names (which may
    /// live outside the folder), the editorial and copy folders, the templates (profile, synonyms, copy) and a
    /// city profile folder; never the output folder.
    func watcher(plan: BuildPlan?) -> SourceWatcher {
        var paths = [root]
        if let city = plan?.city {
            paths += [city.file, city.directory] + city.osmFiles + city.gtfsFeeds
            paths += [city.editorialDirectory, city.copyDirectory, city.profile].compactMap { $0 }
        }
        if let templates = plan?.templatesDirectory ?? TemplateLocator.locate(explicit: templates, cityPath: city) {
            paths.append(templates)
        }
        return SourceWatcher(paths: paths, excluding: [output])
    }

    /// A path as printed: relative to the working directory when inside it.
    static func display(_ path: String) -> String {
        let cwd = SourceWatcher.absolute(FileManager.default.currentDirectoryPath)
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    private func installSignalHandlers(stopped: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [buildLock] in
                buildLock.lock()  // let the build under way finish; never released: the process ends here
                stopped()
                Terminal.err("citypack: stopped\n")
                exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }
}
