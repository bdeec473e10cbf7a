import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// A transit-only city (GTFS, no OSM) takes its pack time from the data, never from the file system (issue 21):
/// touching the feed or copying it elsewhere gives the same bytes.
@Suite(.serialized) struct ReproducibleTransitTests {
    static func feedFiles(_ replace: [String: String] = [:]) -> [(String, String)] {
        var files: [String: String] = [:]
        for (path, text) in RuleExampleCity.files where path.hasPrefix("gtfs/") { files[String(path.dropFirst(5))] = text }
        for (k, v) in replace { files[k] = v }
        return files.sorted { $0.key < $1.key }
    }

    /// Builds `feed` as a transit-only city into a fresh output folder (no SOURCE_DATE_EPOCH); returns the
    /// manifest's JSON and the pack's bytes.
    static func build(_ feed: URL, in tmp: URL, _ name: String) throws -> ([String: Any], Data) {
        let city = tmp.appendingPathComponent("inputs-\(name)/transit")
        let output = tmp.appendingPathComponent("outputs-\(name)")
        #expect(try CLIRunner.runBinary(["init", city.path, "--gtfs", feed.path, "--id", "transit"]).status == 0)
        // An empty SOURCE_DATE_EPOCH is no epoch: the time must come from the data.
        let result = try CLIRunner.runBinary(["build", city.path, "--output", output.path, "--quiet"], environment: ["SOURCE_DATE_EPOCH": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let dir = output.appendingPathComponent("transit")
        let manifest = try CLIRunner.json(String(contentsOf: dir.appendingPathComponent("manifest.json"), encoding: .utf8))
        let path = (manifest["artifact"] as? [String: Any])?["path"] as? String ?? "?"
        return (manifest, try Data(contentsOf: dir.appendingPathComponent(path)))
    }

    static func setModificationTime(_ url: URL, _ seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: url.path)
    }

    @Test func zipFeedTimeComesFromTheArchiveNotTheFile() throws {
        let tmp = try TestPaths.temporaryDirectory("repro-zip")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let zip = tmp.appendingPathComponent("feed.zip")
        // TestZip records every entry at 1980-01-01 00:00 (MS-DOS date 0x21, time 0).
        try TestZip.make(Self.feedFiles().map { TestZip.Entry($0.0, $0.1) }).write(to: zip)
        try Self.setModificationTime(zip, 1_600_000_000)
        let (first, firstPack) = try Self.build(zip, in: tmp, "a")
        try Self.setModificationTime(zip, 1_700_000_000)  // `touch feed.zip`
        let (second, secondPack) = try Self.build(zip, in: tmp, "b")
        #expect(firstPack == secondPack, "the pack changed when only the zip file's time did")
        #expect(first["contentSha256"] as? String == second["contentSha256"] as? String)
        #expect(first["createdAt"] as? String == "1980-01-01T00:00:00Z", "\(String(describing: first["createdAt"]))")
    }

    @Test func folderFeedTimeComesFromFeedInfoOrTheCalendar() throws {
        let tmp = try TestPaths.temporaryDirectory("repro-dir")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let feed = tmp.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        for (name, text) in Self.feedFiles() { try Data(text.utf8).write(to: feed.appendingPathComponent(name)) }
        let (first, firstPack) = try Self.build(feed, in: tmp, "a")
        for name in try FileManager.default.contentsOfDirectory(atPath: feed.path) {
            try Self.setModificationTime(feed.appendingPathComponent(name), 1_750_000_000)
        }
        let (_, secondPack) = try Self.build(feed, in: tmp, "b")
        #expect(firstPack == secondPack, "the pack changed when only the files' times did")
        // No feed_info.txt: the first service day of calendar.txt (2026-01-01).
        #expect(first["createdAt"] as? String == "2026-01-01T00:00:00Z", "\(String(describing: first["createdAt"]))")
        // With feed_info.txt, its feed_start_date.
        let info = "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date\nP,https://p.example,en,20260315,20351231\n"
        try Data(info.utf8).write(to: feed.appendingPathComponent("feed_info.txt"))
        let (third, _) = try Self.build(feed, in: tmp, "c")
        #expect(third["createdAt"] as? String == "2026-03-15T00:00:00Z", "\(String(describing: third["createdAt"]))")
    }
}
