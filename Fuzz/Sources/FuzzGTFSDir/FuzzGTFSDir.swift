import CityPackDiagnostics
import CityPackIngest
import Foundation
import FuzzSupport

/// The GTFS reader over a feed directory. The input is several files in one: a line `==> name <==` starts the
/// file `name` (only known GTFS table names are written, so mutations stay inside the feed folder); bytes
/// before the first marker go to `stops.txt`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGTFSDir(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let dir = scratch.appendingPathComponent("feed")
    try? FileManager.default.removeItem(at: dir)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (name, bytes) in FeedSplitter.split(UnsafeBufferPointer(start: data, count: size)) {
        FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data(bytes))
    }
    let bag = DiagnosticBag()
    let options = GTFSReadOptions(maxFileSize: 1 << 20, maxTotalSize: 4 << 20, maxRows: 10_000, maxFieldLength: 4_096)
    do {
        _ = try GTFSReader.read(path: dir.path, displayPath: "gtfs", bag: bag, options: options)
    } catch {
        fatalError("read threw for an existing directory: \(error)")
    }
    return 0
}

enum FeedSplitter {
    static let tables: Set<String> = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt",
        "frequencies.txt", "shapes.txt", "transfers.txt", "feed_info.txt", "fare_attributes.txt", "fare_rules.txt",
        "pathways.txt", "levels.txt", "translations.txt", "attributions.txt", "unknown.txt",
    ]

    /// Splits `==> name <==` sections; later sections with the same name are appended.
    static func split(_ input: UnsafeBufferPointer<UInt8>) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        var current = "stops.txt"
        var lineStart = 0
        let n = input.count
        while lineStart < n {
            var end = lineStart
            while end < n && input[end] != 0x0A { end += 1 }
            let line = input[lineStart..<end]
            if line.count > 8, line.starts(with: Array("==> ".utf8)), line.reversed().starts(with: Array(" <==".utf8).reversed()) {
                let name = String(decoding: line.dropFirst(4).dropLast(4), as: UTF8.self)
                current = tables.contains(name) ? name : "unknown.txt"
                files[current, default: []].append(contentsOf: [])
            } else {
                files[current, default: []].append(contentsOf: input[lineStart..<min(end + 1, n)])
            }
            lineStart = end + 1
        }
        return files
    }
}

@_cdecl("FuzzGTFSDir_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv, fuzzGTFSDir)
}
