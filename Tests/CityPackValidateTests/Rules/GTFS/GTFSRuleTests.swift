import CityPackCompiler
import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// One triggering fixture per rule (inline CSV over ``GTFSFixture/base``); the base feed is the shared
/// non-triggering fixture and must produce no diagnostic at all.
@Suite struct GTFSRuleTests {
    struct Case: CustomStringConvertible, Sendable {
        var code: String
        /// File name → new content (nil removes the file).
        var files: [String: String?]
        /// Expected `file:line` of the diagnostic (`feed/<file>:<line>`; line 0 = whole file).
        var at: String
        var description: String { "\(code) @ \(at)" }
    }

    static let stopsHeader = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
    static let timesHeader = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
    static let calendarHeader = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
    static let usedStops = "S1,One,45.46,9.19,0,\nS2,Two,45.47,9.20,0,\nS3,Three,45.48,9.21,0,\n"
    static let t2Times = "T2,25:00:00,25:00:00,S3,1,0\nT2,25:05:00,25:05:00,S2,2,1.3\nT2,25:10:00,25:10:00,S1,3,2.6\n"

    static func stops(_ extra: String) -> String { stopsHeader + usedStops + extra }
    static func t1(_ rows: String) -> String { timesHeader + rows + t2Times }

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
        // Keys and references.
        Case(code: "gtfs.duplicate_key", files: ["stops.txt": stops("S1,Again,45.46,9.19,0,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.duplicate_key",
            files: ["calendar_dates.txt": "service_id,date,exception_type\nWK,20260601,2\nWK,20260601,2\n"],
            at: "feed/calendar_dates.txt:3"),
        Case(code: "gtfs.foreign_key_violation", files: ["trips.txt": "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\nR9,WK,T2,B1,SH1\n"],
            at: "feed/trips.txt:3"),
        Case(code: "gtfs.foreign_key_violation", files: ["trips.txt": "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\nR1,XX,T2,B1,SH1\n"],
            at: "feed/trips.txt:3"),
        Case(code: "gtfs.foreign_key_violation", files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S9,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:3"),
        Case(code: "gtfs.foreign_key_violation", files: ["stops.txt": stops("S4,Four,45.46,9.19,0,NOPE\n")],
            at: "feed/stops.txt:5"),
        Case(code: "gtfs.foreign_key_violation", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,B,1,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.missing_agency_id",
            files: [
                "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://a.example,Europe/Rome\nB,Bgency,https://b.example,Europe/Rome\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,,1,3\n",
            ], at: "feed/routes.txt:2"),
        // Stops.
        Case(code: "gtfs.coordinate_out_of_range", files: ["stops.txt": stops("S4,Four,-100,9.2,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.point_near_origin", files: ["stops.txt": stops("S4,Four,0.0,0.0,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.point_near_pole", files: ["stops.txt": stops("S4,Four,89.5,9.2,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.point_outside_pack_bbox", files: ["stops.txt": stops("S4,Four,41.9,12.5,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.stop_without_location", files: ["stops.txt": stops("S4,Four,,,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.missing_stop_name", files: ["stops.txt": stops("S4,,45.46,9.19,1,\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.invalid_parent_station", files: ["stops.txt": stops("S4,Four,45.46,9.19,0,S1\n")], at: "feed/stops.txt:5"),
        Case(code: "gtfs.stop_without_stop_time", files: ["stops.txt": stops("S4,Four,45.46,9.19,0,\n")], at: "feed/stops.txt:5"),
        // Routes.
        Case(code: "gtfs.route_name_missing", files: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,,,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.route_short_name_too_long", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,Express Line 12,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.route_short_long_name_equal",
            files: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,Uno,UNO,3\n"],
            at: "feed/routes.txt:2"),
        Case(code: "gtfs.duplicate_route_name",
            files: ["routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nR1,A,1,Line One,3\nR2,A,1,line one,3\n"],
            at: "feed/routes.txt:3"),
        // Trips and stop_times.
        Case(code: "gtfs.unused_trip", files: ["trips.txt": "route_id,service_id,trip_id,block_id,shape_id\nR1,WK,T1,B1,SH1\nR1,WK,T2,B1,SH1\nR1,WK,T3,,SH1\n"],
            at: "feed/trips.txt:4"),
        Case(code: "gtfs.unusable_trip", files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\n")], at: "feed/trips.txt:2"),
        Case(code: "gtfs.arrival_before_previous_departure",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:05:30,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.only_arrival_or_departure",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n")],
            at: "feed/stop_times.txt:3"),
        Case(code: "gtfs.missing_trip_edge",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,,,S3,3,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.duplicate_stop_sequence",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S3,2,2.6\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.decreasing_stop_time_distance",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:06:00,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,1.0\n")],
            at: "feed/stop_times.txt:4"),
        Case(code: "gtfs.fast_travel",
            files: ["stop_times.txt": t1("T1,08:00:00,08:00:00,S1,1,0\nT1,08:00:10,08:00:10,S2,2,1.3\nT1,08:10:00,08:10:00,S3,3,2.6\n"),
                "stops.txt": stopsHeader + "S1,One,45.46,9.19,0,\nS2,Two,45.56,9.30,0,\nS3,Three,45.48,9.21,0,\n"],
            at: "feed/stop_times.txt:3"),
        Case(code: "gtfs.block_overlap",
            files: ["stop_times.txt": t1("T1,24:58:00,24:58:00,S1,1,0\nT1,25:05:00,25:06:00,S2,2,1.3\nT1,25:10:00,25:10:00,S3,3,2.6\n")],
            at: "feed/trips.txt:3"),
        // Shapes.
        Case(code: "gtfs.decreasing_shape_distance",
            files: ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\nSH1,45.46,9.19,1,0\nSH1,45.47,9.20,2,1.3\nSH1,45.48,9.21,3,1.2\n"],
            at: "feed/shapes.txt:4"),
        Case(code: "gtfs.duplicate_shape_sequence",
            files: ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,45.46,9.19,1\nSH1,45.47,9.20,1\n"],
            at: "feed/shapes.txt:3"),
        Case(code: "gtfs.unused_shape",
            files: ["shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,45.46,9.19,1\nSH1,45.47,9.20,2\nSH2,45.46,9.19,1\n"],
            at: "feed/shapes.txt:4"),
        // Calendars.
        Case(code: "gtfs.calendar_range_out_of_order", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20261231,20260101\n"],
            at: "feed/calendar.txt:2"),
        Case(code: "gtfs.service_no_active_day",
            files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20260101,20261231\nXX,0,0,0,0,0,0,0,20260101,20261231\n"],
            at: "feed/calendar.txt:3"),
        Case(code: "gtfs.expired_calendar", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20250101,20251231\n"],
            at: "feed/calendar.txt:2"),
        Case(code: "gtfs.feed_expires_soon", files: ["calendar.txt": calendarHeader + "WK,1,1,1,1,1,0,0,20260101,20260605\n"],
            at: "feed/calendar.txt:2"),
        // Frequencies and transfers.
        Case(code: "gtfs.invalid_headway", files: ["frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,08:00:00,09:00:00,0\n"],
            at: "feed/frequencies.txt:2"),
        Case(code: "gtfs.overlapping_frequency",
            files: ["frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT1,08:00:00,09:00:00,600\nT1,08:30:00,10:00:00,600\n"],
            at: "feed/frequencies.txt:3"),
        Case(code: "gtfs.foreign_key_violation", files: ["transfers.txt": "from_stop_id,to_stop_id,transfer_type\nS1,S8,0\n"],
            at: "feed/transfers.txt:2"),
        Case(code: "gtfs.foreign_key_violation", files: ["fare_rules.txt": "fare_id,route_id\nF1,R1\n"],
            at: "feed/fare_rules.txt:2"),
        // CSV problems surface through the reader too.
        Case(code: "csv.invalid_row_length", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3,x,y\n"],
            at: "feed/routes.txt:2"),
        Case(code: "csv.duplicated_column", files: ["routes.txt": "route_id,agency_id,route_short_name,route_type,route_type\nR1,A,1,3,3\n"],
            at: "feed/routes.txt:1"),
        Case(code: "csv.empty_file", files: ["agency.txt": ""], at: "feed/agency.txt:0"),
    ]

    @Test func baseFeedIsClean() throws {
        let diagnostics = try GTFSFixture.run([:])
        #expect(diagnostics.isEmpty, "\(diagnostics.summary)")
    }

    @Test(arguments: cases)
    func ruleTriggers(_ c: Case) throws {
        let diagnostics = try GTFSFixture.run(c.files)
        let hits = diagnostics.with(c.code).filter { d in
            guard let loc = d.location else { return false }
            return "\(loc.file):\(loc.line)" == c.at
        }
        #expect(!hits.isEmpty, "expected \(c.code) at \(c.at); got:\n\(diagnostics.summary)")
        if let hit = hits.first {
            #expect(hit.severity == RuleCatalog.rule(c.code)?.severity)
            if hit.location!.line > 0 { #expect(hit.location!.column >= 1 && hit.location!.field != nil || c.code.hasPrefix("csv.")) }
        }
    }

    @Test func everyGTFSAndCSVRuleIsCatalogued() {
        let codes = Set(RuleCatalog.all.map(\.code))
        #expect(RuleCatalog.all.count == codes.count, "duplicate codes")
        for c in Self.cases { #expect(codes.contains(c.code), "\(c.code) not catalogued") }
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

    @Test func stopTimesAreGroupedAndSortedBySequence() throws {
        let dir = try GTFSFixture.write([
            "stop_times.txt": Self.timesHeader + "T1,08:10:00,08:10:00,S3,3,2.6\nT2,25:00:00,25:00:00,S3,1,0\n"
                + "T1,08:00:00,08:00:00,S1,1,0\nT2,25:05:00,25:05:00,S2,2,1.3\nT1,08:05:00,08:06:00,S2,2,1.3\n"
                + "T2,25:10:00,25:10:00,S1,3,2.6\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let feed = try #require(try GTFSReader.read(path: dir.path, displayPath: "feed", bag: DiagnosticBag()))
        let st = feed.stopTimes
        let t1 = st.tripRanges[0]
        #expect(st.byTrip[Int(t1.lowerBound)..<Int(t1.upperBound)].map { st.sequence[Int($0)] } == [1, 2, 3])
        #expect(st.byTrip[Int(t1.lowerBound)..<Int(t1.upperBound)].map { st.line[Int($0)] } == [4, 6, 2])
    }
}
