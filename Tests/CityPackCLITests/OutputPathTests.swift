import CityPackTestSupport
import Foundation
import Testing

/// Output paths name folders that need not exist (issue 33, point 9), and `verify` takes each installed city's
/// version (point 10). Through the binary, in an empty folder.
@Suite struct OutputPathTests {
    @Test func keygenAndWorkflowMakeTheirFolders() throws {
        let work = try TestPaths.temporaryDirectory("out-paths")
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try CLIRunner.runBinary(["keygen", "--output", "keys/deep/release"], cwd: work)
        #expect(key.status == 0, "\(key.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("keys/deep/release.pub").path))
        let flow = try CLIRunner.runBinary(["fleet", "workflow", "--github", "--citypack-repository", "https://example.invalid/citypack.git", "--output", ".github/workflows/packs.yml"], cwd: work)
        #expect(flow.status == 0, "\(flow.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(".github/workflows/packs.yml").path))
        // A parent that is a file: the message names it, not a hidden temporary file.
        try Data("x".utf8).write(to: work.appendingPathComponent("plain"))
        let blocked = try CLIRunner.runBinary(["keygen", "--output", "plain/release"], cwd: work)
        #expect(blocked.status == 74)
        #expect(blocked.stderr.contains("plain: error[pack.io_failure]: is a file, not a folder"), "\(blocked.stderr)")
        #expect(!blocked.stderr.contains(".tmp"), "\(blocked.stderr)")
    }

    /// `keygen` warns when the private key lands in a git work tree that does not ignore it (issue 40: one
    /// `git add .` committed README's `keys/release`), and says nothing once .gitignore covers it or outside git.
    @Test(.needs(OutsideTools.git)) func keygenWarnsWhenAGitWorkTreeWouldCommitTheKey() throws {
        let work = try TestPaths.temporaryDirectory("keygen-git")
        defer { try? FileManager.default.removeItem(at: work) }
        let outside = try CLIRunner.runBinary(["keygen", "--output", "keys/outside"], cwd: work)
        #expect(outside.status == 0 && !outside.stderr.contains("warning"), "\(outside.stderr)")
        let git = try OutsideTools.git.run(["init", "-q", "."], in: work)
        #expect(git.status == 0, "\(git.stderr)")
        let exposed = try CLIRunner.runBinary(["keygen", "--output", "keys/release"], cwd: work)
        #expect(exposed.status == 0, "\(exposed.stderr)")
        #expect(exposed.stderr.contains("keys/release: warning: the private key is inside the git work tree"), "\(exposed.stderr)")
        try Data("/keys/\n".utf8).write(to: work.appendingPathComponent(".gitignore"))
        let ignored = try CLIRunner.runBinary(["keygen", "--output", "keys/other"], cwd: work)
        #expect(ignored.status == 0 && !ignored.stderr.contains("warning"), "\(ignored.stderr)")
    }

    /// Two cities in one catalog, both at data version 1: `--installed a=2` refuses a's manifest as a rollback and
    /// passes b's; `--installed-version` on a catalog is a usage error naming `--installed`.
    @Test func verifyTakesEachCitysInstalledVersion() throws {
        let work = try TestPaths.temporaryDirectory("verify-installed")
        defer { try? FileManager.default.removeItem(at: work) }
        let osm = work.appendingPathComponent("x.osm")
        try #"<?xml version="1.0"?><osm version="0.6"><node id="1" lat="43.73" lon="7.42"><tag k="amenity" v="toilets"/></node></osm>"#
            .write(to: osm, atomically: true, encoding: .utf8)
        for id in ["a", "b"] {
            let i = try CLIRunner.runBinary(["init", "inputs/\(id)", "--osm", osm.path, "--name", id, "--locales", "en",
                "--bbox", "7.40,43.72,7.45,43.76"], cwd: work)
            #expect(i.status == 0, "\(i.stderr)")
            let b = try CLIRunner.runBinary(["build", "inputs/\(id)", "--quiet"], cwd: work)
            #expect(b.status == 0, "\(b.stderr)")
        }
        let r = try CLIRunner.runBinary(["verify", "outputs/catalog.json", "--installed", "a=2", "--installed", "b=1"], cwd: work)
        #expect(r.status == 1)
        #expect(r.stderr.contains("refusing a data version 1: version 2 is installed (rollback)"), "\(r.stderr)")
        #expect(r.stdout.contains("ok: outputs/b/b-1.manifest.json: b data version 1"), "\(r.stdout)")
        #expect(!r.stderr.contains("refusing b"), "\(r.stderr)")
        let all = try CLIRunner.runBinary(["verify", "outputs/catalog.json", "--installed-version", "2"], cwd: work)
        #expect(all.status == 64)
        #expect(all.stderr.contains("--installed CITY=N"), "\(all.stderr)")
        let bad = try CLIRunner.runBinary(["verify", "outputs/catalog.json", "--installed", "a"], cwd: work)
        #expect(bad.status == 64)
    }
}
