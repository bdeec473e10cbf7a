import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// Real feeds and the broken-feed corpora in `../shared/data/gtfs` (skipped when the folder is absent).
@Suite struct GTFSRealFeedTests {
    static let feeds = [
        "milan-atm-2015.zip", "wmata-dc-2026.zip", "hart-tampa-2018.zip", "trimet-portland-2routes-2021.zip",
        "nyc-subway-2025.zip", "cairns-2014.zip", "google-sample-feed.zip",
    ]

    @Test(arguments: feeds)
    func realFeedReadsAndLocatesErrors(_ name: String) throws {
        guard let data = TestPaths.sharedData else { return }
        let path = data.appendingPathComponent("gtfs/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name)
        let errors = diagnostics.errors
        if ProcessInfo.processInfo.environment["GTFS_DUMP"] != nil { print(diagnostics.summary) }
        print("GTFS \(name): \(errors.count) errors, \(diagnostics.filter { $0.severity == .warning }.count) warnings")
        for (code, n) in Dictionary(grouping: diagnostics, by: \.code).mapValues(\.count).sorted(by: { $0.key < $1.key }) {
            print("  \(code): \(n)")
        }
        for e in errors {
            #expect(e.location != nil && e.location!.line > 0, "unlocated error: \(e.code) \(e.message)")
        }
    }

    /// transitfeed's broken cases → the code that names the defect (nil: CityPack has no rule for it) and
    /// whether that code is an error in our catalogue.
    static let brokenCases: [String: (code: String?, isError: Bool)] = [
        "missing_agency": ("gtfs.missing_required_file", true),
        "missing_calendar": ("gtfs.missing_calendar", true),
        "missing_routes": ("gtfs.missing_required_file", true),
        "missing_stops": ("gtfs.missing_required_file", true),
        "missing_stop_times": ("gtfs.missing_required_file", true),
        "missing_trips": ("gtfs.missing_required_file", true),
        "missing_column": ("csv.missing_required_column", true),
        "missing_weekday_column": ("csv.missing_required_column", true),
        "empty_file": ("csv.empty_file", true),
        "utf16": ("csv.utf16_encoding", true),
        "contains_null": ("csv.nul_byte", true),
        "bad_utf8": ("csv.invalid_utf8", true),
        "bad_date_format": ("csv.invalid_value", true),
        "bad_eol.zip": ("csv.mixed_line_endings", false),
        // Their ragged rows only end in one empty extra cell / lack the optional trailing route_url, so the cells
        // still line up and nothing is lost: a warning, as transitfeed itself reports them.
        "extra_row_cells": ("csv.trailing_cells", false),
        "missing_row_cells": ("csv.trailing_cells", false),
        // Two stops 0.4 m apart (a transitfeed warning; no CityPack rule). Its rows lack optional trailing cells.
        "duplicate_stop": (nil, false),
        "duplicate_schedule_id": ("gtfs.duplicate_key", true),
        "duplicate_stop_sequence": ("gtfs.duplicate_stop_sequence", true),
        "negative_stop_sequence": ("csv.invalid_value", true),
        "missing_endpoint_times": ("gtfs.missing_trip_edge", true),
        "missing_departure_time": ("gtfs.only_arrival_or_departure", true),
        "undefined_stop": ("gtfs.foreign_key_violation", true),
        "invalid_route_agency": ("gtfs.foreign_key_violation", true),
        "invalid_agency_ids": ("gtfs.missing_agency_id", true),
        "repeated_route_name": ("gtfs.duplicate_route_name", false),
        "same_short_long_name": ("gtfs.route_short_long_name_equal", false),
        "unknown_file": ("gtfs.unknown_file", false),
        "unrecognized_columns": ("csv.unknown_column", false),
        "unused_stop": ("gtfs.stop_without_stop_time", false),
        "unknown_format.zip": ("gtfs.invalid_archive", true),
    ]

    @Test(arguments: brokenCases.keys.sorted())
    func transitfeedBrokenCase(_ name: String) throws {
        guard let data = TestPaths.sharedData else { return }
        let path = data.appendingPathComponent("gtfs/broken/transitfeed/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name)
        let expected = Self.brokenCases[name]!
        print("transitfeed \(name): \(diagnostics.errors.count) errors; codes \(Set(diagnostics.map(\.code)).sorted())")
        if let code = expected.code {
            #expect(!diagnostics.with(code).isEmpty, "\(name): expected \(code)")
            #expect(diagnostics.with(code).allSatisfy { $0.location != nil })
        }
        if expected.isError {
            #expect(!diagnostics.errors.isEmpty, "\(name): expected at least one error")
        }
    }

    @Test(arguments: ["good_feed", "good_feed.zip", "utf8bom", "only_calendar_dates"])
    func transitfeedGoodCaseHasNoErrors(_ name: String) throws {
        guard let data = TestPaths.sharedData else { return }
        let path = data.appendingPathComponent("gtfs/broken/transitfeed/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name)
        #expect(diagnostics.errors.isEmpty, "\(name):\n\(diagnostics.errors.summary)")
    }

    /// transitland's error zips (bad coordinates, CSV quoting chaos; an expired real feed): no crash, located errors.
    @Test(arguments: ["example-errors.zip", "bart-errors.zip"])
    func transitlandErrorZips(_ name: String) throws {
        guard let data = TestPaths.sharedData else { return }
        let path = data.appendingPathComponent("gtfs/broken/transitland/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name)
        print("transitland \(name): \(diagnostics.errors.count) errors; codes \(Set(diagnostics.errors.map(\.code)).sorted())")
        #expect(!diagnostics.errors.isEmpty)
        #expect(diagnostics.errors.allSatisfy { $0.location != nil })
    }

    @Test func notAZipIsALocatedError() throws {
        guard let data = TestPaths.sharedData else { return }
        let path = data.appendingPathComponent("gtfs/broken/transitland/invalid-not-a-zip.zip").path
        let diagnostics = try GTFSFixture.runPath(path, display: "invalid-not-a-zip.zip")
        #expect(diagnostics.map(\.code) == ["gtfs.invalid_archive"])
        #expect(diagnostics.first?.location?.file == "invalid-not-a-zip.zip")
    }
}
