import CityPackCompiler
import CityPackDiagnostics
import CityPackTestSupport
import Foundation
import Testing

/// Runs every rule's example: the triggering variant, overlaid on the example city, must report the rule; the
/// passing variant must not, and must report no error at all (so it cannot pass by stopping the check early).
/// Rules added later are covered automatically, and a rule without an example must say why.
@Suite struct RuleExampleTests {
    static let baseCity = TestPaths.root.appendingPathComponent("Tests/Fixtures/rule-examples/base")
    static let exampled = RuleCatalog.all.filter { $0.example != nil }.map(\.code)

    /// Copies the base city to a temporary folder, writes (or with nil removes) `file`, and checks it in-process
    /// as `citypack check` does, as of ``RuleExample/checkDate``.
    static func check(_ file: String? = nil, contents: String? = nil) throws -> [Diagnostic] {
        try checkWithFiles(file, contents: contents).diagnostics
    }

    /// Like ``check(_:contents:)``, with diagnostic paths made relative to the city folder and the set of files
    /// the overlaid city holds.
    static func checkWithFiles(_ file: String? = nil, contents: String? = nil) throws
        -> (diagnostics: [Diagnostic], files: Set<String>)
    {
        let root = try TestPaths.temporaryDirectory("rule-example")
        defer { try? FileManager.default.removeItem(at: root) }
        let city = root.appendingPathComponent("example")
        try FileManager.default.copyItem(at: baseCity, to: city)
        if let file {
            let url = city.appendingPathComponent(file)
            if let contents {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            } else if FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.removeItem(at: url)
            }
        }
        var files: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: city, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            files.insert(String(url.standardizedFileURL.path.dropFirst(city.standardizedFileURL.path.count + 1)))
        }
        let prefix = city.path + "/"
        let diagnostics = try run(city.path, output: root.appendingPathComponent("outputs").path).map { d in
            var d = d
            if let file = d.location?.file, file.hasPrefix(prefix) { d.location?.file = String(file.dropFirst(prefix.count)) }
            return d
        }
        return (diagnostics, files)
    }

    static func run(_ city: String, output: String, emit: Bool = false) throws -> [Diagnostic] {
        var options = BuildOptions(
            cityPath: city, outputDirectory: output,
            templatesDirectory: TestPaths.root.appendingPathComponent("templates").path, emit: emit,
            sourceDateEpoch: 1_780_272_000)
        let date = RuleExample.checkDate.split(separator: "-").compactMap { Int($0) }
        try #require(date.count == 3)
        options.buildDate = (date[0], date[1], date[2])
        let bag = DiagnosticBag(maxPerCode: 100_000)
        _ = Compiler.build(options, bag: bag)
        return bag.diagnostics
    }

    static func summary(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { "\($0.location?.description ?? "-"): \($0.severity.rawValue): [\($0.code)] \($0.message)" }
            .joined(separator: "\n")
    }

    @Test func baseCityIsClean() throws {
        let diagnostics = try Self.check()
        #expect(diagnostics.isEmpty, "\(Self.summary(diagnostics))")
    }

    @Test func baseFilesMatchTheirTextInTheCatalogue() throws {
        var onDisk: [String] = []
        let enumerator = FileManager.default.enumerator(at: Self.baseCity, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                onDisk.append(String(url.path.dropFirst(Self.baseCity.path.count + 1)))
            }
        }
        #expect(onDisk.sorted() == RuleExampleCity.files.keys.sorted())
        for (file, text) in RuleExampleCity.files {
            let disk = try String(contentsOf: Self.baseCity.appendingPathComponent(file), encoding: .utf8)
            #expect(disk == text, "\(file) differs from RuleExampleCity")
        }
    }

    @Test(arguments: exampled)
    func triggeringExampleReportsTheRule(_ code: String) throws {
        let example = try #require(RuleCatalog.rule(code)?.example)
        let (diagnostics, files) = try Self.checkWithFiles(example.file, contents: example.triggering)
        let hits = diagnostics.filter { $0.code == code }
        #expect(!hits.isEmpty, "\(code) not reported; got:\n\(Self.summary(diagnostics))")
        // Each finding points at the example's file or another file of the city (an absent file by its name).
        for hit in hits {
            let file = hit.location?.file ?? ""
            #expect(file == example.file || files.contains(file), "\(code) located at '\(file)'")
        }
    }

    @Test(arguments: exampled)
    func passingExampleDoesNot(_ code: String) throws {
        let example = try #require(RuleCatalog.rule(code)?.example)
        #expect(example.triggering != example.passing)
        let diagnostics = try Self.check(example.file, contents: example.passing)
        #expect(!diagnostics.contains { $0.code == code }, "\(code) reported:\n\(Self.summary(diagnostics))")
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "passing variant has errors:\n\(Self.summary(errors))")
    }

    @Test func everyRuleHasAnExampleOrAWaiver() {
        for rule in RuleCatalog.all {
            let waiver = rule.exampleWaiver?.trimmingCharacters(in: .whitespaces) ?? ""
            #expect((rule.example == nil) != waiver.isEmpty, "\(rule.code): give an example, or an exampleWaiver saying why not")
            #expect(!rule.title.isEmpty && rule.title.count <= 40, "\(rule.code): title '\(rule.title)'")
        }
    }

    /// A waiver names the test that covers the rule instead (`FileName.testFunction`), and that test exists.
    @Test func waiversNameAnExistingTest() throws {
        var sources: [String: String] = [:]
        let tests = TestPaths.root.appendingPathComponent("Tests")
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            sources[url.deletingPathExtension().lastPathComponent] = try String(contentsOf: url, encoding: .utf8)
        }
        let reference = try Regex(#"([A-Z][A-Za-z0-9]*Tests)\.([a-z][A-Za-z0-9]*)"#)
        for rule in RuleCatalog.all {
            guard let waiver = rule.exampleWaiver else { continue }
            let named = waiver.matches(of: reference).compactMap { m -> (String, String)? in
                guard let file = m.output[1].substring, let test = m.output[2].substring else { return nil }
                return (String(file), String(test))
            }
            #expect(!named.isEmpty, "\(rule.code): the waiver should name the covering test as File.testFunction")
            for (file, test) in named {
                let text = sources[file] ?? ""
                #expect(text.contains("func \(test)("), "\(rule.code): \(file).\(test) not found under Tests/")
                #expect(text.contains(rule.code), "\(rule.code): \(file).swift does not mention the rule")
            }
        }
    }

    /// `pack.io_failure` (waived: no input file can show it): emitting into an output path that is a file.
    @Test func ioFailureIsReported() throws {
        let root = try TestPaths.temporaryDirectory("rule-example-io")
        defer { try? FileManager.default.removeItem(at: root) }
        let city = root.appendingPathComponent("example")
        try FileManager.default.copyItem(at: Self.baseCity, to: city)
        let blocker = root.appendingPathComponent("outputs")
        try Data("not a folder".utf8).write(to: blocker)
        let diagnostics = try Self.run(city.path, output: blocker.path, emit: true)
        #expect(diagnostics.map(\.code) == [Rules.packIOFailure.code], "\(Self.summary(diagnostics))")
        #expect(try String(contentsOf: blocker, encoding: .utf8) == "not a folder")
    }
}
