import CityPackDiagnostics
import CityPackIngest
import CityPackTestSupport
import Foundation
import Testing

/// The GTFS reader's progress callback: rows per table, a final call with the exact count, an estimate
/// from the line count before that.
@Suite struct GTFSProgressTests {
    final class Calls: @unchecked Sendable {
        let lock = NSLock()
        var items: [(String, Int64, Int64)] = []
        func add(_ file: String, _ done: Int64, _ total: Int64) { lock.withLock { items.append((file, done, total)) } }
    }

    @Test func reportsRowsPerTable() throws {
        var files = GTFSReaderTests.minimal
        // 40 000 stop_times rows: at least two intermediate calls (every 16 384 rows) and the final one.
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for i in 0..<40_000 { stopTimes += "T,08:00:00,08:00:00,P1,\(i + 1)\n" }
        files["stop_times.txt"] = stopTimes
        let dir = try TestPaths.temporaryDirectory("gtfs-progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        let calls = Calls()
        var options = GTFSReadOptions()
        options.progress = { file, done, total in calls.add(file, done, total) }
        _ = try GTFSReader.read(path: dir.path, displayPath: "g", bag: DiagnosticBag(), options: options)
        let stopTimeCalls = calls.items.filter { $0.0 == "g/stop_times.txt" }
        #expect(stopTimeCalls.map(\.1) == [16_384, 32_768, 40_000])
        #expect(stopTimeCalls.allSatisfy { $0.2 == 40_000 }, "the line count estimates the total exactly here")
        #expect(calls.items.contains { $0.0 == "g/stops.txt" && $0.1 == 2 && $0.2 == 2 })
    }
}
