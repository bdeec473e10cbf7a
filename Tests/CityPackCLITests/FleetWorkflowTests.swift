import CityPackTestSupport
import Foundation
import Testing

/// `citypack fleet workflow`: the GitHub workflow passes actionlint, the Kubernetes Job is the Indexed Job it
/// claims, and the examples shipped in docs/examples are what the command writes.
@Suite struct FleetWorkflowTests {
    static let examples = TestPaths.root.appendingPathComponent("docs/examples")
    /// The repository and image the examples are written with (placeholders a reader replaces).
    static let repository = "https://github.com/OWNER/citypack.git"
    static let image = "ghcr.io/OWNER/citypack:latest"

    @Test(.needs(OutsideTools.actionlint)) func githubWorkflowPassesActionlint() throws {
        let dir = try TestPaths.temporaryDirectory("fleet-workflow")
        let workflows = dir.appendingPathComponent(".github/workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        for shards in [1, 4] {
            let file = workflows.appendingPathComponent("packs-\(shards).yml")
            let r = try CLIRunner.run(["fleet", "workflow", "--github", "--citypack-repository", Self.repository, "--shards", "\(shards)", "--fleet", "cities/fleet.yaml", "--output", file.path])
            #expect(r.status == 0, "\(r.stderr)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("--shard \"${{ matrix.shard }}/\(shards)\""))
            #expect(text.contains("shard: [\((0..<shards).map(String.init).joined(separator: ", "))]"))
            #expect(text.contains("citypack catalog --merge shards/shard-* --output packs"))
            #expect(text.contains("secrets.CITYPACK_SIGNING_KEY"))
        }
        let lint = try OutsideTools.actionlint.run(["-no-color", "-shellcheck=", ".github/workflows/packs-1.yml", ".github/workflows/packs-4.yml"], in: dir)
        #expect(lint.status == 0, "actionlint: \(lint.stdout)\(lint.stderr)")
        // actionlint does find problems: a broken expression is reported.
        let broken = try String(contentsOf: workflows.appendingPathComponent("packs-4.yml"), encoding: .utf8)
            .replacingOccurrences(of: "${{ matrix.shard }}/4", with: "${{ matrix.shrd }}/4")
        try broken.write(to: workflows.appendingPathComponent("broken.yml"), atomically: true, encoding: .utf8)
        let bad = try OutsideTools.actionlint.run(["-no-color", "-shellcheck=", ".github/workflows/broken.yml"], in: dir)
        #expect(bad.status != 0 && bad.stdout.contains("shrd"))
    }

    @Test(.needs(OutsideTools.pythonYAML)) func kubernetesJobIsAnIndexedJob() throws {
        let r = try CLIRunner.run(["fleet", "workflow", "--kubernetes", "--image", Self.image, "--shards", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let dir = try TestPaths.temporaryDirectory("fleet-k8s")
        let file = dir.appendingPathComponent("job.yaml")
        try r.stdout.write(to: file, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, yaml
            job = yaml.safe_load(open(sys.argv[1]))
            spec = job["spec"]
            c = spec["template"]["spec"]["containers"][0]
            print(json.dumps({"kind": job["kind"], "api": job["apiVersion"], "mode": spec["completionMode"],
                              "completions": spec["completions"], "parallelism": spec["parallelism"],
                              "args": " ".join(c["args"]), "restart": spec["template"]["spec"]["restartPolicy"]}))
            """
        let parsed = try OutsideTools.pythonYAML.run(["-c", script, file.path])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let job = try CLIRunner.json(parsed.stdout)
        #expect(job["kind"] as? String == "Job" && job["api"] as? String == "batch/v1")
        #expect(job["mode"] as? String == "Indexed" && job["completions"] as? Int == 3 && job["parallelism"] as? Int == 3)
        #expect(job["restart"] as? String == "Never")
        #expect((job["args"] as? String ?? "").contains("--shard \"$JOB_COMPLETION_INDEX/3\""))
    }

    /// docs/examples/ holds exactly what the command writes with its defaults (RECORD_GOLDENS=1 rewrites them).
    @Test func shippedExamplesAreCurrent() throws {
        for (flags, name) in [(["--github", "--citypack-repository", Self.repository], "github-fleet-workflow.yml"),
            (["--kubernetes", "--image", Self.image], "kubernetes-fleet-job.yaml")]
        {
            let r = try CLIRunner.run(["fleet", "workflow"] + flags)
            #expect(r.status == 0, "\(r.stderr)")
            let path = Self.examples.appendingPathComponent(name)
            if RecordMode.isOn(RecordMode.goldens) {
                try r.stdout.write(to: path, atomically: true, encoding: .utf8)
                RecordMode.recorded(name, by: RecordMode.goldens)
                continue
            }
            #expect(try String(contentsOf: path, encoding: .utf8) == r.stdout, "\(name) is stale: RECORD_GOLDENS=1 swift test --filter FleetWorkflowTests")
        }
        #expect(try CLIRunner.run(["fleet", "workflow"]).status == 64)
        #expect(try CLIRunner.run(["fleet", "workflow", "--github", "--kubernetes"]).status == 64)
        // No made-up repository or image (issue 33): both are required, and the message says how to get the URL.
        let noRepository = try CLIRunner.run(["fleet", "workflow", "--github"])
        #expect(noRepository.status == 64 && noRepository.stderr.contains("git remote get-url origin"), "\(noRepository.stderr)")
        #expect(try CLIRunner.run(["fleet", "workflow", "--kubernetes"]).status == 64)
    }
}
