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

    var osm: OSMIngestResult?
    var feeds: [GTFSFeed] = []
    var editorial = EditorialContent()
    var copy: CopyTable?
    var kept: [POI]?
    var keptEditorial: EditorialContent?
    var routesLeftOut: [WalkingRoute] = []
    var emitted: EmitResult?
    var failure: String?

    /// OSM files a fleet already read for this city, and the reader they went into.
    let preread: PrereadOSM?

    /// The build cache, nil with `--no-cache` and in fleets (``BuildOptions/useCache``).
    let cache: StageCache?
    /// The keys of the stages that ran so far, which later keys include (nil: no cache, or not that source).
    var osmKey: CacheKey?
    var gtfsKey: CacheKey?
    /// The stages (and parts of validation) whose result came from the cache, by entry name.
    var cachedEntries: [String] = []
    /// Entries to write once the build is over (``flushCache()``).
    var pendingStores: [(entry: String, key: CacheKey, payload: [UInt8])] = []

    init(plan: BuildPlan, profile: TemplatePOIProfile, bag: DiagnosticBag, preread: PrereadOSM? = nil) {
        self.preread = preread
        self.current = preread?.current ?? CurrentItem()
        self.plan = plan
        self.profile = profile
        self.bag = bag
        let hashed = plan.stages.first { $0.phase == .emit }?.inputs.compactMap { input -> String? in
            if case .source(let path) = input { path } else { nil }
        }
        sourceHashes = hashed.map { SourceHashes(files: $0) }
        cache = plan.options.useCache && preread == nil
            ? StageCache(outputDirectory: plan.options.outputDirectory, cityID: plan.city.id, bag: bag) : nil
    }

    // MARK: cache

    /// A key for `entry` with what every entry depends on: the tool, the pack format and the bag's settings.
    func key(_ entry: String) -> CacheKey {
        var k = CacheKey(entry)
        k.add("bag", StageCache.bagSettings(bag))
        return k
    }

    /// The category profile's files (what ``TemplatePOIProfile/load(templatesDirectory:)`` reads).
    var profileFiles: [String] {
        let directory = city.profile ?? plan.templatesDirectory ?? "."
        return ["categories.json", "synonyms.json"].map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Loads `entry` for `key` and replays its findings into the bag; nil when the stage must run.
    mutating func loadCached<T>(
        _ entry: String, key: CacheKey, decode: (inout CacheReader) throws(CacheReader.Malformed) -> T
    ) -> (counts: [StageCount: Int], value: T)? {
        guard let cache,
            let hit = cache.load(entry, key: key, decode: { r throws(CacheReader.Malformed) in
                (try r.events(), try r.counts(), try decode(&r))
            })
        else { return nil }
        bag.replay(hit.0)
        cachedEntries.append(entry)
        return (hit.1, hit.2)
    }

    /// Stores what a stage that ran under `recording` produced, unless it failed to read or write something (an
    /// I/O failure may not happen again).
    mutating func storeCached(
        _ entry: String, key: CacheKey, events: [DiagnosticBag.Event], counts: [StageCount: Int],
        encode: (inout CacheWriter) -> Void
    ) {
        guard cache != nil else { return }
        let failed = events.contains { if case .report(let d) = $0 { d.code == Rules.packIOFailure.code } else { false } }
        guard !failed else { return }
        var payload = CacheWriter()
        payload.events(events)
        payload.counts(counts)
        encode(&payload)
        pendingStores.append((entry, key, payload.bytes))
    }

    /// Writes the entries the stages produced, once the build is over and only when it has no errors: a build
    /// with errors writes nothing into the output folder, the cache included (the entries of the last good build
    /// stay, and their stages still load from them once the error is fixed).
    mutating func flushCache() {
        defer { pendingStores = [] }
        guard let cache, !bag.hasErrors else { return }
        for (entry, key, payload) in pendingStores { cache.store(entry, key: key, payload: payload) }
    }

    /// Runs one stage.
    /// - Returns: what it counted.
    mutating func execute(_ kind: StageKind) -> [StageCount: Int] {
        switch kind {
        case .ingestOSM(let files): ingestOSM(files)
        case .ingestGTFS(let paths): ingestGTFS(paths)
        case .ingestEditorial(let directory): ingestEditorial(directory)
        case .ingestCopy(let templateDirectory, let cityDirectory): ingestCopy(templateDirectory, cityDirectory)
        case .validate: validate()
        case .emit(let outputDirectory): emit(outputDirectory)
        }
    }

    /// Copies what the stages produced into `report`.
    func fill(_ report: inout BuildReport) {
        let read = osm?.pois ?? []
        report.pois = kept ?? read
        report.feeds = feeds
        report.walkingRoutes = keptEditorial?.routes ?? Compiler.placedRoutes(editorial.routes, pois: read)
        report.walkingRoutesLeftOut = routesLeftOut
        report.copy = copy
        report.emitted = emitted
        report.failure = failure
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
    mutating func ingestOSM(_ files: [String]) -> [StageCount: Int] {
        if cache != nil {
            var k = key("ingestOSM")
            k.add("bbox", "\(city.bbox.array)")
            k.add("bbox location", "\(Compiler.keyLocation("bbox", in: city.file))")
            k.add("limits", "\(city.limits)")
            for file in profileFiles { k.addContent(of: file) }
            for file in files {
                k.add("file", display(file))
                k.add("pbf", "\(OSMReader.isPBF(path: file))")
                k.addContent(of: file)
            }
            osmKey = k
            if let hit = loadCached("ingestOSM", key: k, decode: { r throws(CacheReader.Malformed) in try r.osm() }) {
                osm = hit.value
                return hit.counts
            }
            bag.startRecording()
        }
        let counts = readOSM(files)
        if let osmKey {
            let events = bag.stopRecording()
            // The osm-testdata run's multipolygon reports are not cached (no build asks for them).
            if let osm, osm.multipolygons.isEmpty {
                storeCached("ingestOSM", key: osmKey, events: events, counts: counts) { $0.osm(osm) }
            }
        }
        return counts
    }

    mutating func readOSM(_ files: [String]) -> [StageCount: Int] {
        let reader = preread?.reader ?? Self.makeOSMReader(plan: plan, profile: profile, bag: bag, current: current)
        for file in files where !(preread?.files.contains(file) ?? false) {
            let shown = display(file)
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
        let result = reader.finish()
        osm = result
        return [
            .bytes: Int(result.bytesRead), .nodes: result.nodes, .ways: result.ways, .relations: result.relations,
            .pois: result.pois.count, .multipolygonPOIs: result.multipolygonPOIs,
        ]
    }

    mutating func ingestGTFS(_ paths: [String]) -> [StageCount: Int] {
        if cache != nil {
            var k = key("ingestGTFS")
            k.add("limits", "\(city.limits)")
            for path in paths {
                k.add("feed", display(path))
                k.addContent(of: path)
            }
            gtfsKey = k
            if let hit = loadCached("ingestGTFS", key: k, decode: { r throws(CacheReader.Malformed) in try r.array { r throws(CacheReader.Malformed) in try r.feed() } }) {
                feeds = hit.value
                // The cell locator scans the feed's files again when validation asks (the key says they are unchanged).
                for path in paths {
                    let shown = display(path)
                    guard let f = feeds.firstIndex(where: { $0.displayPath == shown }) else { continue }
                    feeds[f].cellLocator = GTFSReader.cellLocator(path: path, displayPath: shown, options: GTFSReadOptions(limits: city.limits))
                }
                return hit.counts
            }
            bag.startRecording()
        }
        let counts = readGTFS(paths)
        if let gtfsKey {
            let feeds = self.feeds
            storeCached("ingestGTFS", key: gtfsKey, events: bag.stopRecording(), counts: counts) { w in
                w.array(feeds) { $0.feed($1) }
            }
        }
        return counts
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

    mutating func ingestCopy(_ templateDirectory: String, _ cityDirectory: String?) -> [StageCount: Int] {
        let city = self.city
        let table = CopyReader.read(
            templateDirectory: templateDirectory, cityDirectory: cityDirectory,
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
        let read = osm?.pois ?? []
        let errorFiles = Set(bag.diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.file })
        let osmIncomplete = city.osmFiles.map(display).filter(errorFiles.contains)
        let categories = profile.categories
        let keptPOIs = validatePOIs(read, categories: categories)
        kept = keptPOIs
        let today = plan.options.buildDate ?? CivilDate.utc(secondsSince1970: Compiler.wallClockOrEpoch(plan.options))
        let stopsComplete = validateFeeds(today: today, errorFiles: errorFiles)
        let stopIDs = Set(feeds.flatMap { $0.stops.map(\.id) })
        var context = EditorialContext(city: city, pois: keptPOIs, categories: categories, stopIDs: stopIDs)
        context.poisComplete = osmIncomplete.isEmpty
        context.stopsComplete = stopsComplete
        for file in osmIncomplete {
            bag.report(
                Rules.packRulesNotRun,
                "the OSM data had reading errors: the POI rules ran on the \(read.count) POIs that were read, but "
                    + "the checks that need every POI (editorial.route_unknown_poi, editorial.category_without_poi) did not run",
                at: SourceLocation(file: file), entity: file)
        }
        let validated = EditorialValidator.validate(editorial, context: context, bag: bag)
        keptEditorial = validated
        routesLeftOut = Compiler.leftOutRoutes(read: Compiler.placedRoutes(editorial.routes, pois: read), packed: validated.routes)
        if let copy { CopyValidator.validate(copy, bag: bag) }
        if keptPOIs.isEmpty && feeds.reduce(0, { $0 + $1.stops.count }) == 0 {
            bag.report(Rules.packEmpty, "no POI of the profile's categories inside the city bbox", at: SourceLocation(file: city.file))
        }
        return [.poisKept: keptPOIs.count, .feeds: feeds.count]
    }

    /// The POI rules (``POIValidator``), or their findings and the POIs they kept from the cache: keyed by the OSM
    /// stage's key, the city file and the profile.
    mutating func validatePOIs(_ read: [POI], categories: [PackCategory]) -> [POI] {
        var k: CacheKey?
        if cache != nil, let osmKey {
            var key = key("validatePOIs")
            key.add(osmKey)
            key.addContent(of: city.file)
            key.add("city directory", city.directory)
            for file in profileFiles { key.addContent(of: file) }
            k = key
            let decode = { (r: inout CacheReader) throws(CacheReader.Malformed) -> [Int32] in
                let indexes = try r.block(Int32.self)
                guard indexes.allSatisfy({ $0 >= 0 && Int($0) < read.count }) else { throw CacheReader.Malformed() }
                return indexes
            }
            if let hit = loadCached("validatePOIs", key: key, decode: decode) {
                return hit.value.map { read[Int($0)] }
            }
            bag.startRecording()
        }
        let keptPOIs = POIValidator.validate(read, city: city, categories: categories, bag: bag)
        if let k {
            let events = bag.stopRecording()
            // Kept POIs are a subsequence of those read: stored as their indexes.
            var indexes: [Int32] = []
            var next = 0
            for poi in keptPOIs {
                while next < read.count && read[next] != poi { next += 1 }
                guard next < read.count else { return keptPOIs }
                indexes.append(Int32(next))
                next += 1
            }
            storeCached("validatePOIs", key: k, events: events, counts: [:]) { $0.block(indexes) }
        }
        return keptPOIs
    }

    /// The GTFS rules on every feed read and the `pack.rules_not_run` findings about feeds, or their findings from
    /// the cache: keyed by the GTFS stage's key, the city file, the build date and the files that had reading
    /// errors.
    /// - Returns: whether every feed's stops were read completely.
    mutating func validateFeeds(today: (year: Int, month: Int, day: Int), errorFiles: Set<String>) -> Bool {
        var k: CacheKey?
        if cache != nil, let gtfsKey {
            var key = key("validateGTFS")
            key.add(gtfsKey)
            key.addContent(of: city.file)
            key.add("city directory", city.directory)
            key.add("today", "\(today)")
            key.add("error files", "\(errorFiles.sorted())")
            key.add("feeds existing", "\(city.gtfsFeeds.map { FileManager.default.fileExists(atPath: $0) })")
            k = key
            if let hit = loadCached("validateGTFS", key: key, decode: { r throws(CacheReader.Malformed) in try r.bool() }) {
                return hit.value
            }
            bag.startRecording()
        }
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
        if let k {
            storeCached("validateGTFS", key: k, events: bag.stopRecording(), counts: [:]) { [stopsComplete] in $0.bool(stopsComplete) }
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
