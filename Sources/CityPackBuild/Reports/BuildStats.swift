import CityPackCompiler
import CityPackFormat
import CityPackIngest
import Foundation

/// Stage timings and counts of one run (`build-stats.json`, `-v`), from the plan's stages and the
/// ``StageRecord``s of those that ran.
package struct BuildStats: Codable, Sendable {
    /// One phase (`ingest`, `validate`, `index+emit`): its stages' seconds and counts together.
    package struct Stage: Codable, Sendable {
        package var name: String
        package var seconds: Double
        /// What the phase handled, e.g. `{"bytes": 1234, "nodes": 10}`.
        package var counts: [String: Int]
    }

    /// One stage of the plan, with its time and counts when it ran.
    package struct PlannedStage: Codable, Sendable {
        /// ``StageKind/id``, e.g. `ingestOSM`.
        package var stage: String
        /// ``StageKind/name``, e.g. `ingest OSM`.
        package var name: String
        /// The phase it belongs to (an entry of `stages`).
        package var phase: String
        package var inputs: [String]
        package var outputs: [String]
        /// False for stages after the build stopped (errors before index+emit).
        package var ran: Bool
        package var seconds: Double?
        package var counts: [String: Int]?
        /// The build-cache entries the stage loaded instead of working (absent when it ran in full).
        package var cached: [String]?
    }

    package var version = 1
    package var command: String
    package var city: String?
    /// Per phase, in order: the summary `build-stats.json` has always had.
    package var stages: [Stage]
    /// Every planned stage, in order.
    package var plan: [PlannedStage]
    package var totalSeconds: Double
    /// Where the written pack's bytes go, per table and index (``CityPackKit/PackSizes``); nil when no pack was
    /// written.
    package var sizes: PackSizes?
    /// The compressed pack's bytes per POI (what a download costs per place); nil when no pack was written or it
    /// holds no POI (a transit-only pack).
    package var packBytesPerPOI: Double?
    /// The templates the build used: their folder, or `the templates built into citypack`.
    package var templates: String?
    /// The compressed pack's bytes per transit stop; nil when no pack was written or it holds no stop.
    package var packBytesPerStop: Double?

    /// The stats of `build`; `templates` are the templates it used (their folder, or "the templates built into
    /// citypack").
    package init(command: String, build: BuildReport, templates: TemplateSource? = nil) {
        self.command = command
        self.city = build.city?.id
        self.templates = templates?.description
        if let emitted = build.emitted {
            sizes = emitted.sizes
            let m = emitted.head
            // Per place the pack serves: POIs, and stops for a transit pack (a transit-only pack has no POIs).
            if m.counts.pois > 0 { packBytesPerPOI = (Double(m.artifact.bytes) / Double(m.counts.pois) * 10).rounded() / 10 }
            if let stops = m.counts.stops, stops > 0 { packBytesPerStop = (Double(m.artifact.bytes) / Double(stops) * 10).rounded() / 10 }
        }
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
    package static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Counts keyed by their JSON names.
    package static func keyed(_ counts: [StageCount: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }

    /// `-v` lines, one per stage that ran, then the total: `  ingest OSM          0.412 s  bytes=…, nodes=…`.
    package var verboseText: String {
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
