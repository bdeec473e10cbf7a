import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// Real feeds and the broken-feed corpora in `../shared/data/gtfs` (reported as skipped when the folder is absent).
@Suite(.needsSharedData) struct GTFSRealFeedTests {
    static let feeds = [
        "milan-atm-2015.zip", "wmata-dc-2026.zip", "hart-tampa-2018.zip", "trimet-portland-2routes-2021.zip",
        "nyc-subway-2025.zip", "cairns-2014.zip", "google-sample-feed.zip",
    ]

    @Test(arguments: feeds)
    func realFeedReadsAndLocatesErrors(_ name: String) throws {
        let data = try #require(TestPaths.sharedData)
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

    /// HART Tampa has 78 pairs of consecutive shape points with equal shape_dist_traveled at different places in
    /// 30 shapes (counted independently with Python's csv module); every one is reported, none in the other feeds.
    @Test(.needsSharedData) func equalShapeDistancesAtDifferentPlaces() throws {
        let data = try #require(TestPaths.sharedData)
        for name in Self.feeds {
            let path = data.appendingPathComponent("gtfs/\(name)").path
            let found = try GTFSFixture.runPath(path, display: name).with("gtfs.equal_shape_distance_diff_coordinates")
            #expect(found.count == (name == "hart-tampa-2018.zip" ? 78 : 0), "\(name): \(found.count)")
            #expect(Set(found.compactMap(\.entity)).count == (name == "hart-tampa-2018.zip" ? 30 : 0))
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
        // routes.txt holds a lone CR (plus CRLF/LF mixed in calendar.txt): read as a row end, as gtfs-validator
        // reads it, so a warning (issue 33).
        "bad_eol.zip": ("csv.bare_carriage_return", false),
        // Ragged rows of routes.txt, a table the pack uses: an error (the cells are still read).
        "extra_row_cells": ("csv.invalid_row_length", true),
        "missing_row_cells": ("csv.invalid_row_length", true),
        // Two stops 0.4 m apart (a transitfeed warning; no CityPack rule); its stops.txt rows lack trailing cells.
        "duplicate_stop": ("csv.invalid_row_length", true),
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
        "unknown_file": ("gtfs.misspelled_file", false),
        "unrecognized_columns": ("csv.misspelled_column", false),
        "unused_stop": ("gtfs.stop_without_stop_time", false),
        "unknown_format.zip": ("gtfs.invalid_archive", true),
    ]

    @Test(arguments: brokenCases.keys.sorted())
    func transitfeedBrokenCase(_ name: String) throws {
        let data = try #require(TestPaths.sharedData)
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
        let data = try #require(TestPaths.sharedData)
        let path = data.appendingPathComponent("gtfs/broken/transitfeed/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name)
        #expect(diagnostics.errors.isEmpty, "\(name):\n\(diagnostics.errors.summary)")
    }

    /// The five broken cases whose defect is warning-level by nature (as in transitfeed and gtfs-validator) are
    /// errors under `--werror`, while the good controls stay clean under `--werror` when built during their
    /// service period (2007-05-20: more than a week before the earliest end, 2007-06-04): so a strict CI catches every transitfeed defect without false alarms.
    @Test(arguments: [
        "repeated_route_name", "same_short_long_name", "unknown_file", "unrecognized_columns", "unused_stop",
        "good_feed", "good_feed.zip", "utf8bom", "only_calendar_dates",
    ])
    func transitfeedUnderWerror(_ name: String) throws {
        let data = try #require(TestPaths.sharedData)
        let path = data.appendingPathComponent("gtfs/broken/transitfeed/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name, buildDate: (2007, 5, 20), warningsAsErrors: true)
        let good = ["good_feed", "good_feed.zip", "utf8bom", "only_calendar_dates"].contains(name)
        if good {
            #expect(diagnostics.errors.isEmpty, "\(name):\n\(diagnostics.errors.summary)")
        } else {
            #expect(!diagnostics.errors.isEmpty, "\(name): expected an error under --werror")
        }
    }

    /// transitland's error zips (bad coordinates, CSV quoting chaos; an expired real feed): no crash, located errors.
    @Test(arguments: ["example-errors.zip", "bart-errors.zip"])
    func transitlandErrorZips(_ name: String) throws {
        let data = try #require(TestPaths.sharedData)
        let path = data.appendingPathComponent("gtfs/broken/transitland/\(name)").path
        let diagnostics = try GTFSFixture.runPath(path, display: name)
        print("transitland \(name): \(diagnostics.errors.count) errors; codes \(Set(diagnostics.errors.map(\.code)).sorted())")
        #expect(!diagnostics.errors.isEmpty)
        #expect(diagnostics.errors.allSatisfy { $0.location != nil })
    }

    @Test func notAZipIsALocatedError() throws {
        let data = try #require(TestPaths.sharedData)
        let path = data.appendingPathComponent("gtfs/broken/transitland/invalid-not-a-zip.zip").path
        let diagnostics = try GTFSFixture.runPath(path, display: "invalid-not-a-zip.zip")
        #expect(diagnostics.map(\.code) == ["gtfs.invalid_archive"])
        #expect(diagnostics.first?.location?.file == "invalid-not-a-zip.zip")
    }
}
