import CityPackTestSupport
import Foundation
import Testing

/// Every documented exit code, end to end with the built binary (README "Exit codes", `citypack --help`).
@Suite(.serialized) struct ExitCodeTests {
    static let fixture = "Tests/Fixtures/diagnostics/city"

    @Test func success0WithWarnings() throws {
        let out = try TestPaths.temporaryDirectory("exit-0")
        let r = try CLIRunner.run(["build", "inputs/monaco", "--output", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(": warning: "), "Monaco has warnings, and they do not fail the build")
        // Not a terminal: no progress bar, no carriage returns, no escape sequences.
        #expect(!r.stderr.contains("\r") && !r.stderr.contains("\u{1B}"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("monaco/report.html").path))
    }

    @Test func errors1AndNoPack() throws {
        let out = try TestPaths.temporaryDirectory("exit-1")
        let r = try CLIRunner.run(["build", Self.fixture, "--output", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("citypack: build failed: 3 errors, 6 warnings, 2 infos in 5 files; no pack was written"), "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("diagcity").path).sorted()
        #expect(files == ["build-stats.json", "report.html", "report.json"], "only the report: \(files)")
    }

    @Test func usage64() throws {
        #expect(try CLIRunner.run(["check"]).status == 64)
        #expect(try CLIRunner.run(["check", Self.fixture, "--max-errors", "-1"]).status == 64)
        #expect(try CLIRunner.run(["check", Self.fixture, "--format", "xml"]).status == 64)
    }

    @Test func missingInput66() throws {
        #expect(try CLIRunner.run(["check", "/nonexistent/city"]).status == 66)
        // A city file whose only source is missing: a located diagnostic in the city file, so exit 1 (issue 7);
        // 66 is for a city folder or file that is not there at all.
        let tmp = try TestPaths.temporaryDirectory("exit-66")
        try """
            id: nowhere
            name: Nowhere
            locales: [en]
            bbox: [7.40, 43.72, 7.44, 43.76]
            sources:
              osm: ["missing.osm"]
            """.write(to: tmp.appendingPathComponent("city.yaml"), atomically: true, encoding: .utf8)
        let r = try CLIRunner.run(["check", tmp.path, "--output", tmp.appendingPathComponent("out").path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("city.yaml:6:") && r.stderr.contains("[city.missing_source]"), "\(r.stderr)")
    }

    @Test(arguments: ["throw", "trap"]) func internalError70(fault: String) throws {
        let out = try TestPaths.temporaryDirectory("exit-70")
        let r = try CLIRunner.run(["check", Self.fixture, "--output", out.path, "--debug-fault", fault])
        #expect(r.status == 70, "\(fault): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains("citypack: error: internal error"), "\(r.stderr)")
    }

    @Test func ioFailure74() throws {
        // The output "folder" is a regular file: neither the pack nor the report can be written.
        let tmp = try TestPaths.temporaryDirectory("exit-74")
        let blocker = tmp.appendingPathComponent("outputs")
        try Data("not a folder".utf8).write(to: blocker)
        let build = try CLIRunner.run(["build", "inputs/monaco", "--output", blocker.path, "--quiet"])
        #expect(build.status == 74, "\(build.stderr)")
        let check = try CLIRunner.run(["check", "inputs/monaco", "--output", blocker.path, "--quiet"])
        #expect(check.status == 74, "\(check.stderr)")
        #expect(check.stderr.contains("cannot write the report"))
    }

    @Test func helpDocumentsExitCodes() throws {
        for command in [["--help"], ["build", "--help"], ["check", "--help"]] {
            let r = try CLIRunner.run(command)
            let text = r.stdout + r.stderr
            for code in ["64", "66", "70", "74"] { #expect(text.contains(code), "\(command) --help lacks exit code \(code)") }
        }
    }
}

/// On a terminal (a pseudo-terminal from `script`): colours and the progress line; `NO_COLOR` removes the
/// colours; `-v` prints the plan and per-stage times and counts.
@Suite(.serialized) struct TerminalOutputTests {
    /// Runs citypack under `script -qec` so stderr is a TTY; returns everything the terminal received.
    static func onTerminal(_ arguments: [String], environment: [String: String]) throws -> String? {
        guard let script = OutsideTools.script.path else { return nil }
        let command = ([CLIRunner.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: script)
        p.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CI")
        env.removeValue(forKey: "NO_COLOR")
        env["TERM"] = "xterm"
        env.merge(environment) { _, new in new }
        p.environment = env
        p.currentDirectoryURL = TestPaths.root
        let out = Pipe()
        p.standardOutput = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.needs(OutsideTools.script))
    func coloursAndProgressOnATerminal() throws {
        let out = try TestPaths.temporaryDirectory("tty")
        let text = try #require(try Self.onTerminal(["check", "inputs/monaco", "--output", out.path], environment: [:]))
        #expect(text.contains("\u{1B}[1;35mwarning\u{1B}[0m"), "coloured severity")
        #expect(text.contains("ingest inputs/monaco/monaco-2021.osm.gz ["), "progress bar: \(text.prefix(500))")
        let plain = try Self.onTerminal(["check", "inputs/monaco", "--output", out.path, "--quiet"], environment: ["NO_COLOR": "1"]) ?? ""
        #expect(!plain.contains("\u{1B}"), "NO_COLOR and --quiet: no escape sequences at all")
        #expect(plain.contains(": warning: "))
    }

    @Test func verbosePrintsPlanAndStages() throws {
        let out = try TestPaths.temporaryDirectory("verbose")
        let r = try CLIRunner.run(["check", "Tests/Fixtures/diagnostics/city", "--output", out.path, "-v"])
        let plan = [
            "plan:",
            "1. ingest OSM: map.osm, profile → POIs",
            "2. ingest GTFS: gtfs → stops, timetables",
            "3. ingest editorial: editorial → cards, routes",
            "4. ingest copy: template copy, copy → copy",
            "5. validate: POIs, stops, timetables, cards, routes, copy, profile → diagnostics, POIs kept, cards, routes kept",
            "stages:",
            "  ingest OSM ",
        ]
        #expect(r.stderr.contains(plan.joined(separator: "\n")), "\(r.stderr)")
        #expect(r.stderr.contains("stopTimes=3") && r.stderr.contains("poisKept=4"), "\(r.stderr)")
    }
}
