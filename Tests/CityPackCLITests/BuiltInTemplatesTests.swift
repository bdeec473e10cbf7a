import CityPackCompiler
import CityPackDiagnostics
import CityPackIngest
import CityPackTestSupport
import Foundation
import Testing

/// The default templates ship inside the binary (issue 33, point 3): a `citypack` copied away from its checkout
/// builds an OSM city and scaffolds copy files without `CITYPACK_TEMPLATES`, says it used the built-in templates,
/// and `--templates` still wins.
@Suite struct BuiltInTemplatesTests {
    /// The embedded files are the files of templates/ a build reads, byte for byte (run
    /// scripts/embed-templates.py after editing a template).
    @Test func embeddedFilesAreTheTemplatesFolder() throws {
        let root = TestPaths.root.appendingPathComponent("templates")
        let copies = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("copy").path)
            .filter { $0.hasSuffix(".yaml") }.map { "copy/\($0)" }
        #expect(Set(BuiltInTemplates.files.map(\.path)) == Set(["categories.json", "synonyms.json"] + copies))
        for (path, text) in BuiltInTemplates.files {
            let onDisk = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            #expect(text == onDisk, "\(path) differs from templates/\(path): run scripts/embed-templates.py")
        }
    }

    @Test func aCopiedBinaryBuildsWithoutTheCheckout() throws {
        let tmp = try TestPaths.temporaryDirectory("built-in-templates")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let bin = tmp.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let binary = bin.appendingPathComponent("citypack")
        try FileManager.default.copyItem(at: CLIRunner.binary, to: binary)
        let work = tmp.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try #"<?xml version="1.0"?><osm version="0.6"><node id="1" lat="43.73" lon="7.42"><tag k="amenity" v="toilets"/></node><node id="2" lat="43.74" lon="7.43"><tag k="amenity" v="pharmacy"/><tag k="name" v="P"/></node></osm>"#
            .write(to: work.appendingPathComponent("x.osm"), atomically: true, encoding: .utf8)
        let env = ["HOME": tmp.appendingPathComponent("home").path, "XDG_CACHE_HOME": "", "CITYPACK_TEMPLATES": ""]
        func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try ProcessRun.run(binary, arguments, environment: env, cwd: work)
        }
        let made = try run(["init", "city", "--osm", "x.osm", "--locales", "en,nl"])
        #expect(made.status == 0, "\(made.stderr)")
        // The copy scaffold for the locale without a template is written from the built-in templates.
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("city/copy/nl.yaml").path), "\(made.stdout)\(made.stderr)")
        let built = try run(["build", "city", "--output", "out"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr.contains("citypack: note: using the templates built into citypack"), "\(built.stderr)")
        #expect(built.stderr.contains("built city: 2 POIs"), "\(built.stderr)")
        let stats = try CLIRunner.json(String(contentsOf: work.appendingPathComponent("out/city/build-stats.json"), encoding: .utf8))
        #expect(stats["templates"] as? String == "the templates built into citypack")
        // --templates wins, and says so in the stats.
        let own = TestPaths.root.appendingPathComponent("templates").path
        let chosen = try run(["build", "city", "--output", "out2", "--templates", own])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(!chosen.stderr.contains("built into citypack"), "\(chosen.stderr)")
        let stats2 = try CLIRunner.json(String(contentsOf: work.appendingPathComponent("out2/city/build-stats.json"), encoding: .utf8))
        #expect(stats2["templates"] as? String == own)
        // Nothing was written for the built-in templates: they are read from the binary.
        #expect(!FileManager.default.fileExists(atPath: tmp.appendingPathComponent("home/.cache").path))
    }

    /// The built-in templates are served from memory: the same bytes as templates/, the same profile and copy
    /// table as the folder gives, named `<built-in templates>/…` in diagnostics.
    @Test func servedFromMemoryAsTheFolderServesThem() throws {
        let folder = TemplateSource.folder(TestPaths.root.appendingPathComponent("templates").path)
        let builtIn = TemplateSource.builtIn
        #expect(builtIn.isBuiltIn && !folder.isBuiltIn)
        for name in ["categories.json", "synonyms.json", "copy/en.yaml", "copy/fr.yaml"] {
            #expect(builtIn.contents(name) == folder.contents(name), "\(name)")
            #expect(builtIn.size(name) == folder.size(name), "\(name)")
        }
        #expect(builtIn.contents("nope.json") == nil && builtIn.size("nope.json") == nil)
        #expect(builtIn.files(in: "copy") == folder.files(in: "copy").filter { $0.hasSuffix(".yaml") })
        #expect(builtIn.subfolder("copy").files() == builtIn.files(in: "copy"))
        #expect(builtIn.subfolder("copy").contents("de.yaml") == folder.contents("copy/de.yaml"))
        #expect(builtIn.subfolder("copy").path("de.yaml") == "<built-in templates>/copy/de.yaml")
        let a = try TemplatePOIProfile.load(templates: builtIn), b = try TemplatePOIProfile.load(templates: folder)
        #expect(a.categories.map(\.id) == b.categories.map(\.id) && a.categories.count > 10)
        let bagA = DiagnosticBag(), bagB = DiagnosticBag()
        let copyA = CopyReader.read(templates: builtIn.subfolder("copy"), cityDirectory: nil, defaultLocale: "en", locales: ["en", "de"], bag: bagA)
        let copyB = CopyReader.read(templates: folder.subfolder("copy"), cityDirectory: nil, defaultLocale: "en", locales: ["en", "de"], bag: bagB)
        #expect(copyA.entries.mapValues { $0.mapValues(\.value) } == copyB.entries.mapValues { $0.mapValues(\.value) })
        #expect((copyA.entries["de"]?.count ?? 0) > 20)
        #expect(copyA.entries["de"]?.values.allSatisfy { $0.location.file == "<built-in templates>/copy/de.yaml" && $0.location.line > 0 } == true)
        #expect(bagA.diagnostics.isEmpty && bagB.diagnostics.isEmpty)
    }

    /// Libraries read no environment: the CLI (and the dev tools behind `bench`) resolve `$XDG_CACHE_HOME`,
    /// `$CITYPACK_TEMPLATES` and the like and pass plain values down.
    @Test func onlyTheCommandLineReadsTheEnvironment() throws {
        let sources = TestPaths.root.appendingPathComponent("Sources")
        let allowed: Set<String> = ["CityPackCLI", "CityPackDevTools", "citypack"]
        var readers: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() where !allowed.contains(module) {
            guard let walker = FileManager.default.enumerator(at: sources.appendingPathComponent(module), includingPropertiesForKeys: nil)
            else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                if text.contains("processInfo.environment") || text.contains("getenv(") || text.contains("ProcessInfo().environment") {
                    readers.append("\(module)/\(url.lastPathComponent)")
                }
            }
        }
        #expect(readers.isEmpty, "\(readers)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sources.path).count > 15)
    }
}
