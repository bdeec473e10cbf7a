import CCityPackZlib
import CityPackStorage
import Foundation

/// Generated GTFS feeds for the memory benchmark, written in pieces (nothing big is ever in memory).
package enum SyntheticFeed {
    package static let bombRow = Array("T1,08:00:00,08:00:00,S1,1\n".utf8)
    package static let stopTimesHeader = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    /// Stops per trip; trips follow one of `patterns` lines of `stopsPerTrip` stops each.
    package static let stopsPerTrip = 40
    package static let patterns = 125

    /// A small valid feed around Milan, with `trips` trips of route pattern `t % patterns`.
    package static func smallTables(trips: Int) -> [(String, (inout [UInt8]) -> Bool)] {
        var tripRow = 0
        var stopRow = 0
        return [
            ("agency.txt", once("agency_id,agency_name,agency_url,agency_timezone\nA,Bench,https://bench.example,Europe/Rome\n")),
            ("calendar.txt", once("service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,20240101,20351231\n")),
            ("routes.txt", once("route_id,agency_id,route_short_name,route_type\n" + (0..<patterns).map { "R\($0),A,\($0),3\n" }.joined())),
            ("stops.txt", { out in
                if stopRow == 0 { out += Array("stop_id,stop_name,stop_lat,stop_lon\n".utf8) }
                while stopRow < patterns * stopsPerTrip && out.count < 1 << 20 {
                    let p = stopRow / stopsPerTrip, k = stopRow % stopsPerTrip
                    out += Array(String(format: "S%d,Stop %d,%.5f,%.5f\n", stopRow, stopRow, 45.40 + Double(p) * 0.002, 9.10 + Double(k) * 0.0015).utf8)
                    stopRow += 1
                }
                return stopRow < patterns * stopsPerTrip
            }),
            ("trips.txt", { out in
                if tripRow == 0 { out += Array("route_id,service_id,trip_id\n".utf8) }
                while tripRow < trips && out.count < 1 << 20 {
                    out += Array("R\(tripRow % patterns),WK,T\(tripRow)\n".utf8)
                    tripRow += 1
                }
                return tripRow < trips
            }),
        ]
    }

    /// A producer of `text` in one piece.
    private static func once(_ text: String) -> (inout [UInt8]) -> Bool {
        { out in
            out += Array(text.utf8)
            return false
        }
    }

    /// stop_times rows: trip t visits the 40 stops of its pattern two minutes apart.
    package static func stopTimes(rows: Int) -> (inout [UInt8]) -> Bool {
        var row = 0
        return { out in
            if row == 0 { out += Array(stopTimesHeader.utf8) }
            while row < rows && out.count < 1 << 20 {
                let trip = row / stopsPerTrip, k = row % stopsPerTrip
                let stop = (trip % patterns) * stopsPerTrip + k
                let seconds = 5 * 3600 + (trip % 900) * 60 + k * 120
                var time = [UInt8](repeating: 0, count: 8)
                twoDigits(seconds / 3600, &time, 0)
                time[2] = 0x3A
                twoDigits(seconds / 60 % 60, &time, 3)
                time[5] = 0x3A
                twoDigits(seconds % 60, &time, 6)
                out += Array("T\(trip),".utf8)
                out += time
                out.append(0x2C)
                out += time
                out += Array(",S\(stop),\(k + 1)\n".utf8)
                row += 1
            }
            return row < rows
        }
    }

    private static func twoDigits(_ v: Int, _ out: inout [UInt8], _ at: Int) {
        out[at] = UInt8(0x30 + v / 10)
        out[at + 1] = UInt8(0x30 + v % 10)
    }

    /// Writes `produce`'s pieces to `path`; returns the bytes written.
    package static func writeFile(_ path: String, _ produce: (inout [UInt8]) -> Bool) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? handle.close() }
        var total = 0
        var more = true
        while more {
            var piece: [UInt8] = []
            piece.reserveCapacity(1 << 20 + 4096)
            more = produce(&piece)
            try handle.write(contentsOf: piece)
            total += piece.count
        }
        return total
    }

    /// The synthetic feed as a folder; returns its size in bytes.
    package static func writeFolder(_ folder: String, stopTimes rows: Int) throws -> Int {
        let trips = (rows + stopsPerTrip - 1) / stopsPerTrip
        var total = 0
        for (name, produce) in smallTables(trips: trips) { total += try writeFile("\(folder)/\(name)", produce) }
        total += try writeFile("\(folder)/stop_times.txt", stopTimes(rows: rows))
        return total
    }

    /// Zips the files of `folder` (deflate level 1), reading each in pieces; returns the archive's size.
    package static func zipFolder(_ folder: String, to path: String) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        var zip = try ZipWriter(path)
        for name in names {
            guard let handle = FileHandle(forReadingAtPath: "\(folder)/\(name)") else { throw CocoaError(.fileReadUnknown) }
            defer { try? handle.close() }
            try zip.add(name, level: 1) { out in
                guard let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty else { return false }
                out += data
                return true
            }
        }
        return try zip.finish()
    }

    /// The bomb: the small tables plus a stop_times entry of `rows` identical rows; returns the archive's size.
    package static func writeBomb(to path: String, rows: Int) throws -> Int {
        var zip = try ZipWriter(path)
        for (name, produce) in smallTables(trips: 1) { try zip.add(name, level: 9, produce) }
        var left = rows
        var first = true
        try zip.add("stop_times.txt", level: 9) { out in
            if first { out += Array(stopTimesHeader.utf8) }
            first = false
            while left > 0 && out.count < 1 << 20 {
                out += bombRow
                left -= 1
            }
            return left > 0
        }
        return try zip.finish()
    }

    package static func writeCity(_ dir: String, id: String, source: String) throws {
        let yaml = """
            id: \(id)
            name: "Bench \(id)"
            bbox: [9.0, 45.3, 9.4, 45.8]
            sources:
              gtfs: ["\(source)"]

            """
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: "\(dir)/city.yaml"))
    }
}

/// A minimal zip writer for the benchmark: deflated entries streamed through zlib straight to the file, each
/// followed by a data descriptor (sizes and CRC are known only at the end); 32-bit sizes only.
struct ZipWriter {
    private let handle: FileHandle
    private var offset = 0
    private var central = Data()
    private var count = 0

    init(_ path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        self.handle = handle
    }

    private static func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// Adds a deflated entry whose bytes `produce` appends in pieces (returning false after the last).
    mutating func add(_ name: String, level: Int32, _ produce: (inout [UInt8]) -> Bool) throws {
        let nameBytes = Array(name.utf8)
        let start = offset
        // Local header: flag 8 (sizes in the data descriptor), deflate.
        var local: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + Self.le(20, 2) + Self.le(8, 2) + Self.le(8, 2) + Self.le(0, 2)
            + Self.le(0x21, 2)
        local += Self.le(0, 4) + Self.le(0, 4) + Self.le(0, 4) + Self.le(nameBytes.count, 2) + Self.le(0, 2) + nameBytes
        try write(local)
        guard let z = try? ZlibStream(deflating: .raw, level: level) else { throw CocoaError(.fileWriteUnknown) }
        var crc = crc32(0, nil, 0)
        var size = 0
        var compressed = 0
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var more = true
        while more {
            var piece: [UInt8] = []
            more = produce(&piece)
            size += piece.count
            crc = piece.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
            try piece.withUnsafeBytes { input in
                z.setInput(input.baseAddress, count: input.count)
                var produced = 0
                repeat {
                    produced = output.withUnsafeMutableBytes { z.run(into: $0, finish: !more).produced }
                    compressed += produced
                    try write(Array(output[..<produced]))
                } while produced == output.count || (!more && z.availableInput > 0)
            }
        }
        guard size < 1 << 32, compressed < 1 << 32 else { throw CocoaError(.fileWriteUnknown) }
        try write([0x50, 0x4B, 0x07, 0x08] + Self.le(Int(crc), 4) + Self.le(compressed, 4) + Self.le(size, 4))
        central.append(contentsOf: [0x50, 0x4B, 0x01, 0x02] + Self.le(20, 2) + Self.le(20, 2) + Self.le(8, 2) + Self.le(8, 2))
        central.append(contentsOf: Self.le(0, 2) + Self.le(0x21, 2) + Self.le(Int(crc), 4) + Self.le(compressed, 4) + Self.le(size, 4))
        central.append(contentsOf: Self.le(nameBytes.count, 2) + Self.le(0, 2) + Self.le(0, 2) + Self.le(0, 2) + Self.le(0, 2))
        central.append(contentsOf: Self.le(0o100644 << 16, 4) + Self.le(start, 4) + nameBytes)
        count += 1
    }

    private mutating func write(_ bytes: [UInt8]) throws {
        try handle.write(contentsOf: bytes)
        offset += bytes.count
    }

    /// Writes the central directory; returns the archive's size.
    mutating func finish() throws -> Int {
        let start = offset
        let directory = [UInt8](central)
        try write(directory)
        try write([0x50, 0x4B, 0x05, 0x06] + Self.le(0, 4) + Self.le(count, 2) + Self.le(count, 2)
            + Self.le(directory.count, 4) + Self.le(start, 4) + Self.le(0, 2))
        try handle.close()
        return offset
    }
}
