import CityPackDiagnostics
import CityPackFormat
import CityPackIngest
import CityPackKit
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

// @testable: writes a bare database with PackWriter, the emitter's internal database writer.
@testable import CityPackEmit

/// Departures from packs of real feeds equal an independent computation straight from the CSV text (our own
/// small parse with `unzip -p` and string splitting, not the project's reader).
@Suite(.serialized) struct TransitRealFeedTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var feed: String
        /// (stop_id, date, HH:MM)
        var queries: [(String, String, String)]
        var testDescription: String { feed }
    }

    static let cases: [Case] = [
        Case(
            feed: "milan-atm-2015.zip",
            queries: [
                ("11515", "2014-10-19", "07:45"), ("11515", "2014-10-20", "23:50"), ("13770", "2014-10-25", "00:20"),
                ("10794", "2014-11-01", "17:20"), ("10796", "2014-10-22", "12:00"), ("11515", "2014-11-02", "00:10"),
            ]),
        Case(
            feed: "trimet-portland-2routes-2021.zip",
            queries: [
                ("landmark-119", "2021-10-20", "07:45"), ("8341", "2021-10-23", "00:30"), ("10776", "2021-10-24", "23:40"),
                ("8343", "2021-11-01", "04:10"), ("landmark-137", "2021-10-31", "17:20"), ("10777", "2021-10-18", "01:05"),
            ]),
    ]

    @Test(.needsSharedData, .needs(OutsideTools.unzip), arguments: cases)
    func departuresMatchIndependentComputation(_ testCase: Case) throws {
        let data = try #require(TestPaths.sharedData)
        let zip = data.appendingPathComponent("gtfs/\(testCase.feed)").path
        let bag = DiagnosticBag()
        let feed = try #require(try GTFSReader.read(path: zip, bag: bag))
        let coordinates = feed.stops.compactMap(\.coordinate)
        let bbox = try #require(BoundingBox.enclosing(coordinates))
        let city = City(id: "real", name: "Real", bbox: bbox)
        let path = try TestPaths.temporaryDirectory("transit-real").appendingPathComponent("p.sqlite").path
        try PackWriter.write(
            PackInput(city: city, pois: [], categories: [], createdAt: 0, generator: "t", sources: [], transit: [feed]),
            to: path)
        let reader = try PackReader.open(URL(fileURLWithPath: path))
        defer { reader.close() }

        let reference = try ReferenceTimetable(zip: zip)
        var nonEmpty = 0
        for (stop, date, time) in testCase.queries {
            let parts = time.split(separator: ":").compactMap { Int($0) }
            let seconds = parts[0] * 3600 + parts[1] * 60
            let got = try reader.transit.departures(stop: stop, date: #require(ServiceDate(date)), seconds: seconds, limit: 12)
                .map { "\($0.serviceDate.yyyymmdd) \($0.seconds) \($0.lineName) \($0.tripID) \($0.stopID) \($0.headsign ?? "")" }
            let expected = reference.departures(stop: stop, date: date, seconds: seconds, limit: 12)
            #expect(got == expected, "\(testCase.feed) \(stop) \(date) \(time)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        // The queries are chosen so most of them have departures; an empty comparison proves little.
        #expect(nonEmpty >= testCase.queries.count - 1)
    }
}

/// The departure semantics computed directly from the feed's CSV text.
struct ReferenceTimetable {
    var parent: [String: String] = [:]
    var trips: [String: (route: String, service: String, headsign: String)] = [:]
    var lineName: [String: String] = [:]
    var calendar: [String: (days: [Bool], start: Int, end: Int)] = [:]
    var exceptions: [String: [Int: Int]] = [:]
    /// trip → (stop, seconds) in stop_sequence order, timed rows only.
    var tripStops: [String: [(stop: String, seconds: Int)]] = [:]
    var frequencies: [String: [(start: Int, end: Int, headway: Int)]] = [:]

    init(zip: String) throws {
        let stops = try Self.table(zip, "stops.txt")
        for row in stops.rows {
            if let p = row[stops.column["parent_station"] ?? -1, default: ""], !p.isEmpty { parent[row[stops.column["stop_id"]!]] = p }
        }
        let routes = try Self.table(zip, "routes.txt")
        for row in routes.rows {
            let short = row[routes.column["route_short_name"] ?? -1, default: ""] ?? ""
            let long = row[routes.column["route_long_name"] ?? -1, default: ""] ?? ""
            let id = row[routes.column["route_id"]!]
            lineName[id] = !short.isEmpty ? short : !long.isEmpty ? long : id
        }
        let tripTable = try Self.table(zip, "trips.txt")
        for row in tripTable.rows {
            trips[row[tripTable.column["trip_id"]!]] = (
                row[tripTable.column["route_id"]!], row[tripTable.column["service_id"]!],
                row[tripTable.column["trip_headsign"] ?? -1, default: ""] ?? ""
            )
        }
        if let cal = try? Self.table(zip, "calendar.txt") {
            let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            for row in cal.rows {
                calendar[row[cal.column["service_id"]!]] = (
                    names.map { row[cal.column[$0]!] == "1" }, Int(row[cal.column["start_date"]!])!,
                    Int(row[cal.column["end_date"]!])!
                )
            }
        }
        if let dates = try? Self.table(zip, "calendar_dates.txt") {
            for row in dates.rows {
                exceptions[row[dates.column["service_id"]!], default: [:]][Int(row[dates.column["date"]!])!] =
                    Int(row[dates.column["exception_type"]!])!
            }
        }
        if let freq = try? Self.table(zip, "frequencies.txt") {
            for row in freq.rows {
                frequencies[row[freq.column["trip_id"]!], default: []].append(
                    (Self.seconds(row[freq.column["start_time"]!])!, Self.seconds(row[freq.column["end_time"]!])!,
                     Int(row[freq.column["headway_secs"]!])!))
            }
        }
        let times = try Self.table(zip, "stop_times.txt")
        var raw: [String: [(sequence: Int, stop: String, seconds: Int)]] = [:]
        let (t, a, d, s, q) = (
            times.column["trip_id"]!, times.column["arrival_time"]!, times.column["departure_time"]!,
            times.column["stop_id"]!, times.column["stop_sequence"]!
        )
        for row in times.rows {
            guard let seconds = Self.seconds(row[d]) ?? Self.seconds(row[a]) else { continue }
            raw[row[t], default: []].append((Int(row[q])!, row[s], seconds))
        }
        for (trip, rows) in raw { tripStops[trip] = rows.sorted { $0.sequence < $1.sequence }.map { ($0.stop, $0.seconds) } }
    }

    func runs(_ service: String, _ date: Int) -> Bool {
        if let type = exceptions[service]?[date] { return type == 1 }
        guard let c = calendar[service], c.start <= date, date <= c.end else { return false }
        // Weekday by Zeller-free day counting: 2000-01-03 was a Monday.
        let day = Self.dayNumber(date) - Self.dayNumber(20_000_103)
        return c.days[((day % 7) + 7) % 7]
    }

    /// "yyyymmdd seconds line trip stop headsign" of the next departures, sorted like the pack reader promises.
    func departures(stop: String, date: String, seconds: Int, limit: Int) -> [String] {
        let serving = Set([stop] + parent.filter { $0.value == stop }.map(\.key))
        let queryDay = Self.dayNumber(Int(date.replacingOccurrences(of: "-", with: ""))!)
        var found: [(actual: Int, line: String, trip: String, stop: String, text: String)] = []
        for (trip, stops) in tripStops {
            guard let info = trips[trip], stops.count > 1 else { continue }
            let first = stops[0].seconds
            for offset in -2...1 {
                let serviceDate = Self.date(queryDay + offset)
                guard runs(info.service, serviceDate) else { continue }
                for visit in stops.dropLast() where serving.contains(visit.stop) {
                    var times: [Int] = []
                    if let windows = frequencies[trip] {
                        for w in windows { times += stride(from: w.start, to: w.end, by: w.headway).map { $0 + visit.seconds - first } }
                    } else {
                        times = [visit.seconds]
                    }
                    for time in times where time + offset * 86_400 >= seconds {
                        let line = lineName[info.route] ?? info.route
                        found.append((
                            time + offset * 86_400, line, trip, visit.stop,
                            "\(serviceDate) \(time) \(line) \(trip) \(visit.stop) \(info.headsign)"
                        ))
                    }
                }
            }
        }
        found.sort { ($0.actual, $0.line, $0.trip, $0.stop) < ($1.actual, $1.line, $1.trip, $1.stop) }
        return found.prefix(limit).map(\.text)
    }

    static func seconds(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }

    static func dayNumber(_ yyyymmdd: Int) -> Int {
        var components = DateComponents()
        components.year = yyyymmdd / 10_000
        components.month = yyyymmdd / 100 % 100
        components.day = yyyymmdd % 100
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int(calendar.date(from: components)!.timeIntervalSince1970 / 86_400)
    }

    static func date(_ dayNumber: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(dayNumber) * 86_400))
        return c.year! * 10_000 + c.month! * 100 + c.day!
    }

    struct Table {
        var column: [String: Int]
        var rows: [[String]]
    }

    /// A file of the zip split into lines and cells (quotes honoured, BOM and CR dropped).
    static func table(_ zip: String, _ name: String) throws -> Table {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try OutsideTools.unzip.require())
        process.arguments = ["-p", zip, name]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !data.isEmpty else { throw CocoaError(.fileNoSuchFile) }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        let header = split(String(lines.removeFirst()))
        let rows = lines.map { split(String($0)) }.map { $0 + Array(repeating: "", count: max(0, header.count - $0.count)) }
        return Table(column: Dictionary(header.enumerated().map { ($1.trimmingCharacters(in: .whitespaces), $0) }) { a, _ in a }, rows: rows)
    }

    static func split(_ line: String) -> [String] {
        guard line.contains("\"") else { return line.components(separatedBy: ",") }
        var cells: [String] = []
        var current = ""
        var quoted = false
        var previous: Character = " "
        for ch in line {
            if ch == "\"" {
                if quoted && previous == "\"" { current.append("\"") }
                quoted.toggle()
            } else if ch == "," && !quoted {
                cells.append(current)
                current = ""
            } else {
                current.append(ch)
            }
            previous = ch
        }
        cells.append(current)
        return cells
    }
}

extension Array where Element == String {
    fileprivate subscript(index: Int, default value: String) -> String? { index >= 0 && index < count ? self[index] : value }
}
