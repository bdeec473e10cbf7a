import CityPackBuild
import CityPackCompiler
import Foundation

/// `citypack build --watch` and `citypack preview`'s rendering of the library's watch loop (``BuildWatcher``): the
/// first build prints what `build` prints; each rebuild prints what changed, only the diagnostics that are new and
/// those that were fixed (``DiagnosticDelta``), and a one-line summary.
final class CityWatch: @unchecked Sendable {
    /// One finished build.
    typealias Round = BuildWatcher.Round

    /// The library's loop.
    let watcher: BuildWatcher
    /// Whether rebuilds print their delta and summary (`bench --incremental` times them silently).
    var printsRounds = true

    init(
        city: String, root: String, templates: String?, diagnostics: DiagnosticOptions, output: String, release: ReleaseOptions,
        useCache: Bool = true
    ) {
        // The first build prints everything `build` prints; later ones print only the delta and a summary.
        func options(_ number: Int) -> DiagnosticOptions {
            var options = diagnostics
            if number > 1 { options.quiet = true }
            return options
        }
        let progress = ProgressLine(enabled: !diagnostics.quiet && diagnostics.format == .human)
        watcher = BuildWatcher(
            city: city, root: root, templates: templates, output: output,
            request: { number in
                try BuildRunner.request(
                    city: city, templates: templates, output: output, emit: true, diagnostics: options(number),
                    release: release, progress: number == 1 ? progress : nil, useCache: useCache)
            },
            finish: { build, prepared, number in
                progress.clear()
                return BuildRunner.finish(build, prepared, diagnostics: options(number), verbose: false, printReport: number == 1)
            })
        watcher.events = { [weak self] event in self?.render(event) }
    }

    /// Builds and watches until a signal stops the process (``BuildWatcher/run(onBuild:stopped:)``).
    func run(onBuild: (Round) -> Void, stopped: @escaping @Sendable () -> Void = {}) throws -> Never {
        do {
            try watcher.run(onBuild: onBuild, stopped: stopped)
        } catch let error as BuildSessionError {
            throw BuildRunner.cliError(error)
        }
    }

    /// One build (``BuildWatcher/buildOnce(number:previous:changed:)``).
    func buildOnce(number: Int, previous: Round?, changed: [String]) throws -> Round {
        do {
            return try watcher.buildOnce(number: number, previous: previous, changed: changed)
        } catch let error as BuildSessionError {
            throw BuildRunner.cliError(error)
        }
    }

    /// Prints an event of the loop.
    private func render(_ event: BuildWatcher.Event) {
        switch event {
        case .rebuilding(let changed):
            guard printsRounds else { return }
            let what = changed.prefix(3).map { Self.display($0) }.joined(separator: ", ") + (changed.count > 3 ? " and \(changed.count - 3) more" : "")
            Terminal.err("citypack: \(what.isEmpty ? "a source" : what) changed; rebuilding\n")
        case .watching(let files, let city):
            Terminal.err("citypack: watching \(files) files of \(city) for changes (Ctrl-C stops)\n")
        case .rebuilt(let round):
            guard printsRounds, let delta = round.delta else { return }
            Terminal.err(delta.lines.map { $0 + "\n" }.joined() + Self.summary(round))
        case .stopped:
            Terminal.err("citypack: stopped\n")
        }
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

    /// A path as printed: relative to the working directory when inside it.
    static func display(_ path: String) -> String {
        let cwd = SourceWatcher.absolute(FileManager.default.currentDirectoryPath)
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }
}
