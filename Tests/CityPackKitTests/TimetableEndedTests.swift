import CityPackFormat
import Foundation
import Testing

@testable import CityPackKit

/// A city whose installed timetable has ended is marked (issue 37): `InstalledPack.timetable` from the installed
/// manifest, and `timetableEnded(at:)` in the city's time zone.
@Suite struct TimetableEndedTests {
    /// A store folder holding one installed version whose manifest is Monaco's golden one with `timetable` and
    /// `city.timezone` set as a city with transit has them.
    static func store(last: String) throws -> (PackStore, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("timetable-ended-\(UUID().uuidString)")
        let version = root.appendingPathComponent("monaco/v3", isDirectory: true)
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CityPackCompilerTests/Golden/monaco/manifest.json")
        var manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: golden))
        manifest.timetable = Manifest.DateRange(first: "2014-01-01", last: last)
        manifest.city.timezone = "Europe/Monaco"
        try JSONEncoder().encode(manifest).write(to: version.appendingPathComponent("manifest.json"))
        try Data(#"{"current":3}"#.utf8).write(to: root.appendingPathComponent("monaco/current.json"))
        return (try PackStore(root: root), root)
    }

    @Test func anEndedTimetableIsMarkedWithItsLastDate() throws {
        let (store, root) = try Self.store(last: "2014-11-01")
        defer { try? FileManager.default.removeItem(at: root) }
        let installed = try #require(store.installed().first)
        #expect(installed.version == 3 && installed.timeZone == "Europe/Monaco")
        #expect(installed.timetable?.last.description == "2014-11-01")
        #expect(installed.timetableEnded()?.description == "2014-11-01")
        // The day itself still runs; the next day in Monaco (22:30 UTC is already 2014-11-02 there) has ended.
        let lastEvening = try #require(ISO8601DateFormatter().date(from: "2014-11-01T22:00:00Z"))
        #expect(installed.timetableEnded(at: lastEvening) == nil, "23:00 in Monaco, still 1 November")
        let afterMidnight = try #require(ISO8601DateFormatter().date(from: "2014-11-01T23:30:00Z"))
        #expect(installed.timetableEnded(at: afterMidnight)?.description == "2014-11-01")
    }

    @Test func aRunningTimetableIsNotMarked() throws {
        let (store, root) = try Self.store(last: "2999-12-31")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try #require(store.installed().first).timetableEnded() == nil)
    }
}
