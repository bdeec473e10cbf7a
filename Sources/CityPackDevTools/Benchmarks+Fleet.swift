import Foundation

/// `citypack bench --country FILE.osm.pbf --bboxes FILE.json [--fleet-cities N]`: fleet builds from a country-size file
/// (../shared/tools/make-country.py makes both) against osmium on the same file, same run.
extension Benchmarks {
    /// - Parameter fleetCities: cities in the fleet (at most the boxes given).
    package func fleet(country: String, bboxes: String, cities fleetCities: Int) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: country), let data = fm.contents(atPath: bboxes),
            let boxes = try? JSONDecoder().decode([[Double]].self, from: data), boxes.allSatisfy({ $0.count == 4 }), !boxes.isEmpty
        else {
            throw BenchFailure(.missingInput, "--country needs a PBF file and --bboxes a JSON list of [minLon, minLat, maxLon, maxLat]")
        }
        guard let osmium = ChildProcess.which("osmium") else {
            throw BenchFailure(.missingInput, "the fleet benchmark compares with osmium (apt-get install osmium-tool)")
        }
        let n = min(fleetCities, boxes.count)
        let work = fm.temporaryDirectory.appendingPathComponent("citypack-bench-fleet-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }
        let me = ProcessInfo.processInfo.arguments[0].hasPrefix("/")
            ? ProcessInfo.processInfo.arguments[0] : (Bundle.main.executableURL?.path ?? ProcessInfo.processInfo.arguments[0])
        let absolute = country.hasPrefix("/") ? country : fm.currentDirectoryPath + "/" + country
        let mb = Double((try? fm.attributesOfItem(atPath: absolute)[.size] as? Int) ?? 0) / 1_000_000
        func city(_ name: String, box: [Double], osm: String) throws -> String {
            let dir = "\(work)/\(name)"
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let yaml = "id: \(name)\nname: \(name)\nbbox: [\(box.map { String($0) }.joined(separator: ", "))]\nsources:\n  osm: [\"\(osm)\"]\n"
            try yaml.write(toFile: "\(dir)/city.yaml", atomically: true, encoding: .utf8)
            return dir
        }
        let cities = try (0..<n).map { try city("c\($0)", box: boxes[$0], osm: absolute) }
        // The first city's own extract, as `osmium extract --strategy complete_ways` cuts it.
        let own = "\(work)/own.osm.pbf"
        let b = boxes[0]
        guard ChildProcess.measure(osmium, ["extract", "-b", "\(b[0]),\(b[1]),\(b[2]),\(b[3])", "-s", "complete_ways", absolute, "-o", own, "--overwrite"])?.status == 0
        else {
            throw BenchFailure(.software, "osmium extract failed on \(country)")
        }
        let ownCity = try city("own", box: b, osm: own)
        var config = "{\"directory\": \"\(work)/extracts\", \"extracts\": ["
        config += (0..<n).map { i in
            "{\"output\": \"c\(i).osm.pbf\", \"bbox\": [\(boxes[i].map { String($0) }.joined(separator: ", "))]}"
        }.joined(separator: ", ") + "]}"
        try config.write(toFile: "\(work)/extracts.json", atomically: true, encoding: .utf8)
        try fm.createDirectory(atPath: "\(work)/extracts", withIntermediateDirectories: true)

        output.err("benchmarking \(country) (\(String(format: "%.0f", mb)) MB, \(n) cities), \(runs) runs each…\n")
        noteSpawner()
        var rows: [(label: String, m: ChildProcess.Measurement)] = []
        func time(_ label: String, _ exe: String, _ args: [String]) {
            if let m = median(exe, args) { rows.append((label, m)) }
        }
        time("citypack build, 1 city of the country", me, ["build", cities[0], "--output", "\(work)/out1", "--quiet", "--no-cache"])
        time("citypack build, same city, own extract", me, ["build", ownCity, "--output", "\(work)/out-own", "--quiet", "--no-cache"])
        time("citypack build, fleet of \(n)", me, ["build"] + cities + ["--output", "\(work)/out-fleet", "--quiet", "--no-cache"])
        time("osmium tags-filter n/amenity", osmium, ["tags-filter", absolute, "n/amenity", "-o", "\(work)/filtered.osm.pbf", "--overwrite"])
        time("osmium extract --config (\(n) boxes)", osmium, ["extract", "--config", "\(work)/extracts.json", "-s", "complete_ways", absolute, "--overwrite"])
        // The shared read alone, as the fleet's own summary times it: the median of `runs` fleet builds.
        var sharedReads: [Double] = []
        for _ in 0..<runs {
            let summary = Process()
            summary.executableURL = URL(fileURLWithPath: me)
            summary.arguments = ["build"] + cities + ["--output", "\(work)/out-fleet", "--format", "json", "--no-cache"]
            let pipe = Pipe()
            summary.standardOutput = pipe
            summary.standardError = FileHandle.nullDevice
            try summary.run()
            let json = pipe.fileHandleForReading.readDataToEndOfFile()
            summary.waitUntilExit()
            if let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
                let reads = object["sharedReads"] as? [[String: Any]], let first = reads.first,
                let value = first["megabytesPerSecond"] as? Double
            {
                sharedReads.append(value)
            }
        }
        let sharedMBs = sharedReads.isEmpty ? nil : sharedReads.sorted()[sharedReads.count / 2]

        var text = "tool                                        wall s     MB/s   peak RSS MiB exit\n"
        for row in rows {
            text += row.label.padding(toLength: 42, withPad: " ", startingAt: 0)
                + String(format: "%8.3f %8.1f ", row.m.seconds, mb / row.m.seconds) + ChildProcess.megabytes(row.m.peakRSS)
                + String(format: "  %d\n", row.m.status)
        }
        func row(_ prefix: String) -> ChildProcess.Measurement? { rows.first { $0.label.hasPrefix(prefix) }?.m }
        if let one = row("citypack build, 1 city")?.peakRSS, let own = row("citypack build, same city")?.peakRSS {
            text += String(format: "peak RSS, city cut from the country / from its own extract = %.2f× (target ≤ 2)\n", Double(one) / Double(own))
        }
        if let shared = sharedMBs, let filter = row("osmium tags-filter") {
            text += String(format: "shared read %.1f MB/s / osmium tags-filter %.1f MB/s = %.2f× (target ≥ 1)\n",
                shared, mb / filter.seconds, shared / (mb / filter.seconds))
        }
        if let fleet = row("citypack build, fleet"), let extract = row("osmium extract") {
            text += String(format: "fleet of %d / osmium extract --config = %.2f× (target ≤ 1.5)\n", n, fleet.seconds / extract.seconds)
        }
        output.out(text)
    }
}
