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

    /// Every shell line of README.md, block by block in order: `run` lines are run with /bin/sh as written,
    /// `parse` lines keep running or take minutes (their flags are parsed, their scripts exist), `elsewhere`
    /// lines are README's two commands and what they stand for (CI runs them; their scripts exist).
    enum LineKind: Equatable { case run, parse, elsewhere }

    static func kind(_ line: String) -> LineKind {
        let elsewhere = ["scripts/install-deps.sh", "swift ", "node --test", "export PATH", "open ", "xdg-open "]
        if elsewhere.contains(where: { line.hasPrefix($0) }) { return .elsewhere }
        let long = ["citypack build --watch", "citypack preview", "citypack bench", "node clients/web/test-support/serve.mjs"]
        if long.contains(where: { line.hasPrefix($0) }) { return .parse }
        return .run
    }

    /// Lines that read ../shared/data or what was built from it (Vaduz, Milan).
    static func needsSharedData(_ line: String) -> Bool {
        ["../shared", "inputs/vaduz", "inputs/milan", "outputs/vaduz", "outputs/milan"].contains { line.contains($0) }
    }

    /// README's ```sh blocks, each as its lines (blank lines and comment-only lines dropped).
    static var shellLines: [String] {
        var out: [String] = []
        var inside = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inside = !inside && line == "```sh"
                continue
            }
            if inside, !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix("#") { out.append(line) }
        }
        return out
    }

    /// A folder laid out as a fresh clone: git with an `origin`, the repository's .gitignore, links to
    /// `templates/`, `clients/`, `scripts/` and the bundled city (`inputs/` itself is a folder, so `init` writes
    /// into the test's folder), and for the lines that need it `../shared` beside it.
    static func freshClone(_ name: String, shared: Bool) throws -> (root: URL, clone: URL) {
        let root = try TestPaths.temporaryDirectory(name)
        let clone = root.appendingPathComponent("clone")
        try FileManager.default.createDirectory(at: clone.appendingPathComponent("inputs"), withIntermediateDirectories: true)
        for name in ["templates", "clients", "scripts", "inputs/monaco"] {
            try FileManager.default.createSymbolicLink(
                at: clone.appendingPathComponent(name), withDestinationURL: TestPaths.root.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: TestPaths.root.appendingPathComponent(".gitignore"), to: clone.appendingPathComponent(".gitignore"))
        if shared, let data = TestPaths.sharedData {
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent("shared"), withDestinationURL: data.deletingLastPathComponent())
        }
        let git = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"),
            ["-c", "git init -q . && git remote add origin https://example.invalid/citypack.git"], cwd: clone)
        #expect(git.status == 0, "\(git.stderr)")
        return (root, clone)
    }

    /// Runs `lines` in order in `clone` with the built binary's folder first on the PATH; each must exit 0
    /// (README's exit-code table: 0 is success; every line README shows is meant to succeed).
    static func runInOrder(_ lines: [String], in clone: URL) throws {
        let path = CLIRunner.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for line in lines {
            switch kind(line) {
            case .run:
                let r = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line], environment: ["PATH": path], cwd: clone)
                #expect(r.status == 0, "\(line): exit \(r.status)\n\(r.stderr.suffix(2000))")
            case .parse:
                let command = String(line[..<(line.range(of: " #")?.lowerBound ?? line.endIndex)])
                let words = command.split(separator: " ").map(String.init)
                if words.first == "citypack" {
                    #expect(throws: Never.self, "\(command)") { _ = try CityPackCommand.parseAsRoot(Array(words.dropFirst())) }
                } else {
                    #expect(FileManager.default.fileExists(atPath: TestPaths.root.appendingPathComponent(words[1]).path), "\(line)")
                }
            case .elsewhere:
                for word in line.split(separator: " ") where word.hasPrefix("scripts/") || word.hasPrefix("clients/") {
                    #expect(FileManager.default.fileExists(atPath: TestPaths.root.appendingPathComponent(String(word)).path), "\(line)")
                }
            }
        }
    }

    /// Every shell line of README that needs nothing beyond the clone, in order, as written (issue 40): a line
    /// with `[…]` options or one that fails is caught here. Afterwards nothing the lines wrote is left for `git
    /// add .` to commit: .gitignore covers keys, reports, baselines, fleet files, workflows and outputs.
    @Test func everyShellLineRunsAsWritten() throws {
        let (root, clone) = try Self.freshClone("readme-lines", shared: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = Self.shellLines.filter { !Self.needsSharedData($0) }
        #expect(lines.count >= 30)
        #expect(!lines.contains { $0.contains(" [--") }, "options in brackets are not runnable as written")
        try Self.runInOrder(lines, in: clone)
        for file in ["citypack.sarif", "baseline.json", "keys/release", "keys/release.pub", "packs/catalog.json",
            ".github/workflows/packs.yml", "outputs/monaco/manifest.json"]
        {
            if file.hasSuffix("packs.yml") {
                let text = (try? String(contentsOf: clone.appendingPathComponent(file), encoding: .utf8)) ?? ""
                #expect(text.contains("https://example.invalid/citypack.git"), "the workflow does not name the clone's origin")
            }
            #expect(FileManager.default.fileExists(atPath: clone.appendingPathComponent(file).path), "\(file) was not written")
        }
        // What `git add .` would pick up, beyond the links standing for the repository's own files.
        let status = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"),
            ["-c", "git status --porcelain --untracked-files=all"], cwd: clone)
        let left = status.stdout.split(separator: "\n").map { String($0.dropFirst(3)) }
            .filter { !["templates", "clients", "scripts", "inputs/monaco", ".gitignore"].contains($0) }
        #expect(left.isEmpty, "README's lines leave files git would commit: \(left)")
    }

    /// The lines that read ../shared/data (Vaduz, Milan + ATM, the Node benchmark), in order, as written.
    @Test(.needsSharedData, .needs(OutsideTools.node)) func sharedDataShellLinesRunAsWritten() throws {
        let (root, clone) = try Self.freshClone("readme-shared", shared: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = Self.shellLines.filter { Self.needsSharedData($0) }
        #expect(lines.count >= 10)
        try Self.runInOrder(lines, in: clone)
    }

    /// README's exit-code table lists the codes the CLI uses, no more, no fewer.
    @Test func exitCodeTableMatchesTheCLI() throws {
        let start = try #require(Self.readme.range(of: "### Exit codes"))
        let table = Self.readme[start.upperBound...].prefix(3000)
        let listed = Set(table.split(separator: "\n").prefix { !$0.hasPrefix("`citypack --help`") }
            .compactMap { line -> Int32? in
                guard line.hasPrefix("| ") else { return nil }
                return Int32(line.dropFirst(2).prefix { $0.isNumber })
            })
        #expect(listed == [0, 1, 64, 66, 70, 74], "README lists \(listed.sorted())")
        let missing = try CLIRunner.runBinary(["build", "inputs/nowhere-a", "inputs/nowhere-b", "--jobs", "2"])
        #expect(missing.status == 66, "a fleet of missing cities: exit \(missing.status)\n\(missing.stderr)")
        let usage = try CLIRunner.runBinary(["build", "--no-such-flag"])
        #expect(usage.status == 64)
    }
}
