import CityPackDiagnostics
import CityPackIngest
import Foundation

/// `citypack bench --incremental CITY_DIR`: what the build cache saves an editor who rebuilds one city after a
/// small edit. Every scenario runs in a temporary copy of the city (its OSM and GTFS sources copied beside it, so
/// they can be touched): the median wall time of `--runs` builds, its ratio to a clean build (`--no-cache`, empty
/// output folder), the median of the same build without the cache (after the same first build: it also makes the
/// deltas from the previous release), and whether the outputs equal those of the same two builds made without the cache (every
/// file but `.cache/` and `build-stats.json`, which holds times).
extension Benchmarks {
    /// One kind of edit between the first build and the timed one.
    private struct Scenario {
        var label: String
        var edit: (_ city: String) throws -> Void
    }

    /// - Parameter rebuild: builds `city` into `output` twice in this process, as `build --watch` does — once with
    ///   the cache warm, then again after `edit` — and returns the second build's wall seconds, or nil when it wrote
    ///   no pack.
    package func incremental(
        _ cityArgument: String,
        rebuild: (_ city: String, _ output: String, _ edit: () throws -> Void) throws -> Double?
    ) throws {
        let fm = FileManager.default
        let original = cityArgument.hasSuffix(".yaml") ? (cityArgument as NSString).deletingLastPathComponent : cityArgument
        guard let source = CityFileLoader.load(original, knownRules: [], bag: DiagnosticBag()) else {
            throw BenchFailure(.missingInput, "cannot load the city file of \(cityArgument)")
        }
        let work = fm.temporaryDirectory.appendingPathComponent("citypack-bench-incremental-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }
        let me = ProcessInfo.processInfo.arguments[0].hasPrefix("/")
            ? ProcessInfo.processInfo.arguments[0] : (Bundle.main.executableURL?.path ?? ProcessInfo.processInfo.arguments[0])

        // The prepared city: a copy with its sources beside it, an editorial folder and a copy folder (minimal ones
        // when it has none, so that there is a row and a string to change).
        let prepared = "\(work)/prepared"
        try fm.copyItem(atPath: original, toPath: prepared)
        var yaml = try String(contentsOfFile: "\(prepared)/city.yaml", encoding: .utf8)
        var osmCopies: [String] = [], gtfsCopies: [String] = []
        for (i, path) in (source.osmFiles + source.gtfsFeeds).enumerated() {
            let isOSM = i < source.osmFiles.count
            let name = "source-\(i)-" + (path as NSString).lastPathComponent
            if path.hasPrefix("/") {
                guard yaml.contains(path) else {
                    throw BenchFailure(.usage, "cannot find \(path) in the city file to point it at a copy")
                }
                try fm.copyItem(atPath: path, toPath: "\(prepared)/\(name)")
                yaml = yaml.replacingOccurrences(of: path, with: name)
                (isOSM ? { osmCopies.append(name) } : { gtfsCopies.append(name) })()
            } else {
                let relative = path.hasPrefix(original + "/") ? String(path.dropFirst(original.count + 1)) : nil
                guard let relative, !relative.hasPrefix("..") else {
                    throw BenchFailure(.usage, "\(path): the benchmark copies the city folder, so its sources must be inside it or absolute")
                }
                (isOSM ? { osmCopies.append(relative) } : { gtfsCopies.append(relative) })()
            }
        }
        try yaml.write(toFile: "\(prepared)/city.yaml", atomically: true, encoding: .utf8)
        let editorial = source.editorialDirectory.map { "\(prepared)/" + ($0 as NSString).lastPathComponent } ?? "\(prepared)/editorial"
        if source.editorialDirectory == nil {
            try fm.createDirectory(atPath: editorial, withIntermediateDirectories: true)
            try "card_id,icon,home,title\ntoilet,toilet,1,Toilets\n".write(toFile: "\(editorial)/cards.csv", atomically: true, encoding: .utf8)
            try "situation_id,card_id,title,body\ntoilet_now,toilet,I need a toilet now,The closest toilets are listed first.\n"
                .write(toFile: "\(editorial)/situations.csv", atomically: true, encoding: .utf8)
            try "action_id,situation_id,kind,target,label,text\ntoilet_now_nearby,toilet_now,nearby,toilet,Show nearby toilets,\n"
                .write(toFile: "\(editorial)/actions.csv", atomically: true, encoding: .utf8)
        }
        let copy = source.copyDirectory.map { "\(prepared)/" + ($0 as NSString).lastPathComponent } ?? "\(prepared)/copy"
        if source.copyDirectory == nil {
            try fm.createDirectory(atPath: copy, withIntermediateDirectories: true)
            try "app.welcome: \"Welcome to {city}\"\n".write(toFile: "\(copy)/\(source.defaultLocale).yaml", atomically: true, encoding: .utf8)
        }

        func editCSV(_ city: String) throws {
            let folder = city + editorial.dropFirst(prepared.count)
            let file = "\(folder)/cards.csv"
            var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
            guard lines.count > 1 else { throw BenchFailure(.invalidArgument, "\(file) has no row to change") }
            lines[1] = lines[1].hasSuffix("\"") ? String(lines[1].dropLast()) + " (edited)\"" : lines[1] + " (edited)"
            try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        func editCopy(_ city: String) throws {
            let folder = city + copy.dropFirst(prepared.count)
            let files = (try fm.contentsOfDirectory(atPath: folder)).filter { $0.hasSuffix(".yaml") }.sorted()
            for name in files {
                let file = "\(folder)/\(name)"
                var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
                guard let i = lines.firstIndex(where: { !$0.hasPrefix("#") && $0.contains(": \"") && $0.hasSuffix("\"") }) else { continue }
                lines[i] = String(lines[i].dropLast()) + " (edited)\""
                try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
                return
            }
            throw BenchFailure(.invalidArgument, "no quoted copy string to change in \(folder)")
        }
        func touch(_ file: String) throws {
            try fm.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file)
        }
        /// A `.gz` source gets an empty gzip member appended: other bytes, the same data.
        func change(_ file: String) throws {
            guard file.hasSuffix(".gz"), let handle = FileHandle(forWritingAtPath: file) else { return try touch(file) }
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
        }

        var scenarios: [Scenario] = [
            Scenario(label: "unchanged rebuild", edit: { _ in }),
            Scenario(label: "one editorial CSV row changed", edit: editCSV),
            Scenario(label: "one copy string changed", edit: editCopy),
        ]
        if let osm = osmCopies.first {
            scenarios.append(Scenario(label: "OSM file touched (same bytes)", edit: { try touch("\($0)/\(osm)") }))
            if osm.hasSuffix(".gz") {
                scenarios.append(Scenario(label: "OSM file changed (bytes)", edit: { try change("\($0)/\(osm)") }))
            }
        }
        if let feed = gtfsCopies.first {
            scenarios.append(Scenario(label: "GTFS feed touched (same bytes)", edit: { try touch("\($0)/\(feed)") }))
        }

        // Every build runs on the same paths (`run/city`, `run/out`), so the cache keys, which name them, match.
        let run = "\(work)/run", city = "\(run)/city", out = "\(run)/out"
        func reset(withOutputOf base: String?) throws {
            try? fm.removeItem(atPath: run)
            if let base {
                try fm.copyItem(atPath: base, toPath: run)
            } else {
                try fm.createDirectory(atPath: run, withIntermediateDirectories: true)
                try fm.copyItem(atPath: prepared, toPath: city)
            }
        }
        func build(_ extra: [String] = []) throws -> ChildProcess.Measurement {
            guard let m = ChildProcess.measure(me, ["build", city, "--output", out, "--quiet"] + extra), m.status == 0 else {
                throw BenchFailure(.dataErrors, "the build of \(cityArgument) failed (run `citypack build` on it to see why)")
            }
            return m
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

        output.err("benchmarking incremental builds of \(cityArgument), \(runs) runs each…\n")
        noteSpawner()
        var cleanTimes: [Double] = []
        for _ in 0..<runs {
            try reset(withOutputOf: nil)
            cleanTimes.append(try build(["--no-cache"]).seconds)
        }
        let clean = median(cleanTimes)
        // The state every scenario starts from: one build with the cache.
        try reset(withOutputOf: nil)
        _ = try build()
        let base = "\(work)/base"
        try fm.copyItem(atPath: run, toPath: base)

        func label(_ text: String) -> String { text.padding(toLength: 34, withPad: " ", startingAt: 0) }
        /// The same edit rebuilt in one process, as `build --watch` and `preview` rebuild: a first build (the
        /// cache warm from `base`), the edit, then the timed rebuild. Sources are left 2 s to settle first, as an
        /// editor's are, so the digest memo may keep them (``DigestMemo``: fresh files are always hashed again).
        func inProcess(_ scenario: Scenario) throws -> Double {
            try reset(withOutputOf: base)
            Thread.sleep(forTimeInterval: 2.1)
            guard let seconds = try rebuild(city, out, { try scenario.edit(city) }) else {
                throw BenchFailure(.dataErrors, "the in-process rebuild of \(cityArgument) failed")
            }
            return seconds
        }

        var text = label("build") + "   wall s  / clean  no cache s  outputs\n"
        text += label("clean build (--no-cache)") + String(format: " %8.3f %8.2f\n", clean, 1.0)
        var allIdentical = true
        var inProcessRows = ""
        for scenario in scenarios {
            var times: [Double] = []
            var cached: [String: Data] = [:]
            for _ in 0..<runs {
                try reset(withOutputOf: base)
                try scenario.edit(city)
                times.append(try build().seconds)
                cached = snapshot(out)
            }
            // The same two builds without the cache (the second one timed: what the edit costs without the cache,
            // deltas from the previous release included, which a clean build into an empty folder does not make).
            var uncached: [Double] = []
            var reference: [String: Data] = [:]
            for _ in 0..<runs {
                try reset(withOutputOf: nil)
                _ = try build(["--no-cache"])
                try scenario.edit(city)
                uncached.append(try build(["--no-cache"]).seconds)
                reference = snapshot(out)
            }
            var watched: [Double] = []
            for _ in 0..<runs { watched.append(try inProcess(scenario)) }
            inProcessRows += label(scenario.label) + String(format: " %8.3f %8.2f\n", median(watched), median(watched) / clean)
            let identical = cached == reference
            allIdentical = allIdentical && identical
            let differing = Set(cached.keys).union(reference.keys).filter { cached[$0] != reference[$0] }.sorted()
            text += label(scenario.label) + String(format: " %8.3f %8.2f %10.3f  ", median(times), median(times) / clean, median(uncached))
                + (identical ? "identical to the same builds without the cache" : "DIFFER: \(differing.prefix(5).joined(separator: ", "))") + "\n"
        }
        text += "\nthe same rebuilds in one process (build --watch, preview), against the clean build above\n"
            + label("rebuild") + "   wall s  / clean\n" + inProcessRows
        output.out(text)
        if !allIdentical { throw BenchFailure(.dataErrors, "") }
    }

    /// Every file under `folder` by relative path, but the build cache and `build-stats.json` (times).
    private func snapshot(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for file in FileManager.default.subpaths(atPath: folder) ?? [] {
            if file.hasPrefix(".cache") || file.hasSuffix("build-stats.json") || file == ".lock" { continue }
            if let data = FileManager.default.contents(atPath: "\(folder)/\(file)") { out[file] = data }
        }
        return out
    }
}
