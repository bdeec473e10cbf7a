import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import Foundation
import Testing

/// Feeds whose files are not at the root (issue 21): one enclosing folder is read with an info
/// (`gtfs.files_in_subfolder`); files split across folders are one error naming them
/// (`gtfs.invalid_input_files_in_subfolder`), not one "missing file" error per table. Zips and folders alike.
@Suite struct GTFSSubfolderTests {
    /// `layout`: path inside the feed → contents. Returns the feed and the diagnostics, for a folder or a zip.
    static func read(_ layout: [String: String], zip: Bool) throws -> (GTFSFeed?, [Diagnostic]) {
        let tmp = try TestPaths.temporaryDirectory("gtfs-subfolder")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let path: URL
        if zip {
            path = tmp.appendingPathComponent("feed.zip")
            try TestZip.make(layout.sorted { $0.key < $1.key }.map { TestZip.Entry($0.key, $0.value) }).write(to: path)
        } else {
            path = tmp.appendingPathComponent("feed")
            for (name, text) in layout {
                let file = path.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }
        let bag = DiagnosticBag()
        let feed = try GTFSReader.read(path: path.path, displayPath: "g", bag: bag)
        return (feed, bag.diagnostics)
    }

    static func inFolder(_ folder: String, _ files: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: files.map { ("\(folder)/\($0.key)", $0.value) })
    }

    @Test(arguments: [false, true]) func atTheRootNothingIsSaid(zip: Bool) throws {
        let (feed, diagnostics) = try Self.read(GTFSReaderTests.minimal, zip: zip)
        #expect(feed?.stops.count == 2)
        #expect(!diagnostics.contains { $0.code.contains("subfolder") })
    }

    @Test(arguments: [false, true]) func oneFolderIsReadWithAnInfo(zip: Bool) throws {
        let (feed, diagnostics) = try Self.read(Self.inFolder("gtfs-2025", GTFSReaderTests.minimal), zip: zip)
        #expect(feed?.stops.count == 2)
        let info = diagnostics.filter { $0.code == "gtfs.files_in_subfolder" }
        #expect(info.count == 1 && info.first?.severity == .info)
        #expect(info.first?.message.contains("`gtfs-2025/`") == true)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics.map(\.message))")
    }

    @Test(arguments: [false, true]) func filesSplitAcrossFoldersAreOneErrorNamingThem(zip: Bool) throws {
        var layout: [String: String] = [:]
        for (name, text) in GTFSReaderTests.minimal {
            layout[(["stops.txt", "stop_times.txt", "trips.txt"].contains(name) ? "a/" : "b/") + name] = text
        }
        let (feed, diagnostics) = try Self.read(layout, zip: zip)
        #expect(feed == nil)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == ["gtfs.invalid_input_files_in_subfolder"], "\(errors.map(\.message))")
        #expect(errors.first?.message.contains("`a/` (stop_times.txt, stops.txt, trips.txt)") == true, "\(errors.map(\.message))")
        #expect(errors.first?.message.contains("`b/` (agency.txt") == true)
        #expect(!diagnostics.contains { $0.code == "gtfs.missing_required_file" })
    }
}
