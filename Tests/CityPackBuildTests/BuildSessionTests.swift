import CityPackBuild
import CityPackCompiler
import CityPackTestSupport
import Foundation
import Testing

/// A library caller of ``BuildSession`` gets what `citypack build` writes: the same pack, manifest, catalog,
/// web flavour, report.json, report.html and build-stats.json.
@Suite struct BuildSessionTests {
    /// The built `citypack` beside the test bundle.
    static var binary: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent("citypack")
    }

    /// Every regular file under `folder`, by path relative to it.
    static func files(under folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        guard let walk = FileManager.default.enumerator(atPath: base) else { return out }
        for case let relative as String in walk {
            let path = (base as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return out
    }

    /// build-stats.json without its wall-clock figures (seconds differ between any two runs).
    static func withoutTimings(_ data: Data) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "seconds" && $0.key != "totalSeconds" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let object = strip(try JSONSerialization.jsonObject(with: data))
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func theLibraryWritesWhatTheBinaryWrites() throws {
        let root = try TestPaths.temporaryDirectory("citypack-build-session")
        defer { try? FileManager.default.removeItem(at: root) }
        // Both write to the same folder (build-stats.json names the outputs), the binary's run moved aside after it.
        let output = root.appendingPathComponent("outputs"), viaBinary = root.appendingPathComponent("binary")
        let epoch: Int64 = 1_700_000_000
        // Absolute paths: the library call does not depend on the test process's working directory.
        let city = TestPaths.root.appendingPathComponent("inputs/monaco").path
        let templates = TestPaths.root.appendingPathComponent("templates").path

        let r = try ProcessRun.run(
            Self.binary,
            ["build", city, "--templates", templates, "--output", output.path, "--no-cache", "--quiet"],
            environment: ["SOURCE_DATE_EPOCH": "\(epoch)"], cwd: TestPaths.root)
        #expect(r.status == 0, "\(r.stderr)")
        try FileManager.default.moveItem(at: output, to: viaBinary)

        var request = BuildRequest(city: city, templates: templates, output: output.path, emit: true)
        request.useCache = false
        request.sourceDateEpoch = epoch
        let result = try BuildSession.build(request)
        #expect(result.exit == .success)
        #expect(result.writeFailures.isEmpty)
        #expect(result.build.emitted != nil)

        let binaryFiles = try Self.files(under: viaBinary), libraryFiles = try Self.files(under: output)
        #expect(binaryFiles.keys.sorted() == libraryFiles.keys.sorted())
        for key in ["monaco/report.json", "monaco/report.html", "monaco/build-stats.json", "monaco/manifest.json", "catalog.json"] {
            #expect(binaryFiles[key] != nil, "the binary wrote no \(key)")
        }
        for (path, data) in binaryFiles {
            guard let other = libraryFiles[path] else { continue }
            if path.hasSuffix("build-stats.json") {
                let (a, b) = (try Self.withoutTimings(data), try Self.withoutTimings(other))
                #expect(a == b, "\(path) differs beyond its timings:\n\(a)\n\(b)")
            } else {
                #expect(data == other, "\(path) differs between the binary and the library")
            }
        }
    }

    /// A city that does not exist is an error value, and no report is written.
    @Test func aMissingCityIsAnErrorValue() throws {
        let out = try TestPaths.temporaryDirectory("citypack-build-session")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(throws: BuildSessionError.noSuchCity("no/such/city")) {
            try BuildSession.build(BuildRequest(city: "no/such/city", output: out.path))
        }
    }

    /// A build with errors writes its reports and decides exit 1.
    @Test func errorsDecideExitOne() throws {
        let out = try TestPaths.temporaryDirectory("citypack-build-session")
        defer { try? FileManager.default.removeItem(at: out) }
        let city = out.appendingPathComponent("city")
        try FileManager.default.createDirectory(at: city, withIntermediateDirectories: true)
        try "id: broken\nname: Broken\nosm: [missing.osm]\n".write(
            to: city.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        var request = BuildRequest(city: city.path, templates: TestPaths.root.appendingPathComponent("templates").path, output: out.appendingPathComponent("out").path)
        request.useCache = false
        let result = try BuildSession.build(request)
        #expect(result.exit == .dataErrors)
        #expect(result.report.errors > 0)
        #expect(FileManager.default.fileExists(atPath: (result.reportFolder as NSString).appendingPathComponent("report.json")))
    }
}
