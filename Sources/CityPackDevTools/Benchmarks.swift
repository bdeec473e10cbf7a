import Foundation

/// The measurements behind `citypack bench` that run `citypack` (and other tools) as child processes: builds of an
/// OSM extract beside xmllint and osmium, `check` on GTFS beside gtfs-guru and on feeds too big to hold, fleets cut
/// from a country, the build cache's incremental rebuilds and the osm-testdata conformance table. The CLI parses
/// the flags, calls one driver and renders a ``BenchFailure``; the drivers write their tables to
/// ``BenchOutput/out`` and their progress notes to ``BenchOutput/err`` (the formats `citypack bench` prints).
/// One driver at a time.
package struct Benchmarks {
    /// Timed runs per tool (median reported), at least 1.
    package var runs: Int
    /// Where figures and notes go.
    package var output: BenchOutput

    package init(runs: Int, output: BenchOutput) {
        self.runs = runs
        self.output = output
    }

    /// Says how peak RSS is measured when it cannot be: without `citypack-rusage` beside citypack.
    func noteSpawner() {
        if ChildProcess.spawner == nil {
            output.err(
                "note: \(ChildProcess.spawnerName) is not beside this citypack, so peak RSS is not measured (n/a); "
                    + "`swift build` builds it into the same folder\n")
        }
    }

    /// `runs` runs of a command: the median wall time, with the largest peak RSS of all runs; nil when none ran.
    func median(_ exe: String, _ args: [String], environment: [String: String] = [:]) -> ChildProcess.Measurement? {
        var samples: [ChildProcess.Measurement] = []
        for _ in 0..<runs {
            if let m = ChildProcess.measure(exe, args, environment: environment) { samples.append(m) }
        }
        guard !samples.isEmpty else { return nil }
        var median = samples.sorted { $0.seconds < $1.seconds }[samples.count / 2]
        median.peakRSS = samples.contains { $0.peakRSS == nil } ? nil : samples.compactMap(\.peakRSS).max()
        return median
    }
}

/// Where a benchmark's output goes: `out` the figures (stdout), `err` progress and notes (stderr).
package struct BenchOutput {
    package var out: (String) -> Void
    package var err: (String) -> Void

    package init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.out = out
        self.err = err
    }
}

/// Why a benchmark stopped: the CLI prints `citypack: error: <message>` (nothing when the message is empty) and
/// exits with the kind's code.
package struct BenchFailure: Error {
    package enum Kind: Sendable {
        /// A flag's value cannot be used (the CLI reports it as a usage error with its help).
        case invalidArgument
        /// Usage error without the help (exit 64).
        case usage
        /// An input is missing (exit 66).
        case missingInput
        /// A build or check failed, or outputs differ (exit 1).
        case dataErrors
        /// A tool failed unexpectedly (exit 70).
        case software
        /// A file could not be read or written, a program not run (exit 74).
        case ioFailure
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
