import CityPackCompiler
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loop behind `citypack build --watch` and `citypack preview`: build the city as ``BuildSession`` does (plan,
/// run, reports — whatever `build` does, a stage cache included, happens here too), then watch its sources, city
/// file and templates (``SourceWatcher``) and build again after each change, with what changed in the diagnostics
/// since the build before (``DiagnosticDelta``). SIGINT and SIGTERM stop it, after the build under way finishes,
/// so outputs are never left half-written by the watcher itself. Prints nothing: it tells its caller through
/// ``events``.
package final class BuildWatcher: @unchecked Sendable {
    /// One finished build.
    package struct Round: Sendable {
        /// 1 for the first build, then 2, 3, …
        package var number: Int
        package var build: BuildReport
        package var report: DiagnosticReport
        /// Changes since the previous round; nil for the first.
        package var delta: DiagnosticDelta?
        /// Wall time of the build, seconds.
        package var seconds: Double
        /// When it finished (wall clock).
        package var finishedAt: Date
        /// Whether this build wrote a pack (no errors and no I/O failure).
        package var packWritten: Bool
        /// The files whose change started it (empty for the first).
        package var changed: [String]
    }

    /// What the loop reports as it goes.
    package enum Event {
        /// A rebuild starts because these files changed.
        case rebuilding(changed: [String])
        /// After the first build: how many files are watched, and the city's id.
        case watching(files: Int, city: String)
        /// A rebuild (not the first build) finished.
        case rebuilt(Round)
        /// A signal stopped the loop; the process exits after this event.
        case stopped
    }

    /// The city directory or file, as given.
    package let city: String
    /// The city's folder.
    package let root: String
    /// The templates folder asked for; nil: discovered.
    package let templates: String?
    /// The output root (never watched).
    package let output: String
    /// The request of a round, by its number (the caller may quiet later rounds or draw progress).
    private let request: (Int) throws -> BuildRequest
    /// Finishes a round's build (``BuildSession/finish(_:_:)``, plus whatever the caller renders).
    private let finish: (BuildReport, BuildSession.Prepared, Int) -> BuildResult
    /// Called with each ``Event``, on the loop's thread (``Event/stopped``: on the signal's).
    package var events: @Sendable (Event) -> Void = { _ in }
    /// Serialises builds with stopping: a signal waits for the build under way.
    private let buildLock = NSLock()
    private var signalSources: [any DispatchSourceSignal] = []

    /// - Parameters:
    ///   - request: the request of round `n` (its city, templates and output should be the ones given here).
    ///   - finish: finishes a build; default ``BuildSession/finish(_:_:)``.
    package init(
        city: String, root: String, templates: String?, output: String, request: @escaping (Int) throws -> BuildRequest,
        finish: @escaping (BuildReport, BuildSession.Prepared, Int) -> BuildResult = { build, prepared, _ in
            BuildSession.finish(build, prepared)
        }
    ) {
        self.city = city
        self.root = root
        self.templates = templates
        self.output = output
        self.request = request
        self.finish = finish
    }

    /// Builds, calls `onBuild` (on this thread) after each build, and watches for changes until a signal stops
    /// the process (exit status 0). `stopped` is called, under the build lock, before the process exits.
    /// - Throws: what a round's request or ``BuildSession/prepare(_:)`` throws (``BuildSessionError``).
    package func run(onBuild: (Round) -> Void, stopped: @escaping @Sendable () -> Void = {}) throws -> Never {
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
                events(.watching(files: next.snapshot().count, city: round.build.city?.id ?? city))
            }
            guard let change = next.waitForChange(since: before.merging(added) { old, _ in old }) else { continue }
            changed = change.changed
        }
    }

    /// One build: round `number`, `changed` the files that started it; its delta from `previous`.
    package func buildOnce(number: Int, previous: Round?, changed: [String]) throws -> Round {
        buildLock.lock()
        defer { buildLock.unlock() }
        let start = ContinuousClock.now
        if number > 1 { events(.rebuilding(changed: changed)) }
        let prepared = try BuildSession.prepare(try request(number))
        let build = BuildSession.run(prepared)
        let result = finish(build, prepared, number)
        let elapsed = ContinuousClock.now - start
        var round = Round(
            number: number, build: build, report: result.report, delta: nil, seconds: SourceWatcher.seconds(elapsed),
            finishedAt: Date(), packWritten: build.emitted != nil && !result.ioFailure, changed: changed)
        if let previous {
            round.delta = DiagnosticDelta(from: previous.report.diagnostics, to: result.report.diagnostics, root: root)
            events(.rebuilt(round))
        }
        return round
    }

    /// The watcher over what a build reads: the city folder, the city file, every source it names (which may
    /// live outside the folder), the editorial and copy folders, the templates (profile, synonyms, copy) and a
    /// city profile folder; never the output folder.
    package func watcher(plan: BuildPlan?) -> SourceWatcher {
        var paths = [root]
        if let city = plan?.city {
            paths += [city.file, city.directory] + city.osmFiles + city.gtfsFeeds
            paths += [city.editorialDirectory, city.copyDirectory, city.profile].compactMap { $0 }
        }
        // The built-in templates are in the binary: nothing to watch.
        if let folder = (plan?.templates ?? TemplateLocator.locate(explicit: templates, cityPath: city)).folder {
            paths.append(folder)
        }
        return SourceWatcher(paths: paths, excluding: [output])
    }

    private func installSignalHandlers(stopped: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [buildLock, events] in
                buildLock.lock()  // let the build under way finish; never released: the process ends here
                stopped()
                events(.stopped)
                exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }
}
