import ArgumentParser
import CityPackDevTools
import CityPackFormat
import CityPackIngest
import CityPackKit
import Foundation

/// `citypack bench`: build speed and memory against xmllint and osmium, and nearby-query latency.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark: build an OSM extract (wall time, MB/s, peak RSS) next to `xmllint --stream` and "
            + "`osmium tags-filter`, then time nearby(25 m) on the pack against a brute-force scan.",
        discussion: "Targets: build ≤ osmium tags-filter's time; peak RSS ≤ 150 MB; nearby(25 m) median ≤ 5 µs and ≥ 100× brute force.")

    @Option(name: .long, help: "OSM file (default: ../shared/data/osm/liechtenstein-2024.osm.gz, else the Monaco example).")
    var osm: String?

    @Flag(name: .customLong("pack-size"), help: ArgumentHelp(
        "Instead of timing: build the extract once and print the pack's gzip'd bytes per POI next to the gzip'd "
            + "GeoJSON lines of the same kind of objects (`osmium tags-filter` amenity/shop/tourism/stations, then "
            + "`osmium export -f geojsonseq`), and their ratio (goal ≤ 1.0); without osmium the baseline is skipped."))
    var packSize = false

    @Option(name: .long, help: "Timed runs per tool (median reported).")
    var runs: Int = 3

    @Option(name: .long, help: "Radius in metres for the nearby benchmark.")
    var radius: Double = 25

    @Option(name: .long, help: "Benchmark `citypack check` on this GTFS feed (folder or .zip) against gtfs-guru instead.")
    var gtfs: String?

    @Flag(name: .customLong("gtfs-memory"), help: ArgumentHelp(
        "Instead: peak RSS of `citypack check` on a generated GTFS zip bomb (about 1 GiB of stop_times, which must "
            + "be refused with gtfs.zip_bomb), on a generated feed of --gtfs-memory-rows stop_times rows (folder and "
            + "zip: wall time too), and on each feed of ../shared/data/gtfs when present. Targets: bomb < 100 MB."))
    var gtfsMemory = false

    @Option(name: .customLong("gtfs-memory-rows"), help: "stop_times rows of the generated feed for --gtfs-memory.")
    var gtfsMemoryRows: Int = 10_000_000

    @Option(name: .customLong("checker"), help: ArgumentHelp(
        "The citypack binary whose `check` --gtfs-memory measures (default: this one), to compare builds.",
        visibility: .hidden))
    var checkerBinary: String?

    @Option(name: .customLong("osm-testdata"), help: ArgumentHelp(
        "Instead of timing: run every case of an osmcode/osm-testdata folder (xml and grid) through the OSM reader "
            + "and print whether CityPack's verdict agrees with the case's expected result.", valueName: "dir"))
    var osmTestdata: String?

    @Option(name: .long, help: ArgumentHelp(
        "Instead: fleet builds from this country-size PBF (../shared/tools/make-country.py makes one) — one city's "
            + "wall time and peak RSS against the same city's own extract, a fleet of --fleet-cities, and osmium "
            + "tags-filter and osmium extract --config on the same file. Needs --bboxes.", valueName: "pbf"))
    var country: String?

    @Option(name: .long, help: ArgumentHelp("The city boxes for --country (make-country.py --bboxes).", valueName: "json"))
    var bboxes: String?

    @Option(name: .customLong("fleet-cities"), help: "Cities in the --country fleet.")
    var fleetCities: Int = 10

    @Option(name: .long, help: ArgumentHelp(
        "Instead: the build cache on this city — a clean build (--no-cache), then an unchanged rebuild, one editorial "
            + "CSV row changed, one copy string changed and its OSM/GTFS sources touched or changed, each in a temporary "
            + "copy: median wall time of --runs builds, ratio to clean, and whether the outputs equal those of the same "
            + "builds without the cache. Targets: unchanged ≤ 0.10 × clean; one row or string ≤ 0.25 ×.", valueName: "city-dir"))
    var incremental: String?

    @Option(name: .long, help: ArgumentHelp(
        "Instead: \"where is the nearest …?\" on this pack (manifest, folder or pack) — for --points random points in "
            + "its box and toilet/ATM/food/metro/pharmacy in English and the city's language, how often the first "
            + "result of search(word, near:) is the brute-force nearest place of the category (goal ≥ 99 %), and "
            + "the search's median and p90 time (goal p50 ≤ 2 ms).", valueName: "pack"))
    var search: String?

    @Option(name: .long, help: "Random points for --search.")
    var points: Int = 1000

    @Option(name: .long, help: ArgumentHelp(
        "Instead: the journey planner on this pack (manifest, folder or pack): earliest arrival p50/p99 with ≤ 5 "
            + "transfers, 60-minute range queries, the routing data's load time, and an independent connection scan "
            + "on the same queries. Targets (Milan, release): p50 ≤ 5 ms, p99 ≤ 30 ms, range ≤ 100 ms, load ≤ 150 ms.",
        valueName: "manifest"))
    var journeys: String?

    func validate() throws {
        if country != nil && bboxes == nil { throw ValidationError("--country needs --bboxes") }
        if fleetCities < 1 { throw ValidationError("--fleet-cities must be at least 1") }
        if runs < 1 { throw ValidationError("--runs must be at least 1") }
        if gtfsMemoryRows < 1 { throw ValidationError("--gtfs-memory-rows must be at least 1") }
    }

    func run() throws {
        if let search {
            let reader = try PackArgument.open(search)
            let figures = try SearchBenchmark.measure(reader, points: max(1, points))
            var text = "\(search): search(word, near:) at \(max(1, points)) random points\n"
            for w in figures.words {
                text += w.points == 0
                    ? "  \(w.word) (\(w.category)): no such place in the pack\n"
                    : "  \(w.word) (\(w.category)): first result is the nearest at \(w.agreeing)/\(w.points)\n"
            }
            let checked = figures.words.reduce(0) { $0 + $1.points }
            let agreeing = figures.words.reduce(0) { $0 + $1.agreeing }
            text += "  all: \(agreeing)/\(checked)"
            text += checked > 0 ? String(format: " (%.2f %%)\n", 100 * Double(agreeing) / Double(checked)) : "\n"
            text += String(
                format: "  search(word, near:): p50 %.1f µs, p90 %.1f µs (%d queries)\n",
                figures.medianNanoseconds / 1000, figures.p90Nanoseconds / 1000, figures.queries)
            for k in try SearchBenchmark.kinds(reader, points: min(points, 300)) {
                text += "  \(k.kind): " + String(format: "p50 %.1f µs, p95 %.1f µs (%d queries)\n", k.p50Nanoseconds / 1000, k.p95Nanoseconds / 1000, k.queries)
            }
            Terminal.out(text)
            return
        }
        if let journeys {
            let first = try PackArgument.open(journeys)
            let path = first.databasePath
            defer { first.close() }
            let result = try JourneyBenchmark.run(open: { try PackArgument.open(journeys) }, databasePath: path)
            Terminal.out(result.text)
            return
        }
        if let incremental {
            try benchIncremental(incremental)
            return
        }
        if let country, let bboxes {
            try benchFleet(country: country, bboxes: bboxes)
            return
        }
        if let osmTestdata {
            try benchOSMTestdata(osmTestdata)
            return
        }
        if gtfsMemory {
            try benchGTFSMemory()
            return
        }
        if let gtfs {
            try benchGTFS(gtfs)
            return
        }
        let fm = FileManager.default
        let source = osm ?? ["../shared/data/osm/liechtenstein-2024.osm.gz", "inputs/monaco/monaco-2021.osm.gz"].first {
            fm.fileExists(atPath: $0)
        } ?? "inputs/monaco/monaco-2021.osm.gz"
        guard fm.fileExists(atPath: source) else {
            Terminal.err("citypack: error: no such file: \(source)\n")
            throw ExitCode(ExitCodes.missingInput)
        }
        let work = fm.temporaryDirectory.appendingPathComponent("citypack-bench-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }

        let me = ProcessInfo.processInfo.arguments[0].hasPrefix("/")
            ? ProcessInfo.processInfo.arguments[0]
            : (Bundle.main.executableURL?.path ?? ProcessInfo.processInfo.arguments[0])
        func size(_ path: String) -> Double { Double((try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_000_000 }
        func initCity(_ dir: String, _ osmFile: String) throws {
            guard ChildProcess.measure(me, ["init", dir, "--osm", osmFile, "--id", "bench"])?.status == 0 else {
                Terminal.err("citypack: error: init failed on \(osmFile)\n")
                throw ExitCode(ExitCodes.dataErrors)
            }
        }
        let osmium = ChildProcess.which("osmium")
        let cores = ProcessInfo.processInfo.activeProcessorCount

        // Tools compare on the same plain XML, and on the same PBF (`osmium cat` of the XML when given XML).
        let sourceIsPBF = OSMReader.isPBF(path: source)
        var plain: String?
        if !sourceIsPBF {
            plain = source
            if source.hasSuffix(".gz") {
                plain = "\(work)/input.osm"
                guard ChildProcess.measure("/bin/sh", ["-c", "gzip -dc \"$0\" > \"$1\"", source, plain!])?.status == 0 else {
                    Terminal.err("citypack: error: cannot decompress \(source)\n")
                    throw ExitCode(ExitCodes.ioFailure)
                }
            }
        }
        var pbf: String? = sourceIsPBF ? source : nil
        if pbf == nil, let osmium, let plain {
            let made = "\(work)/input.osm.pbf"
            if ChildProcess.measure(osmium, ["cat", plain, "-o", made, "--overwrite"])?.status == 0 { pbf = made }
        }
        // The XML city (when given XML) is the one the nearby benchmark queries; else the PBF city.
        let city = "\(work)/city", pbfCity = "\(work)/city-pbf"
        if let plain { try initCity(city, plain) }
        if let pbf { try initCity(sourceIsPBF ? city : pbfCity, pbf) }
        if packSize {
            try benchPackSize(source: source, plain: plain ?? source, city: city, work: work, me: me)
            return
        }

        var rows: [(label: String, m: ChildProcess.Measurement, mb: Double)] = []
        func time(_ label: String, _ mb: Double, _ exe: String, _ args: [String], environment: [String: String] = [:]) {
            if let m = median(exe, args, environment: environment) { rows.append((label, m, mb)) }
        }
        Terminal.err("benchmarking \(source), \(runs) runs each…\n")
        Self.noteSpawner()
        if let plain {
            let mb = size(plain)
            time("citypack build (XML)", mb, me, ["build", city, "--output", "\(work)/out", "--quiet", "--no-cache"])
            if let xmllint = ChildProcess.which("xmllint") { time("xmllint --stream --noout", mb, xmllint, ["--stream", "--noout", plain]) }
            if let osmium {
                time("osmium tags-filter (XML)", mb, osmium, ["tags-filter", plain, "n/amenity", "-o", "\(work)/filtered.osm", "--overwrite"])
            }
        }
        if let pbf {
            let mb = size(pbf)
            let dir = sourceIsPBF ? city : pbfCity
            let out = sourceIsPBF ? "\(work)/out" : "\(work)/out-pbf"
            time("citypack build (PBF, \(cores) cores)", mb, me, ["build", dir, "--output", out, "--quiet", "--no-cache"])
            time("citypack build (PBF, 1 core)", mb, me, ["build", dir, "--output", out, "--quiet", "--no-cache"], environment: ["CITYPACK_THREADS": "1"])
            // Reading and checking alone (no pack, web flavour or deltas written): the part osmium's run compares to.
            time("citypack check (PBF, \(cores) cores)", mb, me, ["check", dir, "--output", out, "--quiet", "--no-cache"])
            if let osmium {
                time("osmium tags-filter (PBF)", mb, osmium, ["tags-filter", pbf, "n/amenity", "-o", "\(work)/filtered.osm.pbf", "--overwrite"])
            }
        } else if !sourceIsPBF {
            Terminal.err("note: osmium not found, so no PBF was made and the PBF rows are missing\n")
        }
        var text = "tool                                wall s     MB/s   peak RSS MiB exit\n"
        for row in rows {
            text += row.label.padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(format: "%8.3f %8.1f ", row.m.seconds, row.mb / row.m.seconds) + ChildProcess.megabytes(row.m.peakRSS)
                + String(format: "  %d\n", row.m.status)
        }
        func seconds(_ prefix: String) -> Double? { rows.first { $0.label.hasPrefix(prefix) }?.m.seconds }
        if let build = seconds("citypack build (XML)"), let tool = seconds("osmium tags-filter (XML)") {
            text += String(format: "XML: citypack build / osmium tags-filter = %.2f×\n", build / tool)
        }
        if let build = seconds("citypack build (PBF, \(cores)"), let tool = seconds("osmium tags-filter (PBF)") {
            text += String(format: "PBF: citypack build / osmium tags-filter = %.2f×\n", build / tool)
        }
        if let check = seconds("citypack check (PBF"), let tool = seconds("osmium tags-filter (PBF)") {
            text += String(format: "PBF: citypack check / osmium tags-filter = %.2f×\n", check / tool)
        }
        if let many = seconds("citypack build (PBF, \(cores)"), let one = seconds("citypack build (PBF, 1 core)") {
            text += String(format: "PBF: speed-up from %d cores over 1 = %.2f×\n", cores, one / many)
        }
        Terminal.out(text)

        // Nearby latency on the pack just built.
        let manifest = URL(fileURLWithPath: "\(work)/out/bench/manifest.json")
        guard fm.fileExists(atPath: manifest.path) else {
            Terminal.err("citypack: error: the build produced no pack to query\n")
            throw ExitCode(ExitCodes.dataErrors)
        }
        let reader = try PackReader.open(manifest: manifest)
        guard let n = try NearbyBenchmark.measure(reader, radius: radius) else { return }
        Terminal.out(
            String(
                format: "nearby(%.0f m) over %d POIs, %d queries: median %.2f µs (p90 %.2f µs, first uncached pass %.2f µs, "
                    + "index only %.2f µs); mean results %.2f\n"
                    + "  brute force, in-memory arrays: median %.2f µs (%.0f× slower)\n"
                    + "  brute force, SQL scan of the pack: median %.2f µs (%.0f× slower)\n",
                radius, reader.poiCount, n.queries, n.medianNanoseconds / 1000, n.p90Nanoseconds / 1000,
                n.coldMedianNanoseconds / 1000, n.indexOnlyMedianNanoseconds / 1000, n.meanResults,
                n.bruteForceMedianNanoseconds / 1000, n.bruteForceMedianNanoseconds / max(n.medianNanoseconds, 1),
                n.sqlScanMedianNanoseconds / 1000, n.sqlScanMedianNanoseconds / max(n.medianNanoseconds, 1)))
    }

    /// Says how peak RSS is measured when it cannot be: without `citypack-rusage` beside citypack.
    static func noteSpawner() {
        if ChildProcess.spawner == nil {
            Terminal.err(
                "note: \(ChildProcess.spawnerName) is not beside this citypack, so peak RSS is not measured (n/a); "
                    + "`swift build` builds it into the same folder\n")
        }
    }

    /// `runs` runs of a command: the median wall time, with the largest peak RSS of all runs; nil when none ran.
    func median(_ exe: String, _ args: [String], environment: [String: String] = [:]) -> ChildProcess.Measurement? {
        var samples: [ChildProcess.Measurement] = []
        for _ in 0..<runs {
            if let m = ChildProcess.measure(exe, args, environment: environment) { samples.append(m) }
        }
        guard !samples.isEmpty else { return nil }
        var median = samples.sorted { $0.seconds < $1.seconds }[samples.count / 2]
        median.peakRSS = samples.contains { $0.peakRSS == nil } ? nil : samples.compactMap(\.peakRSS).max()
        return median
    }

    /// `citypack check` on a GTFS-only city next to gtfs-guru (`pip install gtfs-guru`) on the same feed.
    func benchGTFS(_ feed: String) throws {
        Self.noteSpawner()
        let fm = FileManager.default
        guard fm.fileExists(atPath: feed) else {
            Terminal.err("citypack: error: no such feed: \(feed)\n")
            throw ExitCode(ExitCodes.missingInput)
        }
        let work = fm.temporaryDirectory.appendingPathComponent("citypack-bench-gtfs-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }
        let me = Bundle.main.executableURL?.path ?? ProcessInfo.processInfo.arguments[0]
        let absolute = URL(fileURLWithPath: feed).standardizedFileURL.path
        guard ChildProcess.measure(me, ["init", "\(work)/city", "--gtfs", absolute, "--id", "benchgtfs"])?.status == 0 else {
            Terminal.err("citypack: error: init failed on \(feed)\n")
            throw ExitCode(ExitCodes.dataErrors)
        }
        var rows: [(String, ChildProcess.Measurement)] = []
        func time(_ label: String, _ exe: String, _ args: [String]) {
            if let m = median(exe, args) { rows.append((label, m)) }
        }
        Terminal.err("benchmarking \(feed), \(runs) runs each…\n")
        time("citypack check", me, ["check", "\(work)/city", "--quiet", "--no-cache", "--format", "json"])
        if let python = ChildProcess.which("python3"),
            ChildProcess.measure(python, ["-c", "import gtfs_guru"])?.status == 0
        {
            time("gtfs-guru validate", python, ["-c", "import sys, gtfs_guru; gtfs_guru.validate(sys.argv[1])", absolute])
        } else {
            Terminal.err("note: gtfs-guru not installed (pip install gtfs-guru); skipped\n")
        }
        var text = "tool                      wall s   peak RSS MiB exit\n"
        for (label, m) in rows {
            text += label.padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(format: "%8.3f ", m.seconds) + ChildProcess.megabytes(m.peakRSS) + String(format: "  %d\n", m.status)
        }
        if rows.count == 2 { text += String(format: "ratio citypack/gtfs-guru: %.2f×\n", rows[0].1.seconds / rows[1].1.seconds) }
        Terminal.out(text)
    }

    /// `--pack-size`: pack.gz bytes per POI against the gzip'd GeoJSONSeq baseline computed with osmium.
    func benchPackSize(source: String, plain: String, city: String, work: String, me: String) throws {
        guard ChildProcess.measure(me, ["build", city, "--output", "\(work)/out", "--quiet"])?.status == 0 else {
            Terminal.err("citypack: error: the build failed\n")
            throw ExitCode(ExitCodes.dataErrors)
        }
        let manifest = try PackOpener.readManifest(URL(fileURLWithPath: "\(work)/out/bench/manifest.json"))
        let pois = manifest.counts.pois
        let packBytes = manifest.artifact.bytes
        let perPOI = Double(packBytes) / Double(max(pois, 1))
        var text = "pack-size on \(source)\n"
        text += String(format: "pack.gz          %9d bytes, %6d POIs      %7.1f bytes per POI\n", packBytes, pois, perPOI)
        text += String(format: "  (database %d bytes uncompressed)\n", manifest.artifact.uncompressedBytes)
        guard let osmium = ChildProcess.which("osmium") else {
            text += "baseline         osmium not found (apt install osmium-tool): GeoJSONSeq baseline not computed\n"
            Terminal.out(text)
            return
        }
        let filtered = "\(work)/baseline.osm.pbf"
        let lines = "\(work)/baseline.geojsonseq"
        let filter = Self.baselineFilter
        guard ChildProcess.measure(osmium, ["tags-filter", plain] + filter + ["-o", filtered, "--overwrite"])?.status == 0,
            ChildProcess.measure(osmium, ["export", "-f", "geojsonseq", filtered, "-o", lines, "--overwrite"])?.status == 0,
            let data = FileManager.default.contents(atPath: lines)
        else {
            text += "baseline         osmium failed: GeoJSONSeq baseline not computed\n"
            Terminal.out(text)
            return
        }
        let features = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let gzipBytes = PackSizes.deflatedSize([UInt8](data))
        let perFeature = Double(gzipBytes) / Double(max(features, 1))
        text += String(
            format: "geojsonseq.gz    %9d bytes, %6d features  %7.1f bytes per feature (osmium tags-filter %@ | export -f geojsonseq | gzip -6)\n",
            gzipBytes, features, perFeature, filter.joined(separator: " "))
        text += String(format: "ratio            %.2f× (goal ≤ 1.00×)\n", perPOI / perFeature)
        Terminal.out(text)
    }

    /// The objects of the baseline: what a new user would export for "the same kind of objects" as the pack's POIs.
    static let baselineFilter = [
        "nwr/amenity", "nwr/shop", "nwr/tourism", "nwr/railway=station,halt", "nwr/public_transport=station",
    ]
}
