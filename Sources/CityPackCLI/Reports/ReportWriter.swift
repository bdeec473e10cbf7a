import CityPackCompiler
import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackKit
import Foundation
import CityPackSupport

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
    ///
    /// The temporary file is written in place (`Data.write` without `.atomic`): `FileManager.createFile` and
    /// atomic writes go through a second hidden file of Foundation's own (`.dat.nosync…`), which a build killed
    /// at that moment would leave behind under a name the next build cannot recognise as its debris.
    /// Missing parent folders of `path` are created first.
    static func atomicWrite(_ data: Data, to path: String) throws {
        try OutputFiles.createParent(of: path)
        let dir = PathText.parent(path)
        let tmp = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        do { try data.write(to: URL(fileURLWithPath: tmp)) } catch {
            unlink(tmp)
            throw error
        }
        if rename(tmp, path) != 0 {
            let code = errno
            unlink(tmp)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }
}

/// Stage timings and counts of one run (`build-stats.json`, `-v`), from the plan's stages and the
/// ``StageRecord``s of those that ran.
struct BuildStats: Codable, Sendable {
    /// One phase (`ingest`, `validate`, `index+emit`): its stages' seconds and counts together.
    struct Stage: Codable, Sendable {
        var name: String
        var seconds: Double
        /// What the phase handled, e.g. `{"bytes": 1234, "nodes": 10}`.
        var counts: [String: Int]
    }

    /// One stage of the plan, with its time and counts when it ran.
    struct PlannedStage: Codable, Sendable {
        /// ``StageKind/id``, e.g. `ingestOSM`.
        var stage: String
        /// ``StageKind/name``, e.g. `ingest OSM`.
        var name: String
        /// The phase it belongs to (an entry of `stages`).
        var phase: String
        var inputs: [String]
        var outputs: [String]
        /// False for stages after the build stopped (errors before index+emit).
        var ran: Bool
        var seconds: Double?
        var counts: [String: Int]?
        /// The build-cache entries the stage loaded instead of working (absent when it ran in full).
        var cached: [String]?
    }

    var version = 1
    var command: String
    var city: String?
    /// Per phase, in order: the summary `build-stats.json` has always had.
    var stages: [Stage]
    /// Every planned stage, in order.
    var plan: [PlannedStage]
    var totalSeconds: Double
    /// Where the written pack's bytes go, per table and index (``CityPackKit/PackSizes``); nil when no pack was
    /// written.
    var sizes: PackSizes?
    /// The compressed pack's bytes per POI (what a download costs per place); nil when no pack was written or it
    /// holds no POI (a transit-only pack).
    var packBytesPerPOI: Double?
    /// The templates the build used: their folder, or `the templates built into citypack`.
    var templates: String?
    /// The compressed pack's bytes per transit stop; nil when no pack was written or it holds no stop.
    var packBytesPerStop: Double?

    init(command: String, build: BuildReport) {
        self.command = command
        self.city = build.city?.id
        self.stages = build.phases.map {
            Stage(name: $0.phase.rawValue, seconds: Self.milliseconds($0.seconds), counts: Self.keyed($0.counts))
        }
        let records = build.records
        self.plan = (build.plan?.stages ?? []).enumerated().map { i, stage in
            let record = i < records.count ? records[i] : nil
            return PlannedStage(
                stage: stage.kind.id, name: stage.kind.name, phase: stage.phase.rawValue,
                inputs: stage.inputs.map(\.description), outputs: stage.outputs.map(\.description), ran: record != nil,
                seconds: record.map { Self.milliseconds($0.seconds) }, counts: record.map { Self.keyed($0.counts) },
                cached: record.flatMap { $0.cached.isEmpty ? nil : $0.cached })
        }
        self.totalSeconds = Self.milliseconds(records.reduce(0) { $0 + Self.milliseconds($1.seconds) })
    }

    /// Seconds rounded to the millisecond.
    static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Counts keyed by their JSON names.
    static func keyed(_ counts: [StageCount: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }

    /// `-v` lines, one per stage that ran, then the total: `  ingest OSM          0.412 s  bytes=…, nodes=…`.
    var verboseText: String {
        var out = ""
        for stage in plan where stage.ran {
            let counts = (stage.counts ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            out += String(format: "  %@ %8.3f s", stage.name.padding(toLength: 16, withPad: " ", startingAt: 0), stage.seconds ?? 0)
            out += counts.isEmpty ? "" : "  \(counts)"
            out += stage.cached.map { "  (cached: \($0.joined(separator: ", ")))\n" } ?? "\n"
        }
        out += String(format: "  %@ %8.3f s\n", "total".padding(toLength: 16, withPad: " ", startingAt: 0), totalSeconds)
        return out
    }
}
