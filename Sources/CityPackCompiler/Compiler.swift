import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackValidate
import Foundation

/// The outcome of a build or check. Diagnostics are in the bag that was passed in.
public struct BuildReport: Sendable {
    public var plan: BuildPlan?
    public var city: City?
    /// POIs read from the sources, before validation.
    public var poisRead: Int = 0
    /// POIs that go into the pack.
    public var poisKept: Int = 0
    public var nodes: Int = 0
    public var ways: Int = 0
    public var relations: Int = 0
    /// Uncompressed source bytes read.
    public var bytesRead: Int64 = 0
    /// GTFS stops and stop_times read.
    public var stops: Int = 0
    public var stopTimes: Int = 0
    /// Editorial cards and walking routes read.
    public var cards: Int = 0
    public var routes: Int = 0
    /// Wall seconds per stage, in order.
    public var timings: [(stage: String, seconds: Double)] = []
    /// Set when the pack was written.
    public var emitted: EmitResult?
    /// Set when the build stopped on an unrecoverable failure (already reported in the bag as well).
    public var failure: String?
    /// The POIs of the report's city map: those kept by validation, or all read when validation did not run.
    public var pois: [POI] = []
    /// The GTFS feeds read (stops and lines for the report's city map).
    public var feeds: [GTFSFeed] = []
    /// The walking routes of the report's city map, waypoints placed where possible: after validation those
    /// that go into the pack, else every route read (see ``Compiler/placedRoutes(_:pois:)``).
    public var walkingRoutes: [WalkingRoute] = []
    /// The city's copy table (template defaults, the city's strings and the fallbacks filled in).
    public var copy: CopyTable?
    /// Routes validation left out of the pack (waypoints placed where possible), drawn as such on the map.
    public var walkingRoutesLeftOut: [WalkingRoute] = []
}

/// Orchestrates the stages: load city → ingest → validate → index and emit, stopping between stages when
/// errors were reported. Never prints; everything goes to the bag and the report.
public enum Compiler {
    /// The tool's name and version as written into packs.
    public static let generator = "citypack 0.1.0"

    /// Plans the stages for a city (for `--dry-run` and `-v`).
    public static func plan(for city: City, options: BuildOptions) -> BuildPlan {
        var stages: [BuildPlan.Stage] = [
            .init(
                name: "ingest", inputs: (city.osmFiles + city.gtfsFeeds).map { ($0 as NSString).lastPathComponent },
                outputs: city.gtfsFeeds.isEmpty ? ["POIs"] : ["POIs", "stops", "timetables"]),
            .init(name: "validate", inputs: ["POIs"], outputs: ["diagnostics", "POIs kept"]),
        ]
        if city.editorialDirectory != nil || city.copyDirectory != nil {
            stages[0].inputs += [city.editorialDirectory, city.copyDirectory].compactMap { $0 }.map { ($0 as NSString).lastPathComponent }
            stages[0].outputs += ["cards", "routes", "copy"]
        }
        if options.emit {
            stages.append(.init(name: "index", inputs: ["POIs kept"], outputs: ["geohash buckets", "search terms"]))
            stages.append(
                .init(
                    name: "emit", inputs: ["buckets", "POIs"],
                    outputs: ["\(options.outputDirectory)/\(city.id)/\(city.id)-N\(PackSchema.packSuffix)", "manifest.json", "copy/", "catalog.json"]))
        }
        return BuildPlan(stages: stages)
    }

    /// Runs a build (or a check when `options.emit` is false).
    public static func build(_ options: BuildOptions, bag: DiagnosticBag) -> BuildReport {
        var report = BuildReport()
        var clock = ContinuousClock.now
        func lap(_ name: String) {
            let now = ContinuousClock.now
            let d = now - clock
            report.timings.append((name, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18))
            clock = now
        }

        // Stage 0: the city file.
        guard let city = CityFileLoader.load(options.cityPath, bag: bag), !bag.hasErrors else { return report }
        bag.configure(overrides: city.severityOverrides, disabled: city.disabledRules)
        report.city = city
        report.plan = plan(for: city, options: options)

        // Profile.
        guard let templates = TemplateLocator.locate(explicit: options.templatesDirectory, cityPath: options.cityPath)
        else {
            bag.report(
                Rules.cityMissingSource,
                "cannot find the templates folder (categories.json); pass --templates DIR or set CITYPACK_TEMPLATES",
                at: SourceLocation(file: city.file))
            return report
        }
        let profileDirectory = city.profile ?? templates
        let profile: TemplatePOIProfile
        do {
            profile = try TemplatePOIProfile.load(templatesDirectory: URL(fileURLWithPath: profileDirectory))
        } catch {
            bag.report(Rules.cityMissingSource, "cannot load the category profile: \(error)", at: SourceLocation(file: profileDirectory))
            return report
        }

        // Source hashes for the manifest are computed on the second core while the first one parses.
        let sourceHashes = options.emit
            ? SourceHashes(files: city.osmFiles + city.gtfsFeeds + [city.editorialDirectory, city.copyDirectory].compactMap { $0 })
            : nil

        // Stage 1: ingest.
        let progress = options.progress
        let current = CurrentItem()
        var readOptions = OSMReadOptions(limits: city.limits)
        if progress != nil { readOptions.progressInterval = 1 << 20 }
        readOptions.progress = { done, total in
            progress?(ProgressEvent(stage: "ingest", item: current.name, done: done, total: total))
        }
        let reader = OSMReader(profile: profile, bag: bag, options: readOptions)
        for file in city.osmFiles {
            let display = displayPath(file, city: city)
            current.name = display
            do {
                try reader.read(file: file, displayPath: display)
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: display))
            }
        }
        let ingested = reader.finish()
        var feeds: [GTFSFeed] = []
        for path in city.gtfsFeeds {
            let display = displayPath(path, city: city)
            current.name = display
            do {
                var gtfsOptions = GTFSReadOptions(limits: city.limits)
                if let progress {
                    gtfsOptions.progress = { file, done, total in
                        progress(ProgressEvent(stage: "ingest", item: file, done: done, total: total, unit: "rows"))
                    }
                }
                if let feed = try GTFSReader.read(path: path, displayPath: display, bag: bag, options: gtfsOptions) { feeds.append(feed) }
            } catch {
                bag.report(Rules.packIOFailure, "\(error)", at: SourceLocation(file: display))
            }
        }
        // Editorial CSV and copy (template defaults + the city's overrides).
        var editorial = EditorialContent()
        if let directory = city.editorialDirectory {
            editorial = EditorialReader.read(
                directory: directory, displayDirectory: displayPath(directory, city: city),
                defaultLocale: city.defaultLocale, locales: city.locales, bag: bag)
        }
        let copy = CopyReader.read(
            templateDirectory: (templates as NSString).appendingPathComponent("copy"), cityDirectory: city.copyDirectory,
            display: { displayPath($0, city: city) }, defaultLocale: city.defaultLocale, locales: city.locales, bag: bag)
        report.copy = copy
        report.cards = editorial.cards.count
        report.routes = editorial.routes.count
        report.stops = feeds.reduce(0) { $0 + $1.stops.count }
        report.stopTimes = feeds.reduce(0) { $0 + $1.stopTimes.count }
        report.poisRead = ingested.pois.count
        report.nodes = ingested.nodes
        report.ways = ingested.ways
        report.relations = ingested.relations
        report.bytesRead = ingested.bytesRead
        report.pois = ingested.pois
        report.feeds = feeds
        report.walkingRoutes = placedRoutes(editorial.routes, pois: ingested.pois)
        lap("ingest")

        // Stage 2: validate. It runs also after reading errors, so that one `check` shows every problem: every
        // rule runs on what was read, except the checks that need what could not be read, which are named in
        // one `pack.rules_not_run` finding per source. A build with errors emits nothing either way.
        let errorFiles = Set(bag.diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.file })
        let osmDisplays = city.osmFiles.map { displayPath($0, city: city) }
        let osmIncomplete = osmDisplays.filter(errorFiles.contains)
        let categories = profile.categories
        let kept = POIValidator.validate(ingested.pois, city: city, categories: categories, bag: bag)
        report.poisKept = kept.count
        report.pois = kept
        let today = options.buildDate ?? Self.buildDate(seconds: Self.wallClockOrEpoch())
        var stopsComplete = feeds.count == city.gtfsFeeds.count
        for feed in feeds {
            let incomplete = GTFSValidator.incompleteTables(of: feed, errorFiles: errorFiles)
            if incomplete.contains("stops") { stopsComplete = false }
            GTFSValidator.validate(feed, bbox: city.bbox, buildDate: today, bag: bag, incompleteTables: incomplete)
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
        for (path, display) in zip(city.gtfsFeeds, city.gtfsFeeds.map { displayPath($0, city: city) })
        where !feeds.contains(where: { $0.displayPath == display }) && FileManager.default.fileExists(atPath: path) {
            bag.report(
                Rules.packRulesNotRun, "the feed could not be read, so no GTFS rule ran on it",
                at: SourceLocation(file: display), entity: display)
        }
        let stopIDs = Set(feeds.flatMap { $0.stops.map(\.id) })
        var editorialContext = EditorialContext(city: city, pois: kept, categories: categories, stopIDs: stopIDs)
        editorialContext.poisComplete = osmIncomplete.isEmpty
        editorialContext.stopsComplete = stopsComplete
        for file in osmIncomplete {
            bag.report(
                Rules.packRulesNotRun,
                "the OSM data had reading errors: the POI rules ran on the \(ingested.pois.count) POIs that were read, but "
                    + "the checks that need every POI (editorial.route_unknown_poi, editorial.category_without_poi) did not run",
                at: SourceLocation(file: file), entity: file)
        }
        editorial = EditorialValidator.validate(editorial, context: editorialContext, bag: bag)
        report.walkingRoutesLeftOut = leftOutRoutes(read: report.walkingRoutes, packed: editorial.routes)
        report.walkingRoutes = editorial.routes
        CopyValidator.validate(copy, bag: bag)
        if kept.isEmpty && report.stops == 0 {
            bag.report(Rules.packEmpty, "no POI of the profile's categories inside the city bbox", at: SourceLocation(file: city.file))
        }
        lap("validate")
        if bag.hasErrors || !options.emit { return report }

        // Stages 3–4: index and emit.
        var sources: [Manifest.SourceFile] = []
        for (file, digest) in sourceHashes?.wait() ?? [] {
            sources.append(.init(path: displayPath(file, city: city), bytes: digest.bytes, sha256: digest.sha256))
        }
        let createdAt = buildTime(options: options, newestTimestamp: ingested.newestTimestamp, files: city.osmFiles + city.gtfsFeeds)
        var input = PackInput(
            city: city, pois: kept, categories: categories, createdAt: createdAt,
            generator: generator, sources: sources, transit: feeds)
        input.editorial = editorial
        input.copy = copy.isEmpty ? nil : copy
        progress?(ProgressEvent(stage: "emit", item: "\(city.id) pack", done: 0, total: 0, unit: "B"))
        do {
            var release = options.release
            if !release.keepVersionsExplicit, let keep = city.keepVersions { release.keepVersions = keep }
            report.emitted = try PackEmitter.emit(input, outputDirectory: options.outputDirectory, options: release)
        } catch {
            bag.report(Rules.packIOFailure, error.message, at: SourceLocation(file: error.path))
            report.failure = error.description
        }
        lap("index+emit")
        return report
    }

    /// A source path as shown in diagnostics and the manifest: relative to the city directory when inside it.
    static func displayPath(_ file: String, city: City) -> String {
        let dir = city.directory.isEmpty ? "." : city.directory
        let rel = CityFileWriter.relativePath(of: file, from: dir)
        if rel.hasPrefix("/") || rel.hasPrefix("..") { return file }
        return (dir == "." ? rel : (dir as NSString).appendingPathComponent(rel))
    }

    /// `SOURCE_DATE_EPOCH` (option or environment), else the newest OSM element timestamp, else the newest
    /// source file's modification time. Never the wall clock, so rebuilds are reproducible.
    static func buildTime(options: BuildOptions, newestTimestamp: String?, files: [String]) -> Int64 {
        if let fixed = options.sourceDateEpoch { return fixed }
        if let env = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let v = Int64(env) { return v }
        if let ts = newestTimestamp, let seconds = parseISO8601(ts) { return seconds }
        var newest: Int64 = 0
        for file in files {
            if let date = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date {
                newest = max(newest, Int64(date.timeIntervalSince1970))
            }
        }
        return newest
    }

    /// `SOURCE_DATE_EPOCH` when set (so expiry checks are reproducible), else the wall clock.
    static func wallClockOrEpoch() -> Int64 {
        if let env = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let v = Int64(env) { return v }
        return Int64(Date().timeIntervalSince1970)
    }

    /// The UTC calendar date of a time.
    static func buildDate(seconds: Int64) -> (year: Int, month: Int, day: Int) {
        let text = iso8601UTC(seconds)
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        return (parts[0], parts[1], parts[2])
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` without Foundation formatters (locale-independent).
    static func parseISO8601(_ text: String) -> Int64? {
        let digits = text.unicodeScalars.filter { $0.properties.numericType != nil }.map { Int64($0.value - 48) }
        guard digits.count >= 14 else { return nil }
        func n(_ from: Int, _ count: Int) -> Int64 { digits[from..<(from + count)].reduce(0) { $0 * 10 + $1 } }
        let (y, m, d, hh, mm, ss) = (n(0, 4), n(4, 2), n(6, 2), n(8, 2), n(10, 2), n(12, 2))
        guard (1...12).contains(m), (1...31).contains(d) else { return nil }
        // Days from civil (inverse of iso8601UTC).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return days * 86_400 + hh * 3600 + mm * 60 + ss
    }
}

/// The file being read, shared with the progress callback.
private final class CurrentItem: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    var name: String {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// SHA-256 of the source files, computed on a background queue; ``wait()`` returns them in input order.
/// Directories (unzipped GTFS feeds) are hashed file by file in name order.
private final class SourceHashes: @unchecked Sendable {
    private let group = DispatchGroup()
    private var results: [(String, FileDigest)] = []

    init(files: [String]) {
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var out: [(String, FileDigest)] = []
            for file in files {
                if let digest = Self.digest(file) { out.append((file, digest)) }
            }
            results = out
            group.leave()
        }
    }

    func wait() -> [(String, FileDigest)] {
        group.wait()
        return results
    }

    static func digest(_ path: String) -> FileDigest? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue { return try? FileDigest(path: path) }
        // A folder: hash the concatenation of "name\0sha256\n" lines of its files.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var lines = ""
        var bytes = 0
        for name in names {
            if let d = try? FileDigest(path: (path as NSString).appendingPathComponent(name)) {
                lines += "\(name)\u{0}\(d.sha256)\n"
                bytes += d.bytes
            }
        }
        return FileDigest(bytes: bytes, sha256: FileDigest.sha256(of: Data(lines.utf8)))
    }
}
