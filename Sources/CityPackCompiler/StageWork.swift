import CityPackCache
import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackSupport
import CityPackValidate
import Foundation

/// The values the stages of one ``Compiler/run(_:bag:)`` hand on to each other. Each stage reads what earlier
/// stages stored, stores what it produces and returns its counts; ``fill(_:)`` copies the results into the report.
struct StageWork {
    let plan: BuildPlan
    let profile: TemplatePOIProfile
    let bag: DiagnosticBag
    var city: City { plan.city }
    /// The file being read, for the progress callback.
    let current: CurrentItem
    /// Hashes of the sources the emit stage lists, started at once so they are ready when it runs.
    let sourceHashes: SourceHashes?

    /// What the OSM stage read, made on first use when it comes from the cache (``ingestOSM(_:)``).
    var osmBox = Lazy<OSMIngestResult?>(nil)
    var osm: OSMIngestResult? {
        get { osmBox.value }
        set { osmBox = Lazy(newValue) }
    }
    /// The feeds read, made on first use when they come from the cache (``ingestGTFS(_:)``).
    var feedBox = LazyFeeds([])
    var feeds: [GTFSFeed] {
        get { feedBox.value }
        set {
            feedBox = LazyFeeds(newValue)
            feedFacts = nil
        }
    }
    /// What validation asks of the feeds, when they came from the cache; nil: ask ``feeds``.
    var feedFacts: FeedFacts?
    var editorial = EditorialContent()
    var copy: CopyTable?
    /// The POIs validation kept, made on first use when they come from the cache (``validatePOIs(categories:)``).
    var keptBox: Lazy<[POI]>?
    var kept: [POI]? { keptBox?.value }
    var keptEditorial: EditorialContent?
    var routesLeftOut: [WalkingRoute] = []
    var emitted: EmitResult?
    var failure: String?
    /// The key of the emit stage, when it ran with a cache (``BuildReport/emitKey``).
    var emitKey: String?

    /// OSM files a fleet already read for this city, and the reader they went into.
    let preread: PrereadOSM?

    /// The build cache, nil with `--no-cache` and in fleets (``BuildOptions/useCache``).
    let cache: StageCache?
    /// The keys of the stages that ran so far, by what they produced, which later keys include (empty without
    /// a cache).
    var keys: [BuildArtifact: CacheKey] = [:]
    /// The key of the stage running (``key(of:)``).
    var stageKey = CacheKey("none")
    /// The stages (and parts of validation) whose result came from the cache, by entry name.
    var cachedEntries: [String] = []
    /// Entries to write once the build is over (``flushCache()``).
    var pendingStores: [(entry: String, key: CacheKey, payload: [UInt8])] = []
    /// The sources' stat facts as the last build stored them (``flushCache()`` stores them again when they changed).
    var loadedFacts: [DigestMemo.Fact] = []

    init(plan: BuildPlan, profile: TemplatePOIProfile, bag: DiagnosticBag, preread: PrereadOSM? = nil) {
        self.preread = preread
        self.current = preread?.current ?? CurrentItem()
        self.plan = plan
        self.profile = profile
        self.bag = bag
        cache = plan.options.useCache && preread == nil
            ? StageCache(outputDirectory: plan.options.outputDirectory, cityID: plan.city.id, bag: bag) : nil
        // The stat facts first: the hashes below start at once.
        if let cache {
            loadedFacts = Self.loadFacts(cache)
            if let store = plan.profileStore { pendingStores.append(store) }
        }
        let hashed = plan.stages.first { $0.phase == .emit }?.inputs.compactMap { input -> String? in
            if case .source(let path) = input { path } else { nil }
        }
        sourceHashes = hashed.map { SourceHashes(files: $0) }
    }

    /// Runs one stage.
    /// - Returns: what it counted.
    mutating func execute(_ stage: Stage) -> [StageCount: Int] {
        if cache != nil {
            let k = key(of: stage)
            stageKey = k
            for output in stage.outputs { keys[output] = k }
            if case .emit = stage.kind { emitKey = k.hex }
        }
        return switch stage.kind {
        case .ingestOSM(let files): ingestOSM(files)
        case .ingestGTFS(let paths): ingestGTFS(paths)
        case .ingestEditorial(let directory): ingestEditorial(directory)
        case .ingestCopy(let templates, let cityDirectory): ingestCopy(templates, cityDirectory)
        case .validate: validate()
        case .emit(let outputDirectory): emit(outputDirectory)
        }
    }

    /// Copies what the stages produced into `report`.
    func fill(_ report: inout BuildReport) {
        let osmBox = self.osmBox
        report.poiBox = keptBox ?? Lazy(later: { osmBox.value?.pois ?? [] })
        report.feedBox = feedBox
        report.walkingRoutes = keptEditorial?.routes
            ?? (editorial.routes.isEmpty ? [] : Compiler.placedRoutes(editorial.routes, pois: osm?.pois ?? []))
        report.walkingRoutesLeftOut = routesLeftOut
        report.copy = copy
        report.emitted = emitted
        report.failure = failure
        report.emitKey = emitKey
    }

    func display(_ path: String) -> String { Compiler.displayPath(path, city: city) }

    // MARK: ingest

    /// The OSM reader of a city's build, with the city file's limits and the build's threads and progress.
    static func makeOSMReader(plan: BuildPlan, profile: TemplatePOIProfile, bag: DiagnosticBag, current: CurrentItem) -> OSMReader {
        let progress = plan.options.progress
        var options = OSMReadOptions(limits: plan.city.limits)
        // The threads that decode PBF blocks (default: one per core).
        if let threads = plan.options.threads, threads > 0 { options.pbfWorkers = threads }
        if progress != nil { options.progressInterval = 1 << 20 }
        options.progress = { done, total in
            progress?(ProgressEvent(stage: "ingest", item: current.name, done: done, total: total))
        }
        return OSMReader(profile: profile, bag: bag, options: options)
    }

    /// Reads the city's OSM files. A PBF file is read for the city's bbox only (``OSMRegionReader``: what an
    /// extract of the box with complete ways holds), so a city cut from a country file keeps only its own nodes;
    /// XML files are read whole. Files a fleet already read for this city (``preread``) are not read again.
    ///
    /// From the cache (``cachedLater``): `ingestOSM` holds the findings and counts, `ingestOSM-result` what was
    /// read, decoded when a later stage asks for it (an unchanged rebuild whose validation comes from the cache
    /// never does).
    mutating func ingestOSM(_ files: [String]) -> [StageCount: Int] {
        let plan = self.plan, profile = self.profile
        let (counts, hit) = cachedLater(
            "ingestOSM", valueEntry: "ingestOSM-result",
            facts: { _ throws(CacheReader.Malformed) in () },
            value: { r throws(CacheReader.Malformed) -> OSMIngestResult? in try r.osm() },
            remake: { () -> OSMIngestResult? in
                let scratch = DiagnosticBag()
                let reader = Self.makeOSMReader(plan: plan, profile: profile, bag: scratch, current: CurrentItem())
                return Self.readOSM(files, with: reader, bag: scratch, city: plan.city, current: CurrentItem())
            },
            encodeFacts: { _, _ in }, encodeValue: { w, osm in if let osm { w.osm(osm) } },
            run: { work in
                let counts = work.readOSM(files)
                // The osm-testdata run's multipolygon reports are not cached (no build asks for them).
                guard let osm = work.osm, osm.multipolygons.isEmpty else { return (counts, nil) }
                return (counts, ((), Optional(osm)))
            })
        if let hit { osmBox = hit.value }
        return counts
    }

    mutating func readOSM(_ files: [String]) -> [StageCount: Int] {
        let reader = preread?.reader ?? Self.makeOSMReader(plan: plan, profile: profile, bag: bag, current: current)
        let result = Self.readOSM(files.filter { !(preread?.files.contains($0) ?? false) }, with: reader, bag: bag, city: city, current: current)
        osm = result
        return [
            .bytes: Int(result.bytesRead), .nodes: result.nodes, .ways: result.ways, .relations: result.relations,
            .pois: result.pois.count, .multipolygonPOIs: result.multipolygonPOIs,
        ]
    }

    /// Reads `files` into `reader` (reporting into its bag) and finishes it.
    static func readOSM(_ files: [String], with reader: OSMReader, bag: DiagnosticBag, city: City, current: CurrentItem) -> OSMIngestResult {
        for file in files {
            let shown = Compiler.displayPath(file, city: city)
            current.name = shown
            do {
                if OSMReader.isPBF(path: file) {
                    let region = OSMRegionReader.Region(
                        box: city.bbox, reader: reader, displayPath: shown, boxLocation: Compiler.keyLocation("bbox", in: city.file))
                    try OSMRegionReader.read(path: file, regions: [region], workers: reader.options.pbfWorkers)
                } else {
                    try reader.read(file: file, displayPath: shown)
                }
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: shown))
            }
        }
        return reader.finish()
    }

    /// Reads the city's GTFS feeds, or takes them from the cache (``cachedLater``: `ingestGTFS` holds the
    /// findings, the counts and the ``FeedFacts`` validation asks for, `ingestGTFS-feeds` the feeds, decoded when a
    /// later stage asks for them).
    mutating func ingestGTFS(_ paths: [String]) -> [StageCount: Int] {
        let shown = paths.map(display), limits = city.limits
        let (counts, hit) = cachedLater(
            "ingestGTFS", valueEntry: "ingestGTFS-feeds",
            facts: { r throws(CacheReader.Malformed) in try r.feedFacts() },
            value: { r throws(CacheReader.Malformed) in
                var feeds = try r.array { r throws(CacheReader.Malformed) in try r.feed() }
                // The cell locator scans the feed's files again when validation asks (the key says they are unchanged).
                for (path, shown) in zip(paths, shown) {
                    guard let f = feeds.firstIndex(where: { $0.displayPath == shown }) else { continue }
                    feeds[f].cellLocator = GTFSReader.cellLocator(path: path, displayPath: shown, options: GTFSReadOptions(limits: limits))
                }
                return feeds
            },
            remake: { Self.readFeeds(paths, shown: shown, limits: limits) },
            encodeFacts: { $0.feedFacts($1) }, encodeValue: { w, feeds in w.array(feeds) { $0.feed($1) } },
            run: { work in
                let counts = work.readGTFS(paths)
                return (counts, (FeedFacts(work.feeds), work.feeds))
            })
        if let hit {
            feedBox = hit.value
            feedFacts = hit.facts
        }
        return counts
    }

    /// The feeds at `paths` read again, their findings dropped (the cache replayed them).
    static func readFeeds(_ paths: [String], shown: [String], limits: InputLimits) -> [GTFSFeed] {
        let scratch = DiagnosticBag()
        return zip(paths, shown).compactMap { path, shown in
            try? GTFSReader.read(path: path, displayPath: shown, bag: scratch, options: GTFSReadOptions(limits: limits))
        }
    }

    mutating func readGTFS(_ paths: [String]) -> [StageCount: Int] {
        for path in paths {
            let shown = display(path)
            current.name = shown
            do {
                var options = GTFSReadOptions(limits: city.limits)
                if let progress = plan.options.progress {
                    options.progress = { file, done, total in
                        progress(ProgressEvent(stage: "ingest", item: file, done: done, total: total, unit: "rows"))
                    }
                }
                if let feed = try GTFSReader.read(path: path, displayPath: shown, bag: bag, options: options) { feeds.append(feed) }
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: shown))
            }
        }
        return [.stops: feeds.reduce(0) { $0 + $1.stops.count }, .stopTimes: feeds.reduce(0) { $0 + $1.stopTimes.count }]
    }

    mutating func ingestEditorial(_ directory: String) -> [StageCount: Int] {
        editorial = EditorialReader.read(
            directory: directory, displayDirectory: display(directory), defaultLocale: city.defaultLocale,
            locales: city.locales, bag: bag)
        return [.cards: editorial.cards.count, .routes: editorial.routes.count]
    }

    mutating func ingestCopy(_ templates: TemplateSource, _ cityDirectory: String?) -> [StageCount: Int] {
        let city = self.city
        let table = CopyReader.read(
            templates: templates, cityDirectory: cityDirectory,
            cityFolder: cityDirectory ?? (city.directory as NSString).appendingPathComponent("copy"),
            display: { Compiler.displayPath($0, city: city) },
            defaultLocale: city.defaultLocale, locales: city.locales, bag: bag)
        copy = table
        return [.strings: table.entries.values.reduce(0) { $0 + $1.count }]
    }

    // MARK: validate

    /// Every rule on what was read, also after reading errors: the checks that need what could not be read are
    /// named instead, in one `pack.rules_not_run` finding per source. A build with errors emits nothing either way.
    mutating func validate() -> [StageCount: Int] {
        let errorFiles = Set(bag.diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.file })
        let osmIncomplete = city.osmFiles.map(display).filter(errorFiles.contains)
        let categories = profile.categories
        let (keptFacts, keptPOIs) = validatePOIs(categories: categories)
        keptBox = keptPOIs
        let today = self.today
        let stopsComplete = validateFeeds(today: today, errorFiles: errorFiles)
        let facts = feedFacts ?? FeedFacts(feeds)
        var context = EditorialContext(
            city: city, pois: { keptPOIs.value }, categoriesWithPOIs: Set(keptFacts.categories), categories: categories,
            stopIDs: Set(facts.stopIDs))
        context.poisComplete = osmIncomplete.isEmpty
        context.stopsComplete = stopsComplete
        for file in osmIncomplete {
            bag.report(
                Rules.packRulesNotRun,
                "the OSM data had reading errors: the POI rules ran on the \(osm?.pois.count ?? 0) POIs that were read, but "
                    + "the checks that need every POI (editorial.route_unknown_poi, editorial.category_without_poi) did not run",
                at: SourceLocation(file: file), entity: file)
        }
        let validated = EditorialValidator.validate(editorial, context: context, bag: bag)
        keptEditorial = validated
        if !editorial.routes.isEmpty {
            routesLeftOut = Compiler.leftOutRoutes(read: Compiler.placedRoutes(editorial.routes, pois: osm?.pois ?? []), packed: validated.routes)
        }
        if let copy { CopyValidator.validate(copy, bag: bag) }
        if keptFacts.count == 0 && facts.stops == 0 {
            bag.report(Rules.packEmpty, "no POI of the profile's categories inside the city bbox", at: SourceLocation(file: city.file))
        }
        return [.poisKept: keptFacts.count, .feeds: facts.feeds]
    }

    /// The POI rules (``POIValidator``), or their findings and the POIs they kept from the cache: keyed by the POIs
    /// read, the profile and the city file. From the cache, the kept POIs are their indexes among those read plus
    /// ``KeptFacts``, so the POIs read are decoded only when a later stage asks for the kept ones.
    mutating func validatePOIs(categories: [PackCategory]) -> (facts: KeptFacts, kept: Lazy<[POI]>) {
        let read = osmBox, city = self.city
        var result = (facts: KeptFacts(count: 0, categories: []), kept: Lazy<[POI]>([]))
        _ = cached(
            "validatePOIs",
            key: { $0.key("validatePOIs", inputs: [.artifact(.pois), .artifact(.profile), .cityFile, .value("entry", "indexes, facts")]) },
            decode: { r throws(CacheReader.Malformed) in
                (try r.block(Int32.self), KeptFacts(count: try r.int(), categories: try r.strings()))
            },
            encode: { w, value in
                w.block(value.0)
                w.int(value.1.count)
                w.strings(value.1.categories)
            },
            accept: { _, value in
                let indexes = value.0
                result = (value.1, Lazy(later: {
                    let pois = read.value?.pois ?? []
                    // Indexes that do not fit what was read (a damaged cache the checks missed): the rules again,
                    // their findings dropped (the cache replayed them).
                    guard indexes.allSatisfy({ $0 >= 0 && Int($0) < pois.count }) else {
                        return POIValidator.validate(pois, city: city, categories: categories, bag: DiagnosticBag())
                    }
                    return indexes.map { pois[Int($0)] }
                }))
                return true
            },
            run: { work in
                let pois = read.value?.pois ?? []
                let kept = POIValidator.validate(pois, city: work.city, categories: categories, bag: work.bag)
                result = (KeptFacts(kept), Lazy(kept))
                return ([:], Self.indexes(of: kept, in: pois).map { ($0, result.facts) })
            })
        return result
    }

    /// Kept POIs are a subsequence of those read: stored as their indexes (nil when they are not).
    static func indexes(of kept: [POI], in read: [POI]) -> [Int32]? {
        var indexes: [Int32] = []
        var next = 0
        for poi in kept {
            while next < read.count && read[next] != poi { next += 1 }
            guard next < read.count else { return nil }
            indexes.append(Int32(next))
            next += 1
        }
        return indexes
    }

    /// The GTFS rules on every feed read and the `pack.rules_not_run` findings about feeds, or their findings from
    /// the cache: keyed by the feeds read, the city file, the build date and the files that had reading errors.
    /// - Returns: whether every feed's stops were read completely.
    mutating func validateFeeds(today: (year: Int, month: Int, day: Int), errorFiles: Set<String>) -> Bool {
        var complete = false
        let inputs: [CacheInput] = [
            .artifact(.transit), .cityFile, .value("today", "\(today)"), .value("error files", "\(errorFiles.sorted())"),
            .value("feeds existing", "\(city.gtfsFeeds.map { FileManager.default.fileExists(atPath: $0) })"),
        ]
        _ = cached(
            "validateGTFS", key: { $0.key("validateGTFS", inputs: inputs) },
            decode: { r throws(CacheReader.Malformed) in try r.bool() }, encode: { $0.bool($1) },
            accept: { _, value in
                complete = value
                return true
            },
            run: { work in
                complete = work.runFeedRules(today: today, errorFiles: errorFiles)
                return ([:], complete)
            })
        return complete
    }

    mutating func runFeedRules(today: (year: Int, month: Int, day: Int), errorFiles: Set<String>) -> Bool {
        var stopsComplete = feeds.count == city.gtfsFeeds.count
        for feed in feeds {
            let incomplete = GTFSValidator.incompleteTables(of: feed, errorFiles: errorFiles)
            if incomplete.contains("stops") { stopsComplete = false }
            GTFSValidator.validate(feed, bbox: city.bbox, keepOutsideBBox: city.keepStopsOutsideBBox, buildDate: today,
                bag: bag, incompleteTables: incomplete)
            let unchecked = incomplete.filter { feed.files[$0] != nil }.sorted()
            if !unchecked.isEmpty {
                bag.report(
                    Rules.packRulesNotRun,
                    "\(unchecked.map { "\($0).txt" }.joined(separator: ", ")) had reading errors: the GTFS rules ran on the "
                        + "rows that were read, but references into \(unchecked.count == 1 ? "it" : "them") were not checked "
                        + "(gtfs.foreign_key_violation) and the rows that could not be read were not judged",
                    at: SourceLocation(file: feed.displayPath), entity: feed.displayPath)
            }
        }
        for (path, shown) in zip(city.gtfsFeeds, city.gtfsFeeds.map(display))
        where !feeds.contains(where: { $0.displayPath == shown }) && FileManager.default.fileExists(atPath: path) {
            bag.report(
                Rules.packRulesNotRun, "the feed could not be read, so no GTFS rule ran on it",
                at: SourceLocation(file: shown), entity: shown)
        }
        return stopsComplete
    }
}


/// The file being read, shared with the progress callback.
final class CurrentItem: @unchecked Sendable {
    let lock = NSLock()
    var value = ""
    var name: String {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// OSM files a fleet read for one city before its build (``Fleet``), and the reader that holds them.
struct PrereadOSM {
    var reader: OSMReader
    var files: Set<String>
    var current: CurrentItem
}
