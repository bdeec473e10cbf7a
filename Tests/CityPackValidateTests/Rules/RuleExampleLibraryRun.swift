import CityPackCompiler
import CityPackDiagnostics
import CityPackIngest
import CityPackModel
import CityPackTestSupport
import CityPackValidate
import Foundation
import Testing

/// Runs a rule's example (``RuleExample``) through the reading and validating libraries directly — no compiler,
/// no command line — so that every rule of a `Rules/` folder has a library-level test that triggers it and one
/// that does not. The run of every example through the compiler (every rule, the reading ones included) is
/// `RuleExampleTests` in CityPackCLITests.
enum RuleExampleLibraryRun {
    /// The validator a `Sources/CityPackValidate/Rules/` folder's rules belong to, and what it needs read first.
    enum Folder: String, CaseIterable, Sendable {
        case poi = "POI"
        case gtfs = "GTFS"
        case editorial = "Editorial"
        case copy = "Copy"
    }

    /// The codes of the rules described in `Sources/CityPackValidate/Rules/<folder>/`, in file-name order: read
    /// from the sources, so a rule added to the folder is tested without being listed here.
    static func codes(in folder: Folder) -> [String] {
        let directory = TestPaths.root.appendingPathComponent("Sources/CityPackValidate/Rules/\(folder.rawValue)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let description = #/RuleDescription\(\s*"([a-z]+\.[a-z0-9_]+)"/#
        var codes: [String] = []
        for file in files.sorted() where file.hasSuffix("Rule.swift") {
            let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
            codes += text.matches(of: description).map { String($0.output.1) }
        }
        return codes
    }

    /// The codes of `folder`'s rules that have an example.
    static func exampled(_ folder: Folder) -> [String] {
        codes(in: folder).filter { RuleCatalog.rule($0)?.example != nil }
    }

    /// Writes the example city with `file` replaced by `contents` (nil removes it), reads what `folder`'s
    /// validator needs with the ingest library, validates as of ``RuleExample/checkDate`` and returns every
    /// finding, with paths relative to the city folder.
    static func check(_ folder: Folder, file: String, contents: String?) throws -> [Diagnostic] {
        let root = try TestPaths.temporaryDirectory("rule-example-library")
        defer { try? FileManager.default.removeItem(at: root) }
        let cityFolder = root.appendingPathComponent("example")
        var files = RuleExampleCity.files
        files[file] = contents
        for (name, text) in files {
            let url = cityFolder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let bag = DiagnosticBag(maxPerCode: 100_000)
        let city = try #require(CityFileLoader.load(cityFolder.appendingPathComponent("city.yaml").path, bag: bag))
        let prefix = city.directory.hasSuffix("/") ? city.directory : city.directory + "/"
        let shown = { (path: String) in path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path }
        let templates = TestPaths.root.appendingPathComponent("templates")
        let profile = try TemplatePOIProfile.load(templatesDirectory: templates)

        var pois: [POI] = []
        if folder == .poi || folder == .editorial {
            let reader = OSMReader(profile: profile, bag: bag, options: OSMReadOptions(limits: city.limits))
            for path in city.osmFiles { try reader.read(file: path, displayPath: shown(path)) }
            pois = POIValidator.validate(reader.finish().pois, city: city, categories: profile.categories, bag: bag)
        }
        var stopIDs: Set<String> = []
        if folder == .gtfs || folder == .editorial {
            let date = RuleExample.checkDate.split(separator: "-").compactMap { Int($0) }
            try #require(date.count == 3)
            for path in city.gtfsFeeds {
                guard let feed = try GTFSReader.read(path: path, displayPath: shown(path), bag: bag,
                    options: GTFSReadOptions(limits: city.limits))
                else { continue }
                let errorFiles = Set(bag.diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.file })
                GTFSValidator.validate(feed, bbox: city.bbox, keepOutsideBBox: city.keepStopsOutsideBBox,
                    buildDate: (date[0], date[1], date[2]), bag: bag,
                    incompleteTables: GTFSValidator.incompleteTables(of: feed, errorFiles: errorFiles))
                stopIDs.formUnion(feed.stops.map(\.id))
            }
        }
        if folder == .editorial, let directory = city.editorialDirectory {
            let content = EditorialReader.read(
                directory: directory, displayDirectory: shown(directory), defaultLocale: city.defaultLocale,
                locales: city.locales, bag: bag)
            let context = EditorialContext(city: city, pois: pois, categories: profile.categories, stopIDs: stopIDs)
            _ = EditorialValidator.validate(content, context: context, bag: bag)
        }
        if folder == .copy {
            let table = CopyReader.read(
                templateDirectory: templates.appendingPathComponent("copy").path, cityDirectory: city.copyDirectory,
                display: shown, defaultLocale: city.defaultLocale, locales: city.locales, bag: bag)
            CopyValidator.validate(table, bag: bag)
        }
        return bag.diagnostics
    }

    /// Checks `code`'s example at the library level: the triggering variant reports the rule, the passing one
    /// does not.
    static func expectExample(_ code: String, in folder: Folder) throws {
        let example = try #require(RuleCatalog.rule(code)?.example)
        #expect(example.triggering != example.passing)
        let triggered = try check(folder, file: example.file, contents: example.triggering)
        #expect(triggered.contains { $0.code == code }, "\(code) not reported; got:\n\(summary(triggered))")
        let passed = try check(folder, file: example.file, contents: example.passing)
        #expect(!passed.contains { $0.code == code }, "\(code) reported on the passing variant:\n\(summary(passed))")
    }

    /// Checks that the folder's rule files were found and each rule is catalogued with an example or a waiver.
    static func expectCatalogued(_ folder: Folder) {
        let codes = codes(in: folder)
        #expect(!codes.isEmpty, "no rule found in Sources/CityPackValidate/Rules/\(folder.rawValue)")
        for code in codes {
            let rule = RuleCatalog.rule(code)
            #expect(rule != nil, "\(code) is not in RuleCatalog")
            #expect(rule?.example != nil || rule?.exampleWaiver != nil, "\(code): no example and no waiver")
        }
    }

    static func summary(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { "\($0.location?.description ?? "-"): \($0.severity.rawValue): [\($0.code)] \($0.message)" }
            .joined(separator: "\n")
    }
}
