import CityPackEmit
import CityPackModel

/// What running one stage took and counted.
package struct StageRecord: Sendable {
    /// The stage, as planned.
    package var stage: Stage
    /// Wall-clock seconds.
    package var seconds: Double
    /// What the stage handled (``StageCount``); figures it does not count are absent.
    package var counts: [StageCount: Int]
    /// The build-cache entries the stage loaded instead of doing their work (`ingestOSM`; validation has two parts,
    /// `validatePOIs` and `validateGTFS`); empty when it ran in full.
    package var cached: [String] = []

    /// Creates a record.
    package init(stage: Stage, seconds: Double, counts: [StageCount: Int]) {
        self.stage = stage
        self.seconds = seconds
        self.counts = counts
    }
}

/// The time and counts of one phase's stages together (`build-stats.json`'s `stages`).
package struct PhaseSummary: Sendable {
    /// The phase.
    package var phase: BuildPhase
    /// Wall-clock seconds of its stages.
    package var seconds: Double
    /// Its stages' counts added up, with the phase's ``BuildPhase/alwaysCounted`` figures at least 0.
    package var counts: [StageCount: Int]
}

/// The outcome of a build or check. Diagnostics are in the bag that was passed in.
package struct BuildReport: Sendable {
    /// The plan that ran; nil when the city file could not be loaded.
    package var plan: BuildPlan?
    /// The stages that ran, each with its time and counts: the plan's stages up to where the run stopped.
    package var records: [StageRecord] = []
    /// Set when the pack was written.
    package var emitted: EmitResult?
    /// Set when the build stopped on an unrecoverable failure (already reported in the bag as well).
    package var failure: String?
    /// The POIs of the report's city map: those kept by validation, or all read when validation did not run.
    package var pois: [POI] {
        get { poiBox.value }
        set { poiBox = Lazy(newValue) }
    }
    /// The POIs, made on first use when the build took them from the cache.
    package var poiBox = Lazy<[POI]>([])
    /// The GTFS feeds read (stops and lines for the report's city map).
    package var feeds: [GTFSFeed] {
        get { feedBox.value }
        set { feedBox = LazyFeeds(newValue) }
    }
    /// The feeds, made on first use when the build took them from the cache.
    package var feedBox = LazyFeeds([])
    /// The walking routes of the report's city map, waypoints placed where possible: after validation those
    /// that go into the pack, else every route read (see ``Compiler/placedRoutes(_:pois:)``).
    package var walkingRoutes: [WalkingRoute] = []
    /// Routes validation left out of the pack (waypoints placed where possible), drawn as such on the map.
    package var walkingRoutesLeftOut: [WalkingRoute] = []
    /// The city's copy table (template defaults, the city's strings and the fallbacks filled in).
    package var copy: CopyTable?
    /// The build cache's key of the emit stage (hex), when it ran with a cache: everything the pack, and the
    /// report page's map and counts, are made from (every input, setting and the tool's version).
    package var emitKey: String?

    /// Creates an empty report for `plan`.
    package init(plan: BuildPlan? = nil) {
        self.plan = plan
    }

    /// The city, when its file loaded.
    package var city: City? { plan?.city }

    /// A figure summed over the stages of `phase` that ran.
    package func count(_ figure: StageCount, in phase: BuildPhase) -> Int {
        records.filter { $0.stage.phase == phase }.reduce(0) { $0 + ($1.counts[figure] ?? 0) }
    }

    /// POIs kept by validation (0 when it did not run).
    package var poisKept: Int { count(.poisKept, in: .validate) }
    /// OSM nodes read.
    package var nodes: Int { count(.nodes, in: .ingest) }
    /// OSM ways read.
    package var ways: Int { count(.ways, in: .ingest) }
    /// Editorial cards read.
    package var cards: Int { count(.cards, in: .ingest) }
    /// Walking routes read.
    package var routes: Int { count(.routes, in: .ingest) }

    /// One summary per phase that ran, in order: seconds and counts of its stages together.
    package var phases: [PhaseSummary] {
        var out: [PhaseSummary] = []
        for record in records {
            if out.last?.phase != record.stage.phase {
                var counts: [StageCount: Int] = [:]
                for figure in record.stage.phase.alwaysCounted { counts[figure] = 0 }
                out.append(PhaseSummary(phase: record.stage.phase, seconds: 0, counts: counts))
            }
            out[out.count - 1].seconds += record.seconds
            out[out.count - 1].counts.merge(record.counts, uniquingKeysWith: +)
        }
        return out
    }
}
