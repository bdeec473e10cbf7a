import ArgumentParser
import CityPackBuild
import CityPackFormat
import CityPackKit
import CityPackSupport
import Foundation

/// `citypack verify <manifest|catalog>`: the checks an app makes before it installs a pack.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a manifest (or a catalog and every manifest it lists) as CityPackKit does before opening.",
        discussion: """
            For a manifest: its Ed25519 signature against --public-key (required when a key is given), the data \
            version against the installed one (--installed CITY=N, or --installed-version N for one manifest; older = \
            rollback), the pack's size and SHA-256 (compressed and \
            decompressed), and the pack's city, data version and format version against the manifest. \
            Then every other file the manifest lists: copy files and web parts (size, SHA-256; web parts also their \
            gunzip'd size and JSON), and deltas (size, SHA-256, and, when the base version's pack is still there, \
            applied to it in a temporary folder they must give this release's database). \
            For a catalog: its signature, then each entry against the manifest it names and that manifest as above.
            Exit codes: 0 everything matches, 1 something does not, 64 usage, 66 missing file, 74 I/O failure.
            """)

    @Argument(help: "A manifest.json, a folder holding one, or a catalog.json.")
    var path: String

    @Option(name: .long, help: "Trusted Ed25519 public key file (PATH.pub from `citypack keygen`); repeatable.")
    var publicKey: [String] = []

    @Option(name: .long, help: "Data version installed on the device, for a single manifest: an older one is refused as a rollback.")
    var installedVersion: Int?

    @Option(name: .long, help: "CITY=N: data version N of CITY is installed (repeatable): an older manifest of that city is refused as a rollback.")
    var installed: [String] = []

    /// `--installed` as city id → data version.
    var installedVersions: [String: Int] {
        var out: [String: Int] = [:]
        for item in installed {
            let parts = item.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let n = Int(parts[1]) { out[String(parts[0])] = n }
        }
        return out
    }

    func validate() throws {
        for item in installed {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, let n = Int(parts[1]), n >= 0 else {
                throw ValidationError("--installed \(item): expected CITY=N, e.g. monaco=2")
            }
        }
        if installedVersion != nil && !installed.isEmpty {
            throw ValidationError("give --installed-version (one manifest) or --installed CITY=N, not both")
        }
    }

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    typealias Check = ReleaseCheck.Check

    func run() throws {
        var target = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else {
            throw CLIError.missingInput("no such manifest or catalog: \(path)")
        }
        if isDirectory.boolValue { target = (target as NSString).appendingPathComponent(PackSchema.manifestName) }
        var keys: [Data] = []
        for file in publicKey {
            do { keys.append(try PackTrust.publicKey(fromFile: URL(fileURLWithPath: file))) } catch {
                Terminal.err("\(file): error: \(error)\n")
                throw ExitCode(error == .fileNotFound(path: file) ? ExitCodes.missingInput : ExitCodes.usage)
            }
        }
        guard let data = FileManager.default.contents(atPath: target) else {
            Terminal.err("\(target): error: cannot read\n")
            throw ExitCode(FileManager.default.fileExists(atPath: target) ? ExitCodes.ioFailure : ExitCodes.missingInput)
        }
        let checks: [Check]
        if ReleaseCheck.isCatalog(data) {
            if installedVersion != nil {
                // One version for every city would call each older city a rollback.
                throw CLIError.usage(
                    "--installed-version applies to one manifest; for a catalog give each city's version: --installed CITY=N")
            }
            checks = ReleaseCheck.checkCatalog(data, path: target, trust: .init(publicKeys: keys, installedVersions: installedVersions))
        } else {
            checks = ReleaseCheck.checkManifest(
                data, path: target, trust: .init(publicKeys: keys, installedVersion: installedVersion, installedVersions: installedVersions),
                catalogEntry: nil)
        }
        switch format {
        case .json:
            struct Output: Encodable {
                var ok: Bool
                var checks: [Check]
            }
            Terminal.out(DiagnosticRenderer.encode(Output(ok: checks.allSatisfy(\.ok), checks: checks)))
        case .human:
            for check in checks {
                if check.ok {
                    Terminal.out("ok: \(check.path): \(check.message)\n")
                } else {
                    Terminal.err("\(check.path): error: \(check.message)\n")
                }
            }
        }
        if checks.contains(where: { !$0.ok }) {
            if checks.contains(where: { !$0.ok && $0.message.hasPrefix("no such file") }) && checks.count == 1 {
                throw ExitCode(ExitCodes.missingInput)
            }
            throw ExitCode(ExitCodes.dataErrors)
        }
    }
}
