import CityPackBuild
import CityPackFormat
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// The web flavour (`outputs/<city>/web/`) and its JavaScript reader (`clients/web/citypack.js`).
///
/// `swift test` covers the JavaScript side by running the README's command, `node --test clients/web/test/`, one
/// file at a time with this build's binary: the JS reader must give the same answers as `citypack query` on Monaco
/// and the hand-written feeds everywhere, on Liechtenstein and Milan + GTFS with ../shared, and the demo page must
/// work in headless chromium.
@Suite(.serialized) struct WebFlavourTests {
    /// `node` on the PATH, else /usr/bin/node.
    static let node = OutsideTools.node.path

    /// Runs a tool and returns its exit status and combined output (killed after `timeout` seconds).
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], timeout: Int = 600)
        throws -> (status: Int32, output: String)
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.currentDirectoryURL = TestPaths.root
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeout)) { if p.isRunning { p.terminate() } }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The web reader's test files (`clients/web/test/*.test.mjs`).
    static let javaScriptFiles: [String] = {
        let folder = TestPaths.root.appendingPathComponent("clients/web/test").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".test.mjs") }.sorted()
    }()

    /// One file of the web reader's tests, run with `node --test` and this build's binary (the README's command,
    /// one file at a time): gated per case, not per suite, so the cases that need nothing outside the repository
    /// (Monaco, the hand-written feeds, CJK search, the folding tables) run on every machine with node, and a case
    /// may be skipped only for what this machine lacks. The JS reader must give `citypack query`'s answers.
    static func checkJavaScriptFile(_ file: String) throws {
        let node = try #require(Self.node)
        let result = try Self.run(
            node, ["--test", "clients/web/test/\(file)"],
            environment: ["CITYPACK_BIN": CLIRunner.binary.path, "CHROMIUM": HTMLReportTests.chromium ?? ""])
        #expect(result.status == 0, "node --test \(file) failed:\n\(result.output.suffix(6000))")
        #expect(result.output.contains("# fail 0"), "\(file): \(result.output.suffix(3000))")
        for line in result.output.split(separator: "\n") {
            guard let mark = line.range(of: "# SKIP ") else { continue }
            let reason = line[mark.upperBound...]
            #expect(
                OutsideTools.allowsSkip(reason),
                "\(file): a case was skipped although this machine has what it needs (or for a tool OutsideTools.all does not list): \(line)")
        }
        if file == "agreement.test.mjs" {
            let figures = result.output.split(separator: "\n").filter { $0.contains("AGREEMENT") || $0.contains("SIZES") }
            #expect(figures.count >= (TestPaths.hasSharedData ? 7 : 4), "\(figures.joined(separator: "\n"))")
        }
    }

    /// Every part of real outputs (Monaco; Milan with transit), the manifest's `web` member and the string tables
    /// it names validate against `docs/schemas/web-*.schema.json`.
    @Test(
        .needsSharedData, .needs(OutsideTools.pythonJSONSchema))
    func partsValidateAgainstTheirSchemas() throws {
        let data = try #require(TestPaths.sharedData)
        let tmp = try TestPaths.temporaryDirectory("web-schemas")
        let output = tmp.appendingPathComponent("outputs")
        let city = tmp.appendingPathComponent("inputs/milan")
        let initResult = try CLIRunner.runBinary([
            "init", city.path, "--osm", data.appendingPathComponent("osm/milan-2015.osm.gz").path,
            "--gtfs", data.appendingPathComponent("gtfs/milan-atm-2015.zip").path, "--locales", "it,en",
        ])
        #expect(initResult.status == 0, "\(initResult.stderr)")
        for input in [city.path, "inputs/monaco"] {
            let build = try CLIRunner.runBinary(["build", input, "--output", output.path, "--quiet"])
            #expect(build.status == 0, "\(build.stderr.suffix(2000))")
        }
        let result = try Self.run(
            try OutsideTools.pythonJSONSchema.require(),
            ["clients/web/test-support/validate_schemas.py", "docs/schemas", output.path])
        #expect(result.status == 0, "\(result.output.suffix(4000))")
        // Per city: the manifest member, each part's head, each row chunk, each text part joined, each string table.
        var documents = 0
        for id in ["milan", "monaco"] {
            let manifest = try JSONDecoder().decode(
                Manifest.self, from: Data(contentsOf: output.appendingPathComponent("\(id)/manifest.json")))
            let web = try #require(manifest.web)
            documents += 1 + web.strings.count
            for part in web.parts { documents += 1 + (part.name == WebFlavour.transitPart ? 1 : part.chunks?.count ?? 0) }
        }
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == String(documents), "\(result.output)")
    }

    /// The web folder is written with the rest: listed in the manifest with the bytes and hashes on disk,
    /// byte-identical on an unchanged rebuild, and not written at all by a build with errors.
    @Test func writtenAtomicallyWithThePack() throws {
        let output = try TestPaths.temporaryDirectory("web-atomic")
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        #expect(try CLIRunner.run(["build", "inputs/monaco", "--output", output.path, "--quiet"], environment: env).status == 0)
        let cityDir = output.appendingPathComponent("monaco")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: cityDir.appendingPathComponent("manifest.json")))
        let web = try #require(manifest.web)
        #expect(web.format == WebFlavour.formatVersion)
        #expect(web.parts.map(\.name) == ["editorial", "places", "search"])
        #expect(web.strings["fr"] == "copy/web/fr.json")
        var first: [String: Data] = [:]
        let files = web.parts.flatMap(\.files)
        for file in files {
            let bytes = try Data(contentsOf: cityDir.appendingPathComponent(file.path))
            #expect(bytes.count == file.bytes && FileDigest.sha256(of: bytes) == file.sha256, "\(file.path)")
            first[file.path] = bytes
        }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: cityDir.appendingPathComponent("web").path).sorted()
        // The parts' files and the bundle of them all, content-addressed; no debris.
        let bundle = try #require(web.bundle)
        #expect(onDisk.map { "web/\($0)" } == (files.map(\.path) + [bundle.path]).sorted(), "content-addressed files, no debris: \(onDisk)")
        #expect(try Data(contentsOf: cityDir.appendingPathComponent(bundle.path)) == web.bundleMembers.reduce(Data()) { $0 + (first[$1.path] ?? Data()) })
        #expect(web.parts.allSatisfy { $0.path == "web/\($0.name)-\($0.sha256.prefix(16)).json.gz" })
        // Places: a small head and its rows in several chunks, named by their hashes.
        let places = try #require(web.parts.first { $0.name == WebFlavour.placesPart })
        let chunks = try #require(places.chunks)
        #expect(chunks.count > 1 && chunks.allSatisfy { $0.path == "web/\(WebFlavour.rowsPrefix)-\($0.sha256.prefix(16)).json.gz" })
        #expect(places.bytes < chunks.map(\.bytes).reduce(0, +) / 4)

        #expect(try CLIRunner.run(["build", "inputs/monaco", "--output", output.path, "--quiet"], environment: env).status == 0)
        let again = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: cityDir.appendingPathComponent("manifest.json")))
        #expect(again.dataVersion == manifest.dataVersion && again.web == manifest.web)
        for (path, bytes) in first { #expect(try Data(contentsOf: cityDir.appendingPathComponent(path)) == bytes) }

        // A new release adds its parts beside the kept ones; parts no kept manifest names are removed.
        #expect(try CLIRunner.run(["build", "inputs/monaco", "--output", output.path, "--quiet", "--keep", "0"], environment: ["SOURCE_DATE_EPOCH": "1800000000"]).status == 0)
        let afterKeep0 = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: cityDir.appendingPathComponent("manifest.json")))
        let remaining = try FileManager.default.contentsOfDirectory(atPath: cityDir.appendingPathComponent("web").path).sorted()
        #expect(remaining.map { "web/\($0)" } == ((afterKeep0.web?.parts ?? []).flatMap(\.files).map(\.path) + [afterKeep0.web?.bundle?.path ?? "?"]).sorted())

        // A build with errors writes no pack, manifest, copy or web folder.
        let failed = try TestPaths.temporaryDirectory("web-failed")
        let r = try CLIRunner.run(["build", "Tests/Fixtures/diagnostics/city", "--output", failed.path, "--quiet"], environment: env)
        #expect(r.status == 1)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: failed.appendingPathComponent("diagcity").path)) ?? []
        #expect(!names.contains("web") && !names.contains("manifest.json"), "\(names)")
    }
}

/// The web reader's test files (``WebFlavourTests/javaScriptFiles``) in two lanes that run side by side, each one
/// file at a time (``WebFlavourTests/checkJavaScriptFile(_:)``): one file at a time in all, the suite was the
/// longest part of `swift test` (about 18 minutes on 2 cores); `node --test clients/web/test/` itself runs every
/// file at once.
@Suite struct JavaScriptSuiteTests {
    static let lanes = 2

    @Test(.needs(OutsideTools.node), arguments: 0..<lanes)
    func javaScriptReaderGivesTheSameAnswersAsSwift(lane: Int) throws {
        let files = WebFlavourTests.javaScriptFiles.enumerated().filter { $0.offset % Self.lanes == lane }.map(\.element)
        #expect(!files.isEmpty)
        for file in files { try WebFlavourTests.checkJavaScriptFile(file) }
    }
}
