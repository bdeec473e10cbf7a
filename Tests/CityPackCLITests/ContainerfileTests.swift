import CityPackTestSupport
import Foundation
import Testing

/// The fleet's container image (Containerfile): hadolint finds nothing in it (and does find problems in a bad
/// one), it is built with the project's install script on Debian, its runtime stage installs a package for every
/// library the binary links, and the workflows `citypack fleet workflow` writes name it. No registry is
/// reachable here, so the image itself is not built by the tests.
@Suite struct ContainerfileTests {
    static let containerfile = TestPaths.root.appendingPathComponent("Containerfile")

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: TestPaths.root.appendingPathComponent(relative), encoding: .utf8)
    }

    @Test(.needs(OutsideTools.hadolint)) func containerfilePassesHadolint() throws {
        let lint = try OutsideTools.hadolint.run(["--no-color", Self.containerfile.path])
        #expect(lint.status == 0 && lint.stdout.isEmpty, "hadolint: \(lint.stdout)\(lint.stderr)")
        // hadolint does find problems: an untagged base image and an apt-get that keeps its lists.
        let dir = try TestPaths.temporaryDirectory("containerfile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("Containerfile")
        try "FROM debian\nRUN apt-get update && apt-get install -y curl\n".write(to: bad, atomically: true, encoding: .utf8)
        let found = try OutsideTools.hadolint.run(["--no-color", bad.path])
        #expect(found.status != 0, "\(found.stdout)")
        #expect(found.stdout.contains("DL3006") && found.stdout.contains("DL3015"), "\(found.stdout)")
    }

    /// Both stages use scripts/install-deps.sh on Debian 12 images; the runtime stage runs as a user of its own.
    @Test func imageIsBuiltWithTheInstallScriptOnDebian() throws {
        let text = try Self.text("Containerfile")
        let froms = text.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        #expect(froms.count == 2 && froms.allSatisfy { $0.contains("bookworm") }, "\(froms)")
        #expect(text.contains("RUN scripts/install-deps.sh &&"))
        #expect(text.contains("install-deps.sh --runtime"))
        #expect(text.contains("swift build -c release --product citypack"))
        #expect(text.contains("USER citypack"))
        let ignore = try Self.text(".dockerignore")
        #expect(ignore.contains(".build*") && ignore.contains(".git"))
    }

    /// The packages `install-deps.sh --runtime` installs.
    static func runtimePackages() throws -> Set<String> {
        let script = try text("scripts/install-deps.sh")
        let line = try #require(
            script.split(separator: "\n").first { $0.contains("packages=(libxml2 ") }, "install-deps.sh lists the runtime packages")
        let inside = line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        return Set(inside.split(separator: " ").map(String.init).filter { !$0.hasPrefix("$") })
    }

    /// Every library the built binary names (apart from the Swift runtime, which the image links statically)
    /// comes from a package the runtime stage installs, or from Debian's base (libc, libgcc, libstdc++); the
    /// Swift runtime's networking (FoundationNetworking) needs libcurl.
    @Test(.needs(OutsideTools.readelf)) func runtimePackagesCoverTheLinkedLibraries() throws {
        let packages = try Self.runtimePackages()
        let binary = CLIRunner.binary.path
        let real = FileManager.default.fileExists(atPath: binary + ".real") ? binary + ".real" : binary
        let elf = try OutsideTools.readelf.run(["-d", real])
        try #require(elf.status == 0, "\(elf.stderr)")
        let needed = elf.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libsqlite3.so.0") && needed.contains("libxml2.so.2"), "\(needed)")
        let swiftRuntime = needed.filter { $0.hasPrefix("libswift") || $0.hasPrefix("libFoundation") || $0 == "libdispatch.so" || $0 == "libBlocksRuntime.so" }
        if swiftRuntime.contains("libFoundationNetworking.so") { #expect(packages.contains("libcurl4")) }
        let base: Set<String> = ["libc6", "libgcc-s1", "libstdc++6"]
        for library in needed where !swiftRuntime.contains(library) {
            let owner = Process()
            owner.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg")
            owner.arguments = ["-S", library]
            let pipe = Pipe()
            owner.standardOutput = pipe
            owner.standardError = FileHandle.nullDevice
            try owner.run()
            let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            owner.waitUntilExit()
            let package = out.split(separator: "\n").first { $0.hasSuffix("/\(library)") }?
                .split(separator: ":").first.map(String.init)
            let name = try #require(package, "no Debian package holds \(library)")
            #expect(packages.contains(name) || base.contains(name), "\(library) is in \(name), which install-deps.sh --runtime does not install")
        }
    }

    /// The Kubernetes Job and the GitHub workflow run the image built from the Containerfile.
    @Test func fleetWorkflowsNameTheImage() throws {
        let job = try Self.text("docs/examples/kubernetes-fleet-job.yaml")
        #expect(job.contains("docker build -f Containerfile"))
        #expect(job.contains("fsGroup: 1000"), "the image runs as user 1000")
        let workflow = try Self.text("docs/examples/github-fleet-workflow.yml")
        #expect(workflow.contains("file: Containerfile"))
        #expect(workflow.contains("image: ${{ needs.image.outputs.image }}"))
        #expect(!workflow.contains("apt-get install"), "the jobs run in the image instead of installing citypack")
    }
}
