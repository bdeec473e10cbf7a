import CityPackCompiler
import CityPackDiagnostics
import Foundation

/// Writes the report files of a build or check into `<output>/<city>/`: `report.json` (the `--format json`
/// document, complete), `report.html` (self-contained page with a map) and `build-stats.json` (stage timings
/// and counts). Each file goes to a temporary name in the same folder and is renamed into place, so a reader
/// never sees half a report. Reports are written on every run, also when the build fails.
///
/// `build-stats.json` holds wall-clock timings, which differ between runs; it is kept out of the manifest
/// and the pack on purpose so that those stay byte-identical for the same inputs.
enum ReportWriter {
    /// The folder reports of `city` go to.
    static func folder(output: String, city: String) -> String {
        (output as NSString).appendingPathComponent(city)
    }

    /// Writes the three report files.
    /// - Throws: the first I/O error (the caller turns it into exit code 74).
    static func write(
        _ report: DiagnosticReport, stats: BuildStats, html: String, to folder: String, toolVersion: String
    ) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try atomicWrite(Data(DiagnosticRenderer.json(report, toolVersion: toolVersion).utf8), to: (folder as NSString).appendingPathComponent("report.json"))
        try atomicWrite(Data(html.utf8), to: (folder as NSString).appendingPathComponent("report.html"))
        try atomicWrite(Data(DiagnosticRenderer.encode(stats).utf8), to: (folder as NSString).appendingPathComponent("build-stats.json"))
    }

    /// Writes `data` to `path` through a unique temporary file in the same folder and `rename(2)`.
    static func atomicWrite(_ data: Data, to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let tmp = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: tmp, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: tmp])
        }
        if rename(tmp, path) != 0 {
            let code = errno
            unlink(tmp)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}

/// Stage timings and counts of one run (`build-stats.json`, `-v`).
struct BuildStats: Codable, Sendable {
    struct Stage: Codable, Sendable {
        var name: String
        var seconds: Double
        /// What the stage handled, e.g. `{"bytes": 1234, "nodes": 10}`.
        var counts: [String: Int]
    }

    var version = 1
    var command: String
    var city: String?
    var stages: [Stage]
    var totalSeconds: Double

    init(command: String, build: BuildReport) {
        self.command = command
        self.city = build.city?.id
        var stages: [Stage] = []
        for (name, seconds) in build.timings {
            var counts: [String: Int] = [:]
            switch name {
            case "ingest":
                counts = [
                    "bytes": Int(build.bytesRead), "nodes": build.nodes, "ways": build.ways, "relations": build.relations,
                    "pois": build.poisRead, "stops": build.stops, "stopTimes": build.stopTimes,
                ]
            case "validate":
                counts = ["poisKept": build.poisKept, "feeds": build.feeds.count]
            default:
                if let emitted = build.emitted {
                    counts = ["pois": emitted.manifest.counts.pois, "packBytes": Int(emitted.manifest.artifact.bytes)]
                }
            }
            stages.append(Stage(name: name, seconds: (seconds * 1000).rounded() / 1000, counts: counts))
        }
        self.stages = stages
        self.totalSeconds = (stages.reduce(0) { $0 + $1.seconds } * 1000).rounded() / 1000
    }

    /// `-v` lines: `  ingest        0.412 s  bytes=…, nodes=…`.
    var verboseText: String {
        var out = ""
        for stage in stages {
            let counts = stage.counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            out += String(format: "  %@ %8.3f s", stage.name.padding(toLength: 12, withPad: " ", startingAt: 0), stage.seconds)
            out += counts.isEmpty ? "\n" : "  \(counts)\n"
        }
        out += String(format: "  %@ %8.3f s\n", "total".padding(toLength: 12, withPad: " ", startingAt: 0), totalSeconds)
        return out
    }
}
