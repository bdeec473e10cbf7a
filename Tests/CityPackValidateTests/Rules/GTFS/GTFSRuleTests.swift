import CityPackCompiler
import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// The GTFS feed as a whole: the base feed is clean, every case of the GTFS rule suites is catalogued, and the
/// rules the reader reports (files, columns, values, CSV problems, archives). The rules of the validator are
/// tested table by table beside this file (`GTFS<Table>RuleTests`).
@Suite struct GTFSRuleTests: GTFSRuleCases {
    static let cases: [Case] = [
        // Files and columns.
        Case(code: "gtfs.missing_required_file", files: ["routes.txt": nil], at: "feed/routes.txt:0"),
        Case(code: "gtfs.missing_calendar", files: ["calendar.txt": nil], at: "feed/calendar.txt:0"),
        Case(code: "gtfs.unknown_file", files: ["vendor_extras.txt": "trip_id\n"], at: "feed/vendor_extras.txt:0"),
        Case(code: "gtfs.misspelled_file", files: ["frecuencias.txt": "trip_id\n"], at: "feed/frecuencias.txt:0"),
        Case(code: "csv.missing_required_column", files: ["routes.txt": "route_id,route_short_name\nR1,1\n"],
            at: "feed/routes.txt:1"),
        Case(code: "csv.missing_required_field",
            files: ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,,https://a.example,Europe/Rome\n"],
            at: "feed/agency.txt:2"),
        Case(code: "csv.unknown_column", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type,colour\nR1,A,1,3,x\n"],
            at: "feed/routes.txt:1"),
        Case(code: "csv.non_printable_in_id",
            files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nRé,A,2,3\n"],
            at: "feed/routes.txt:3"),
        // Invalid values.
        Case(code: "csv.invalid_value",
            files: ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://a.example,Mars/Base\n"],
            at: "feed/agency.txt:2"),
        Case(code: "csv.invalid_value", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type,route_color\nR1,A,1,3,red\n"],
            at: "feed/routes.txt:2"),
        Case(code: "csv.invalid_value", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,99\n"],
            at: "feed/routes.txt:2"),
        Case(code: "csv.invalid_value", files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,8h05,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:3"),
        Case(code: "csv.invalid_value", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,2026-01-01,20261231\n"],
            at: "feed/calendar.txt:2"),
        Case(code: "csv.invalid_value", files: ["stops.txt": stops("S4,Four,north,9.2,0,\n")], at: "feed/stops.txt:5"),
        Case(code: "csv.invalid_value", files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,-1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:2"),
        Case(code: "csv.invalid_value",
            files: ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,www.a.example,Europe/Rome\n"],
            at: "feed/agency.txt:2"),
        // CSV problems surface through the reader too.
        Case(code: "csv.invalid_row_length", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3,x,y\n"],
            at: "feed/routes.txt:2"),
        Case(code: "csv.duplicated_column", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type,route_type\nR1,A,1,3,3\n"],
            at: "feed/routes.txt:1"),
        Case(code: "csv.empty_file", files: ["agency.txt": ""], at: "feed/agency.txt:0"),
    ]

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        try c.expectTriggers()
    }

    @Test func baseFeedIsClean() throws {
        let diagnostics = try GTFSFixture.run([:])
        #expect(diagnostics.isEmpty, "\(diagnostics.summary)")
    }

    @Test func everyGTFSAndCSVRuleIsCatalogued() {
        let codes = Set(RuleCatalog.all.map(\.code))
        #expect(RuleCatalog.all.count == codes.count, "duplicate codes")
        for c in GTFSRuleCase.all { #expect(codes.contains(c.code), "\(c.code) not catalogued") }
        let transit = RuleCatalog.all.filter { $0.kind == .gtfs || $0.kind == .csv }
        #expect(transit.count >= 35)
        #expect(transit.allSatisfy { !$0.summary.isEmpty && !$0.rationale.isEmpty })
    }

    @Test(.needs(OutsideTools.python3))
    func zipFeedsAndUnsafeEntries() throws {
        let dir = try GTFSFixture.write([:])
        let root = dir.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let zip = root.appendingPathComponent("feed.zip")
        // Nested single top-level folder, plus an entry that tries to escape.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try OutsideTools.python3.require())
        process.currentDirectoryURL = root
        process.arguments = ["-c", """
            import zipfile, os
            z = zipfile.ZipFile('feed.zip', 'w', zipfile.ZIP_DEFLATED)
            for n in os.listdir('feed'): z.write(os.path.join('feed', n), 'inner/' + n)
            z.writestr('../evil.txt', 'x')
            z.close()
            """]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let diagnostics = try GTFSFixture.runPath(zip.path, display: "feed.zip", bbox: GTFSFixture.milan)
        // The files in `inner/` are read, which an info says.
        #expect(diagnostics.map(\.code) == ["gtfs.unsafe_archive_entry", "gtfs.files_in_subfolder"], "\(diagnostics.summary)")
        let bag = DiagnosticBag()
        let feed = try #require(try GTFSReader.read(path: zip.path, displayPath: "feed.zip", bag: bag))
        #expect(feed.path("stops") == "feed.zip/inner/stops.txt")
        #expect(feed.stopTimes.count == 6)
        #expect(feed.stopTimes.arrival[3] == 90000)  // 25:00:00
        // A decompressed-size budget smaller than the feed is reported, not a crash.
        let small = DiagnosticBag()
        _ = try GTFSReader.read(path: zip.path, displayPath: "feed.zip", bag: small,
            options: GTFSReadOptions(maxTotalSize: 100))
        #expect(small.diagnostics.contains { $0.code == "gtfs.archive_too_large" })
    }

    @Test func missingPathThrows() {
        #expect(throws: GTFSReadError.notFound("/nonexistent/feed")) {
            _ = try GTFSReader.read(path: "/nonexistent/feed", bag: DiagnosticBag())
        }
    }
}
