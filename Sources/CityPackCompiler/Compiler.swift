import CityPackCache
import CityPackDiagnostics
import CityPackEmit
import CityPackIngest
import CityPackModel
import CityPackSupport
import Foundation

/// Plans and runs builds: ``plan(_:bag:)`` reads the city file and the category profile and decides the stages;
/// ``run(_:bag:)`` executes them in order, stopping between them when errors were reported (see
/// ``BuildPhase/runsAfterErrors``). Never prints; everything goes to the bag and the report.
package enum Compiler {
    /// Plans a build (or a check when `options.emit` is false): loads the city file, applies its rule settings
    /// to the bag, finds the templates folder and loads the category profile, and lists the stages.
    /// - Parameters:
    ///   - options: what to build.
    ///   - bag: receives the city file's and the profile's problems.
    /// - Returns: nil when the city file could not be loaded or has errors; a plan without stages when the
    ///   templates or the profile could not be loaded (reported).
    package static func plan(_ options: BuildOptions, bag: DiagnosticBag) -> BuildPlan? {
        var lap = TimeTrace.Lap()
        defer { lap.mark("plan: templates, profile, stages") }
        guard let city = CityFileLoader.load(options.cityPath, bag: bag), !bag.hasErrors else { return nil }
        lap.mark("plan: city file")
        bag.configure(overrides: city.severityOverrides, disabled: city.disabledRules)
        var plan = BuildPlan(options: options, city: city, stages: [])
        let templates = TemplateLocator.locate(explicit: options.templatesDirectory, cityPath: options.cityPath)
        plan.templates = templates
        let profile = city.profile.map(TemplateSource.folder) ?? templates
        // The sources' stat facts before the first hash (the profile's): a damaged entry is reported when the
        // stages load it again.
        let cache = options.useCache ? StageCache(outputDirectory: options.outputDirectory, cityID: city.id, bag: DiagnosticBag()) : nil
        if let cache { _ = StageWork.loadFacts(cache) }
        do {
            (plan.profile, plan.profileStore) = try ProfileMemo.load(profile, cache: cache)
        } catch {
            bag.report(Rules.cityMissingSource, "cannot load the category profile: \(error)", at: SourceLocation(file: profile.path("")))
            return plan
        }
        plan.stages = BuildPlan.stages(for: city, templates: templates, options: options)
        return plan
    }

    /// Runs exactly the stages of `plan`, in order. A stage whose phase does not run after errors
    /// (``BuildPhase/runsAfterErrors``: index+emit) is not started once the bag has errors, and neither is any
    /// stage after it.
    /// - Parameters:
    ///   - plan: from ``plan(_:bag:)``, with the same bag.
    ///   - bag: receives every finding.
    /// - Returns: what was read, kept and written, and one ``StageRecord`` per stage that ran.
    package static func run(_ plan: BuildPlan, bag: DiagnosticBag) -> BuildReport { run(plan, bag: bag, preread: nil) }

    /// ``run(_:bag:)`` with OSM files a fleet already read for the city.
    static func run(_ plan: BuildPlan, bag: DiagnosticBag, preread: PrereadOSM?) -> BuildReport {
        var report = BuildReport(plan: plan)
        guard let profile = plan.profile else { return report }
        var work = StageWork(plan: plan, profile: profile, bag: bag, preread: preread)
        for stage in plan.stages {
            if bag.hasErrors && !stage.phase.runsAfterErrors { break }
            let start = ContinuousClock.now
            var lap = TimeTrace.Lap()
            let loaded = work.cachedEntries.count
            let counts = work.execute(stage)
            lap.mark("stage: \(stage.kind.name)")
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var record = StageRecord(stage: stage, seconds: seconds, counts: counts)
            record.cached = Array(work.cachedEntries[loaded...])
            report.records.append(record)
        }
        work.flushCache()
        work.fill(&report)
        return report
    }

    /// Plans and runs a build (or a check when `options.emit` is false).
    /// - Returns: the report; an empty one when the city file could not be loaded.
    package static func build(_ options: BuildOptions, bag: DiagnosticBag) -> BuildReport {
        guard let plan = plan(options, bag: bag) else { return BuildReport() }
        return run(plan, bag: bag)
    }

    /// A source path as shown in diagnostics and the manifest: relative to the city directory when inside it,
    /// else the path with `.` and `..` folded (`inputs/x/../../data/feed.zip` → `data/feed.zip`).
    static func displayPath(_ file: String, city: City) -> String {
        let dir = city.directory.isEmpty ? "." : city.directory
        let rel = CityFileWriter.relativePath(of: file, from: dir)
        if rel.hasPrefix("/") || rel.hasPrefix("..") { return lexicallyNormalized(file) }
        return lexicallyNormalized(dir == "." ? rel : (dir as NSString).appendingPathComponent(rel))
    }

    /// A source path as the manifest names it: relative to the city directory, whatever folder the build ran in
    /// and however the city was named on the command line (`monaco-2021.osm.gz`, `../shared/feed.zip`), so the
    /// manifest of the same inputs is the same bytes everywhere and never names a folder of the build machine; a
    /// source that has no relative path from there (another file system root) is named by its file name.
    static func manifestSourcePath(_ file: String, city: City) -> String {
        let dir = city.directory.isEmpty ? "." : city.directory
        let rel = lexicallyNormalized(CityFileWriter.relativePath(of: file, from: dir))
        if rel.hasPrefix("/") || rel.isEmpty { return (file as NSString).lastPathComponent }
        return rel
    }

    /// `path` with empty and `.` components dropped and each `..` folded into the component before it (no
    /// symbolic link is resolved: the text only); leading `..` of a relative path stay.
    static func lexicallyNormalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The fixed build time (``BuildOptions/sourceDateEpoch``; `citypack` passes `SOURCE_DATE_EPOCH`), else the newest OSM element timestamp, else the newest time
    /// the GTFS feeds' data gives (``GTFSFeed/dataTime``: the file times recorded inside a zip, feed_info's start
    /// date, the first service day), else 0 (1970-01-01). Never the wall clock and never a file's modification
    /// time, so rebuilds are reproducible wherever and whenever the sources were copied.
    static func buildTime(options: BuildOptions, newestTimestamp: String?, feeds: [GTFSFeed]) -> Int64 {
        if let fixed = options.sourceDateEpoch { return fixed }
        if let ts = newestTimestamp, let seconds = parseISO8601UTC(ts) { return seconds }
        return feeds.compactMap(\.dataTime).max() ?? 0
    }

    /// The fixed build time when given (so expiry checks are reproducible), else the wall clock.
    static func wallClockOrEpoch(_ options: BuildOptions) -> Int64 {
        options.sourceDateEpoch ?? Int64(Date().timeIntervalSince1970)
    }

    /// Where a top-level key of a city file is written (line and column 1), else the file itself.
    static func keyLocation(_ key: String, in file: String) -> SourceLocation {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return SourceLocation(file: file) }
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("\(key):") {
            return SourceLocation(file: file, line: n + 1, column: 1)
        }
        return SourceLocation(file: file)
    }
}
