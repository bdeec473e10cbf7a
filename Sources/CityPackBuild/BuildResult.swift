import CityPackCompiler
import CityPackDiagnostics

/// Why a build could not start: nothing was built and no report was written.
package enum BuildSessionError: Error, Equatable, Sendable {
    /// The city directory or city file does not exist.
    case noSuchCity(String)
    /// The `--baseline` file cannot be read.
    case noSuchBaseline(String)
    /// The `--baseline` file is not a baseline of ``Baseline/currentVersion``.
    case notABaseline(String)
}

/// A report or baseline file that could not be written. The build went on; its exit is ``BuildExit/ioFailure``.
package enum WriteFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case report(folder: String, error: String)
    case baseline(path: String, error: String)

    /// `cannot write the report to outputs/monaco: …`.
    package var description: String {
        switch self {
        case .report(let folder, let error): "cannot write the report to \(folder): \(error)"
        case .baseline(let path, let error): "cannot write the baseline \(path): \(error)"
        }
    }
}

/// How a finished build ends, as the exit status `citypack build` and `check` return (README's exit codes).
package enum BuildExit: Int32, Sendable {
    /// Built or checked, warnings allowed.
    case success = 0
    /// Error diagnostics remain.
    case dataErrors = 1
    /// The city file could not be read at all.
    case missingInput = 66
    /// An output (pack, report, baseline) could not be written.
    case ioFailure = 74
}

/// Everything a finished build or check produced besides the files it wrote: the diagnostics report (what
/// report.json holds), the build stats (build-stats.json), what could not be written and the exit decision.
package struct BuildResult: Sendable {
    /// The compiler's report: plan, stage records, the city, the emitted pack.
    package var build: BuildReport
    /// The diagnostics after rule settings and baseline, with their totals.
    package var report: DiagnosticReport
    /// Stage timings and counts, pack sizes.
    package var stats: BuildStats
    /// Where the reports went: `<output>/<city>/`.
    package var reportFolder: String
    /// Reports or baseline that could not be written, in order.
    package var writeFailures: [WriteFailure]
    /// The exit decision.
    package var exit: BuildExit

    /// Whether an output could not be written (the pack, a report or the baseline).
    package var ioFailure: Bool { exit == .ioFailure }
}
