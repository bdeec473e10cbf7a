import CityPackCLI
import CityPackTestSupport
import Foundation
import Testing

/// README.md as a newcomer runs it: the first-steps commands work from a fresh clone as written, the output it
/// quotes is what the build prints, and the city file it shows is the bundled one.
@Suite(.serialized) struct ReadmeTests {
    static let readme = (try? String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The first fenced block of `language` after `heading`.
    static func block(after heading: String, language: String) throws -> [String] {
        let start = try #require(readme.range(of: heading), "README has no \(heading)")
        let rest = readme[start.upperBound...]
        let open = try #require(rest.range(of: "```\(language)\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func cityFileShownIsTheBundledOne() throws {
        let readme = Self.readme
        let start = try #require(readme.range(of: "<!-- city-yaml:begin -->\n```yaml\n"))
        let end = try #require(readme.range(of: "```\n<!-- city-yaml:end -->"))
        let shown = String(readme[start.upperBound..<end.lowerBound])
        let file = try String(contentsOf: TestPaths.root.appendingPathComponent("inputs/monaco/city.yaml"), encoding: .utf8)
        #expect(shown == file, "README's city.yaml differs from inputs/monaco/city.yaml")
    }

    /// Runs every `citypack …` line of "First steps" in a folder that holds only links to `inputs/` and
    /// `templates/` (as a fresh clone does), and compares the output quoted below it with what was printed.
    @Test func firstStepsRunAsWritten() throws {
        let work = try TestPaths.temporaryDirectory("readme")
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["inputs", "templates"] {
            try FileManager.default.createSymbolicLink(
                at: work.appendingPathComponent(name), withDestinationURL: TestPaths.root.appendingPathComponent(name))
        }
        let commands = try Self.block(after: "## First steps on the example city", language: "sh")
            .filter { $0.hasPrefix("citypack ") }
        #expect(commands.count >= 4)
        var buildOutput = ""
        for line in commands {
            let command = String(line[..<(line.range(of: " #")?.lowerBound ?? line.endIndex)])
            let arguments = command.split(separator: " ").dropFirst().map(String.init)
            let result = try CLIRunner.runBinary(arguments, cwd: work)
            #expect(result.status == 0, "\(command): exit \(result.status)\n\(result.stderr)")
            #expect(!result.stdout.isEmpty || arguments.first == "build", "\(command) printed nothing")
            if arguments.first == "build" { buildOutput = result.stderr }
        }
        // The quoted note and summary line are the build's own.
        let quoted = try Self.block(after: "then a summary line:", language: "text")
        for line in quoted where line.hasPrefix("citypack: note:") || line.hasPrefix("built ") || line.contains(": warning: ") {
            #expect(buildOutput.contains(line), "README quotes a line the build does not print:\n\(line)\n--- printed:\n\(buildOutput)")
        }
        #expect(buildOutput.split(separator: "\n").count <= 15, "the first build prints \(buildOutput.split(separator: "\n").count) lines")
    }

    /// Runs every line of "The CLI at a glance" with /bin/sh, in order, in a folder that holds only links to
    /// `inputs/` and `templates/` (a fresh clone), with the built binary's folder first on the PATH: each exits 0.
    /// The lines that keep running or take minutes are parsed (their flags exist), not run.
    @Test func atAGlanceRunsAsWrittenInOrder() throws {
        let work = try TestPaths.temporaryDirectory("readme-glance")
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["inputs", "templates"] {
            try FileManager.default.createSymbolicLink(
                at: work.appendingPathComponent(name), withDestinationURL: TestPaths.root.appendingPathComponent(name))
        }
        // A fresh clone is a git repository with an `origin` remote (the fleet workflow line reads it).
        let git = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"),
            ["-c", "git init -q . && git remote add origin https://example.invalid/citypack.git"], cwd: work)
        #expect(git.status == 0, "\(git.stderr)")
        let lines = try Self.block(after: "## The CLI at a glance", language: "sh").filter { !$0.isEmpty }
        #expect(lines.count >= 20)
        let path = CLIRunner.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for line in lines {
            let r = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line], environment: ["PATH": path], cwd: work)
            #expect(r.status == 0, "\(line): exit \(r.status)\n\(r.stderr.suffix(2000))")
        }
        for file in ["citypack.sarif", "baseline.json", "keys/release", "keys/release.pub", "packs/catalog.json",
            ".github/workflows/packs.yml", "outputs/monaco/manifest.json"]
        {
            if file.hasSuffix("packs.yml") {
                let text = (try? String(contentsOf: work.appendingPathComponent(file), encoding: .utf8)) ?? ""
                #expect(text.contains("https://example.invalid/citypack.git"), "the workflow does not name the clone's origin")
            }
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(file).path), "\(file) was not written")
        }
        let long = try Self.block(after: "These keep running until stopped", language: "sh").filter { $0.hasPrefix("citypack ") }
        #expect(long.count == 3)
        for line in long {
            let command = String(line[..<(line.range(of: " #")?.lowerBound ?? line.endIndex)])
            let arguments = command.split(separator: " ").dropFirst().map(String.init)
            #expect(throws: Never.self, "\(command)") { _ = try CityPackCommand.parseAsRoot(arguments) }
        }
    }
}
