import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `citypack bench --gtfs-memory`: peak memory of `citypack check` on GTFS feeds that would not fit if tables
/// were held whole. Everything generated goes to a temporary folder that is removed afterwards.
///
/// 1. A zip bomb: a small valid feed whose stop_times.txt entry is about 1 GiB of one repeated row, deflated to
///    a few MB (streamed through zlib, never in memory). `check` must refuse it with `gtfs.zip_bomb`.
/// 2. A synthetic valid feed with `--gtfs-memory-rows` stop_times rows (default 10 million), as a folder and
///    as a zip (both written in pieces): wall time and peak RSS of `check`.
/// 3. The feeds of `../shared/data/gtfs`, when that folder exists: peak RSS of `check` on each.
extension Benchmarks {
    /// - Parameters:
    ///   - gtfsMemoryRows: stop_times rows of the generated feed.
    ///   - checkerBinary: the citypack whose `check` is measured (default: this one).
    package func gtfsMemory(rows gtfsMemoryRows: Int, checker checkerBinary: String?) throws {
        noteSpawner()
        let fm = FileManager.default
        let work = fm.temporaryDirectory.appendingPathComponent("citypack-bench-gtfs-memory-\(getpid())").path
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: work) }
        let me = Bundle.main.executableURL?.path ?? ProcessInfo.processInfo.arguments[0]
        let checker = checkerBinary ?? me
        var lines = ["feed                                   stop_times rows     input MB   wall s  peak RSS MiB exit  note"]
        func row(_ name: String, rows: String, inputBytes: Int, _ m: ChildProcess.Measurement, note: String) {
            lines.append(
                name.padding(toLength: 38, withPad: " ", startingAt: 0)
                    + rows.leftPadded(16)
                    + String(format: " %12.1f %8.2f ", Double(inputBytes) / 1_000_000, m.seconds)
                    + ChildProcess.megabytes(m.peakRSS) + String(format: " %5d  ", m.status)
                    + note)
        }
        /// `check` on a city holding one feed; the report says which codes fired.
        func check(_ city: String) throws -> (ChildProcess.Measurement, Set<String>) {
            let out = "\(work)/out"
            guard let m = ChildProcess.measure(checker, ["check", city, "--quiet", "--no-cache", "--output", out]) else {
                throw BenchFailure(.ioFailure, "cannot run \(checker)")
            }
            var codes = Set<String>()
            if let id = try? String(contentsOfFile: "\(city)/city.yaml", encoding: .utf8).split(separator: "\n")
                .first(where: { $0.hasPrefix("id:") })?.dropFirst(3).trimmingCharacters(in: .whitespaces),
                let data = fm.contents(atPath: "\(out)/\(id)/report.json"),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let diagnostics = json["diagnostics"] as? [[String: Any]]
            {
                codes = Set(diagnostics.compactMap { $0["code"] as? String })
            }
            try? fm.removeItem(atPath: out)
            return (m, codes)
        }

        // 1. The bomb.
        output.err("writing a zip bomb (about 1 GiB of stop_times inflated)…\n")
        let bombCity = "\(work)/bomb"
        try fm.createDirectory(atPath: bombCity, withIntermediateDirectories: true)
        let bombRows = (1 << 30) / SyntheticFeed.bombRow.count
        let bomb = try SyntheticFeed.writeBomb(to: "\(bombCity)/feed.zip", rows: bombRows)
        try SyntheticFeed.writeCity(bombCity, id: "bombfeed", source: "feed.zip")
        let (bombRun, bombCodes) = try check(bombCity)
        row("zip bomb (1 GiB stop_times)", rows: bombRows.grouped, inputBytes: bomb, bombRun,
            note: bombCodes.contains("gtfs.zip_bomb") ? "gtfs.zip_bomb reported" : "gtfs.zip_bomb NOT reported")

        // 2. The synthetic feed, as a folder and as a zip.
        let rows = gtfsMemoryRows
        output.err("writing a synthetic feed with \(rows.grouped) stop_times rows…\n")
        let folderCity = "\(work)/folder"
        let feedFolder = "\(folderCity)/feed"
        try fm.createDirectory(atPath: feedFolder, withIntermediateDirectories: true)
        let folderBytes = try SyntheticFeed.writeFolder(feedFolder, stopTimes: rows)
        try SyntheticFeed.writeCity(folderCity, id: "synthfolder", source: "feed")
        let (folderRun, folderCodes) = try check(folderCity)
        row("synthetic feed, folder", rows: rows.grouped, inputBytes: folderBytes, folderRun,
            note: Self.codesNote(folderCodes))
        let zipCity = "\(work)/zip"
        try fm.createDirectory(atPath: zipCity, withIntermediateDirectories: true)
        output.err("zipping it…\n")
        let zipBytes = try SyntheticFeed.zipFolder(feedFolder, to: "\(zipCity)/feed.zip")
        try? fm.removeItem(atPath: feedFolder)
        try SyntheticFeed.writeCity(zipCity, id: "synthzip", source: "feed.zip")
        let (zipRun, zipCodes) = try check(zipCity)
        row("synthetic feed, zip", rows: rows.grouped, inputBytes: zipBytes, zipRun, note: Self.codesNote(zipCodes))
        try? fm.removeItem(atPath: zipCity)

        // 3. The shared real feeds.
        let shared = "../shared/data/gtfs"
        if let names = try? fm.contentsOfDirectory(atPath: shared) {
            for name in names.filter({ $0.hasSuffix(".zip") }).sorted() {
                let path = URL(fileURLWithPath: "\(shared)/\(name)").standardizedFileURL.path
                let city = "\(work)/real-\(name)"
                guard ChildProcess.measure(me, ["init", city, "--gtfs", path, "--id", "realfeed"])?.status == 0 else {
                    output.err("note: init failed on \(path); skipped\n")
                    continue
                }
                let size = (try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                let (m, _) = try check(city)
                row(name, rows: "", inputBytes: size, m, note: "")
                try? fm.removeItem(atPath: city)
            }
        } else {
            output.err("note: \(shared) not found; real feeds skipped\n")
        }
        output.out(lines.joined(separator: "\n") + "\n")
    }

    private static func codesNote(_ codes: Set<String>) -> String {
        let errors = codes.filter { $0.hasPrefix("gtfs.") || $0.hasPrefix("csv.") }.sorted()
        return errors.isEmpty ? "" : "codes: " + errors.joined(separator: " ")
    }
}

extension Int {
    /// `10000000` → `10 000 000`.
    fileprivate var grouped: String {
        let digits = Array(String(self))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += " " }
            out.append(d)
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
