import CityPackFormat
import CityPackIngest
import CityPackKit
import CityPackSQLite
import Foundation

extension Benchmarks {
    /// `citypack bench [--osm FILE] [--pack-size]`: build speed and memory on an OSM extract next to `xmllint
    /// --stream` and `osmium tags-filter` (XML, and PBF made with `osmium cat`), then nearby(`radius`) on the pack
    /// against a brute-force scan; with `packSize`, the pack's gzip'd bytes per POI against a GeoJSON baseline.
    /// - Parameters:
    ///   - osm: the extract (default: ../shared/data/osm/liechtenstein-2024.osm.gz, else the Monaco example).
    ///   - radius: metres, for the nearby benchmark.
    ///   - templates: the templates folder, whose POI profile becomes osmium's filter (nil: that row is left out).
    package func osm(_ osm: String?, packSize: Bool, radius: Double, templates: TemplateSource? = nil) throws {
        let fm = FileManager.default
        let source = osm ?? ["../shared/data/osm/liechtenstein-2024.osm.gz", "inputs/monaco/monaco-2021.osm.gz"].first {
            fm.fileExists(atPath: $0)
        } ?? "inputs/monaco/monaco-2021.osm.gz"
        guard fm.fileExists(atPath: source) else {
            throw BenchFailure(.missingInput, "no such file: \(source)")
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
                throw BenchFailure(.dataErrors, "init failed on \(osmFile)")
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
                    throw BenchFailure(.ioFailure, "cannot decompress \(source)")
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
        output.err("benchmarking \(source), \(runs) runs each…\n")
        noteSpawner()
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
                // The profile's own tags on nodes, ways and relations (with the nodes their ways reference): what
                // osmium must read and write to keep the places a build keeps. Output on disk, as the build's.
                if let templates,
                    let expressions = try? TemplatePOIProfile.load(templates: templates).osmiumFilterExpressions
                {
                    let file = "\(work)/profile-filter.txt"
                    try Data((expressions.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
                    time("osmium tags-filter -e profile (PBF)", mb, osmium, ["tags-filter", pbf, "-e", file, "-o", "\(work)/profile.osm.pbf", "--overwrite"])
                }
            }
        } else if !sourceIsPBF {
            output.err("note: osmium not found, so no PBF was made and the PBF rows are missing\n")
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
        if let build = seconds("citypack build (PBF, \(cores)"), let tool = seconds("osmium tags-filter -e profile") {
            text += String(format: "PBF: citypack build / osmium tags-filter -e <profile> = %.2f×\n", build / tool)
        }
        if let check = seconds("citypack check (PBF"), let tool = seconds("osmium tags-filter (PBF)") {
            text += String(format: "PBF: citypack check / osmium tags-filter = %.2f×\n", check / tool)
        }
        if let many = seconds("citypack build (PBF, \(cores)"), let one = seconds("citypack build (PBF, 1 core)") {
            text += String(format: "PBF: speed-up from %d cores over 1 = %.2f×\n", cores, one / many)
        }
        output.out(text)

        // Nearby latency on the pack just built.
        let manifest = URL(fileURLWithPath: "\(work)/out/bench/manifest.json")
        guard fm.fileExists(atPath: manifest.path) else {
            throw BenchFailure(.dataErrors, "the build produced no pack to query")
        }
        let reader = try PackReader.open(manifest: manifest)
        guard let n = try NearbyBenchmark.measure(reader, radius: radius) else { return }
        output.out(
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

    /// `citypack check` on a GTFS-only city next to gtfs-guru (`pip install gtfs-guru`) on the same feed.
    package func gtfs(_ feed: String) throws {
        noteSpawner()
        let fm = FileManager.default
        guard fm.fileExists(atPath: feed) else {
            throw BenchFailure(.missingInput, "no such feed: \(feed)")
        }
        let work = fm.temporaryDirectory.appendingPathComponent("citypack-bench-gtfs-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }
        let me = Bundle.main.executableURL?.path ?? ProcessInfo.processInfo.arguments[0]
        let absolute = URL(fileURLWithPath: feed).standardizedFileURL.path
        guard ChildProcess.measure(me, ["init", "\(work)/city", "--gtfs", absolute, "--id", "benchgtfs"])?.status == 0 else {
            throw BenchFailure(.dataErrors, "init failed on \(feed)")
        }
        var rows: [(String, ChildProcess.Measurement)] = []
        func time(_ label: String, _ exe: String, _ args: [String]) {
            if let m = median(exe, args) { rows.append((label, m)) }
        }
        output.err("benchmarking \(feed), \(runs) runs each…\n")
        time("citypack check", me, ["check", "\(work)/city", "--quiet", "--no-cache", "--format", "json"])
        if let python = ChildProcess.which("python3"),
            ChildProcess.measure(python, ["-c", "import gtfs_guru"])?.status == 0
        {
            time("gtfs-guru validate", python, ["-c", "import sys, gtfs_guru; gtfs_guru.validate(sys.argv[1])", absolute])
        } else {
            output.err("note: gtfs-guru not installed (pip install gtfs-guru); skipped\n")
        }
        var text = "tool                      wall s   peak RSS MiB exit\n"
        for (label, m) in rows {
            text += label.padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(format: "%8.3f ", m.seconds) + ChildProcess.megabytes(m.peakRSS) + String(format: "  %d\n", m.status)
        }
        if rows.count == 2 { text += String(format: "ratio citypack/gtfs-guru: %.2f×\n", rows[0].1.seconds / rows[1].1.seconds) }
        output.out(text)
    }

    /// `--pack-size`: pack.gz bytes per POI against the gzip'd GeoJSONSeq baseline computed with osmium.
    func benchPackSize(source: String, plain: String, city: String, work: String, me: String) throws {
        guard ChildProcess.measure(me, ["build", city, "--output", "\(work)/out", "--quiet"])?.status == 0 else {
            throw BenchFailure(.dataErrors, "the build failed")
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
            output.out(text)
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
            output.out(text)
            return
        }
        let features = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let gzipBytes = DatabasePages.deflatedSize([UInt8](data))
        let perFeature = Double(gzipBytes) / Double(max(features, 1))
        text += String(
            format: "geojsonseq.gz    %9d bytes, %6d features  %7.1f bytes per feature (osmium tags-filter %@ | export -f geojsonseq | gzip -6)\n",
            gzipBytes, features, perFeature, filter.joined(separator: " "))
        text += String(format: "ratio            %.2f× (goal ≤ 1.00×)\n", perPOI / perFeature)
        output.out(text)
    }

    /// The objects of the baseline: what a new user would export for "the same kind of objects" as the pack's POIs.
    static let baselineFilter = [
        "nwr/amenity", "nwr/shop", "nwr/tourism", "nwr/railway=station,halt", "nwr/public_transport=station",
    ]
}
