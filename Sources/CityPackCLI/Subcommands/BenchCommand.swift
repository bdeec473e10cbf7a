import ArgumentParser
import CityPackBuild
import CityPackCompiler
import CityPackDevTools
import CityPackKit
import Foundation

/// `citypack bench`: build speed and memory against xmllint and osmium, and nearby-query latency. The measurements
/// are CityPackDevTools' ``Benchmarks``; this command parses the flags, calls one and renders its failure.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
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

    @Flag(name: .long, help: ArgumentHelp(
        "Instead: the vector-tile core (projection, clipping, simplification, the line and polygon builders, "
            + "encoding) on synthetic geometry, in points per second (median of --runs)."))
    var tiles = false

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
        do {
            try measure()
        } catch let failure as BenchFailure {
            switch failure.kind {
            case .invalidArgument: throw ValidationError(failure.message)
            case .usage: throw Self.exit(failure, ExitCodes.usage)
            case .missingInput: throw Self.exit(failure, ExitCodes.missingInput)
            case .dataErrors: throw Self.exit(failure, ExitCodes.dataErrors)
            case .software: throw Self.exit(failure, ExitCodes.software)
            case .ioFailure: throw Self.exit(failure, ExitCodes.ioFailure)
            }
        }
    }

    /// Prints the failure's message (when it has one) and gives the exit code to throw.
    static func exit(_ failure: BenchFailure, _ code: Int32) -> ExitCode {
        if !failure.message.isEmpty { Terminal.error(message: failure.message) }
        return ExitCode(code)
    }

    /// The one benchmark the flags ask for.
    private func measure() throws {
        let bench = Benchmarks(runs: runs, output: BenchOutput(out: { Terminal.out($0) }, err: { Terminal.err($0) }))
        if let incremental {
            try bench.incremental(incremental, rebuild: Self.rebuildInProcess)
        } else if let country, let bboxes {
            try bench.fleet(country: country, bboxes: bboxes, cities: fleetCities)
        } else if let osmTestdata {
            try bench.osmTestdata(osmTestdata, templates: TemplateLocator.locate(explicit: ToolEnvironment.templates, cityPath: "."))
        } else if gtfsMemory {
            try bench.gtfsMemory(rows: gtfsMemoryRows, checker: checkerBinary)
        } else if tiles {
            bench.tiles()
        } else if let gtfs {
            try bench.gtfs(gtfs)
        } else {
            try bench.osm(
                osm, packSize: packSize, radius: radius,
                templates: TemplateLocator.locate(explicit: ToolEnvironment.templates, cityPath: "."))
        }
    }

    /// `--incremental`'s rebuilds in one process, as `build --watch` and `preview` make them: a first build (the
    /// cache warm), the edit, then the timed rebuild; its wall seconds, or nil when it wrote no pack.
    static func rebuildInProcess(city: String, output: String, edit: () throws -> Void) throws -> Double? {
        var diagnostics = try DiagnosticOptions.parse([])
        diagnostics.quiet = true
        let watch = CityWatch(city: city, root: city, templates: nil, diagnostics: diagnostics, output: output, release: ReleaseOptions())
        watch.printsRounds = false
        // Numbered as rebuilds, so that neither prints a report.
        let first = try watch.buildOnce(number: 2, previous: nil, changed: [])
        try edit()
        let second = try watch.buildOnce(number: 3, previous: first, changed: [])
        return second.packWritten ? second.seconds : nil
    }
}
