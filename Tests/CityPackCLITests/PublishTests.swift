import CityPackTestSupport
import Foundation
import Testing

/// `citypack publish OUTPUT --site DIR` (issue 42, point 5): the site holds what apps read and nothing else, is
/// checked before anything is written, and keeps the previous release one release long. (The nginx side:
/// clients/web/test/hosting.test.mjs serves a published site with docs/HOSTING.md's block.)
@Suite(.serialized) struct PublishTests {
    /// Monaco copied into `work/monaco` and built into `work/outputs`; `rename` renames one place first.
    static func release(_ work: URL, rename: String? = nil) throws {
        let city = work.appendingPathComponent("monaco")
        if !FileManager.default.fileExists(atPath: city.path) {
            try FileManager.default.copyItem(at: TestPaths.root.appendingPathComponent("inputs/monaco"), to: city)
        }
        if let rename {
            let osm = city.appendingPathComponent("monaco-2021.osm.gz").path
            let r = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c",
                "gzip -dc \"$1\" | sed '0,/k=\"name\" v=\"[^\"]*\"/s//k=\"name\" v=\"\(rename)\"/' | gzip -n > \"$1.new\" && mv \"$1.new\" \"$1\"", "sh", osm], cwd: work)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let built = try CLIRunner.runBinary(["build", "monaco", "--output", "outputs", "--quiet"], environment: ["SOURCE_DATE_EPOCH": "1700000000"], cwd: work)
        #expect(built.status == 0, "\(built.stderr)")
    }

    static func files(_ folder: URL) -> [String] {
        var out: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out.append(path)
            }
        }
        return out.sorted()
    }

    @Test func theSiteHoldsWhatTheCatalogNamesAndNothingElse() throws {
        let work = try TestPaths.temporaryDirectory("publish")
        defer { try? FileManager.default.removeItem(at: work) }
        try Self.release(work)
        try Self.release(work, rename: "Renamed once")
        let published = try CLIRunner.runBinary(["publish", "outputs", "--site", "site", "--format", "json"], cwd: work)
        #expect(published.status == 0, "\(published.stderr)")
        let files = Self.files(work.appendingPathComponent("site"))
        #expect(files.contains("catalog.json") && files.contains("monaco/monaco-2.citypack.gz") && files.contains("monaco/monaco-1-2.delta"))
        #expect(files.contains("monaco/monaco-2.manifest.json") && files.contains("monaco/manifest.json"))
        #expect(files.contains { $0.hasPrefix("monaco/web/") } && files.contains("monaco/copy/apple/Localizable.xcstrings"))
        for unwanted in ["report", "build-stats", ".cache", ".lock", "monaco-1.citypack.gz", "monaco-1.manifest.json"] {
            #expect(!files.contains { $0.contains(unwanted) }, "\(unwanted) was published: \(files)")
        }
        // Every published text names no folder of the build machine.
        for file in files where file.hasSuffix(".json") || file.hasSuffix(".xml") || file.hasSuffix(".xcstrings") {
            let text = try String(contentsOf: work.appendingPathComponent("site/\(file)"), encoding: .utf8)
            #expect(!text.contains(work.path) && !text.contains(TestPaths.root.path), "\(file) names a build path")
        }
        // The same again writes nothing.
        let again = try CLIRunner.runBinary(["publish", "outputs", "--site", "site", "--format", "json"], cwd: work)
        let report = try CLIRunner.json(again.stdout)
        #expect((report["written"] as? [String])?.isEmpty == true, "\(again.stdout)")

        // A third release: what the previous release named (its pack, its delta) stays one release, for apps
        // that are fetching it; anything else put there by hand goes.
        try "stray".write(to: work.appendingPathComponent("site/monaco/report.html"), atomically: true, encoding: .utf8)
        try Self.release(work, rename: "Renamed twice")
        let third = try CLIRunner.runBinary(["publish", "outputs", "--site", "site", "--format", "json"], cwd: work)
        #expect(third.status == 0, "\(third.stderr)")
        let after = Self.files(work.appendingPathComponent("site"))
        #expect(after.contains("monaco/monaco-3.citypack.gz") && after.contains("monaco/monaco-2.citypack.gz"))
        #expect(after.contains("monaco/monaco-1-2.delta") && !after.contains("monaco/report.html"), "\(after)")
        let thirdReport = try CLIRunner.json(third.stdout)
        #expect((thirdReport["kept"] as? [String])?.contains("monaco/monaco-2.citypack.gz") == true)
        #expect((thirdReport["removed"] as? [String]) == ["monaco/report.html"], "\(third.stdout)")
        // Published again: the release before is now the third itself, so the second's files go.
        let fourth = try CLIRunner.runBinary(["publish", "outputs", "--site", "site", "--format", "json"], cwd: work)
        let last = Self.files(work.appendingPathComponent("site"))
        #expect(!last.contains("monaco/monaco-2.citypack.gz") && !last.contains("monaco/monaco-1-2.delta"), "\(fourth.stdout)")
        #expect(last.contains("monaco/monaco-2-3.delta") && last.contains("monaco/monaco-3.citypack.gz"))
    }

    @Test func aDamagedOutputFolderIsRefusedAndNothingIsWritten() throws {
        let work = try TestPaths.temporaryDirectory("publish-refused")
        defer { try? FileManager.default.removeItem(at: work) }
        try Self.release(work)
        let pack = work.appendingPathComponent("outputs/monaco/monaco-1.citypack.gz")
        var bytes = try Data(contentsOf: pack)
        bytes[100] ^= 0xFF
        try bytes.write(to: pack)
        let refused = try CLIRunner.runBinary(["publish", "outputs", "--site", "site"], cwd: work)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("monaco-1.citypack.gz: its SHA-256 is"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("site").path))
        #expect(try CLIRunner.runBinary(["publish", "nowhere", "--site", "site"], cwd: work).status == 66)
        #expect(try CLIRunner.runBinary(["publish", "outputs", "--site", "outputs/site"], cwd: work).status == 64)
    }
}
