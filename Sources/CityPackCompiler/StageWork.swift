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
    private var city: City { plan.city }
    /// The file being read, for the progress callback.
    private let current: CurrentItem
    /// Hashes of the sources the emit stage lists, started at once so they are ready when it runs.
    private let sourceHashes: SourceHashes?

    private var osm: OSMIngestResult?
    private var feeds: [GTFSFeed] = []
    private var editorial = EditorialContent()
    private var copy: CopyTable?
    private var kept: [POI]?
    private var keptEditorial: EditorialContent?
    private var routesLeftOut: [WalkingRoute] = []
    private var emitted: EmitResult?
    private var failure: String?

    /// OSM files a fleet already read for this city, and the reader they went into.
    private let preread: PrereadOSM?

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

    private func display(_ path: String) -> String { Compiler.displayPath(path, city: city) }

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
    private mutating func ingestOSM(_ files: [String]) -> [StageCount: Int] {
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

    private mutating func ingestGTFS(_ paths: [String]) -> [StageCount: Int] {
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

    private mutating func ingestEditorial(_ directory: String) -> [StageCount: Int] {
        editorial = EditorialReader.read(
            directory: directory, displayDirectory: display(directory), defaultLocale: city.defaultLocale,
            locales: city.locales, bag: bag)
        return [.cards: editorial.cards.count, .routes: editorial.routes.count]
    }

    private mutating func ingestCopy(_ templateDirectory: String, _ cityDirectory: String?) -> [StageCount: Int] {
        let city = self.city
        let table = CopyReader.read(
            templateDirectory: templateDirectory, cityDirectory: cityDirectory, display: { Compiler.displayPath($0, city: city) },
            defaultLocale: city.defaultLocale, locales: city.locales, bag: bag)
        copy = table
        return [.strings: table.entries.values.reduce(0) { $0 + $1.count }]
    }

    // MARK: validate

    /// Every rule on what was read, also after reading errors: the checks that need what could not be read are
    /// named instead, in one `pack.rules_not_run` finding per source. A build with errors emits nothing either way.
    private mutating func validate() -> [StageCount: Int] {
        let read = osm?.pois ?? []
        let errorFiles = Set(bag.diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.file })
        let osmIncomplete = city.osmFiles.map(display).filter(errorFiles.contains)
        let categories = profile.categories
        let keptPOIs = POIValidator.validate(read, city: city, categories: categories, bag: bag)
        kept = keptPOIs
        let today = plan.options.buildDate ?? CivilDate.utc(secondsSince1970: Compiler.wallClockOrEpoch(plan.options))
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

    // MARK: emit

    private mutating func emit(_ outputDirectory: String) -> [StageCount: Int] {
        var sources: [Manifest.SourceFile] = []
        for (file, digest) in sourceHashes?.wait() ?? [] {
            sources.append(.init(path: display(file), bytes: digest.bytes, sha256: digest.sha256))
        }
        let createdAt = Compiler.buildTime(
            options: plan.options, newestTimestamp: osm?.newestTimestamp, feeds: feeds)
        var input = PackInput(
            city: city, pois: kept ?? [], categories: profile.categories, createdAt: createdAt,
            generator: Compiler.generator, sources: sources, transit: feeds)
        input.editorial = keptEditorial ?? EditorialContent()
        input.copy = copy.flatMap { $0.isEmpty ? nil : $0 }
        plan.options.progress?(ProgressEvent(stage: "emit", item: "\(city.id) pack", done: 0, total: 0, unit: "B"))
        var release = plan.options.release
        if !release.keepVersionsExplicit, let keep = city.keepVersions { release.keepVersions = keep }
        do {
            let result = try PackEmitter.emit(input, outputDirectory: outputDirectory, options: release)
            emitted = result
            return [.pois: result.manifest.counts.pois, .packBytes: Int(result.manifest.artifact.bytes)]
        } catch {
            bag.report(Rules.packIOFailure, error.message, at: SourceLocation(file: error.path))
            failure = error.description
            return [:]
        }
    }
}

/// The file being read, shared with the progress callback.
final class CurrentItem: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
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
