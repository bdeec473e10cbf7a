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

    struct Check: Encodable {
        var path: String
        var ok: Bool
        var message: String
    }

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
        var checks: [Check] = []
        if case .object(let members)? = try? JSONValue.parse(data), members["packs"] != nil {
            if installedVersion != nil {
                // One version for every city would call each older city a rollback.
                throw CLIError.usage(
                    "--installed-version applies to one manifest; for a catalog give each city's version: --installed CITY=N")
            }
            checks = verifyCatalog(data, path: target, keys: keys)
        } else {
            checks = verifyManifest(data, path: target, keys: keys, catalogEntry: nil)
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

    func verifyCatalog(_ data: Data, path: String, keys: [Data]) -> [Check] {
        var checks: [Check] = []
        let catalog: CityPackFormat.Catalog
        do {
            catalog = try PackVerifier.verifyCatalog(data, path: path, publicKeys: keys)
            checks.append(Check(path: path, ok: true, message: signatureNote(data, keys: keys) + ", \(catalog.packs.count) packs"))
        } catch {
            return [Check(path: path, ok: false, message: "\(error)")]
        }
        let base = PathText.parent(path)
        for entry in catalog.packs {
            let manifestPath = (base as NSString).appendingPathComponent(entry.manifest)
            guard let bytes = FileManager.default.contents(atPath: manifestPath) else {
                checks.append(Check(path: manifestPath, ok: false, message: "no such file (listed for \(entry.id) in the catalog)"))
                continue
            }
            checks += verifyManifest(bytes, path: manifestPath, keys: keys, catalogEntry: entry)
        }
        return checks
    }

    func verifyManifest(_ data: Data, path: String, keys: [Data], catalogEntry: CityPackFormat.Catalog.Entry?) -> [Check] {
        // The installed version of this manifest's city: --installed-version, or its --installed CITY=N.
        let city = catalogEntry?.id ?? (try? JSONDecoder().decode(Manifest.self, from: data))?.city.id
        let trust = PackTrust(publicKeys: keys, installedDataVersion: installedVersion ?? city.flatMap { installedVersions[$0] })
        let manifest: Manifest
        do {
            manifest = try PackVerifier.verifyRelease(data, path: path, trust: trust, catalogEntry: catalogEntry)
        } catch {
            return [Check(path: path, ok: false, message: "\(error)")]
        }
        var checks = [
            Check(
                path: path, ok: true,
                message: "\(manifest.city.id) data version \(manifest.dataVersion): \(signatureNote(data, keys: keys)), "
                    + "pack \(manifest.artifact.path) (\(manifest.artifact.bytes) bytes) matches")
        ]
        // The other files the manifest lists: copy tables, web parts, deltas.
        let directory = PathText.parent(path)
        for member in PackVerifier.checkMemberFiles(of: manifest, folder: URL(fileURLWithPath: directory)) {
            let memberPath = (directory as NSString).appendingPathComponent(member.path)
            checks.append(Check(
                path: memberPath, ok: member.problem == nil,
                message: "\(member.kind): " + (member.problem ?? "\(member.detail) matches")))
        }
        return checks
    }

    func signatureNote(_ data: Data, keys: [Data]) -> String {
        guard let embedded = (try? DocumentSignature.embedded(in: data)) ?? nil else { return "unsigned" }
        let keyID = embedded.keyID ?? "?"
        if keys.isEmpty { return "signed by key \(keyID) (not checked: no --public-key)" }
        return "signature by key \(keyID) verified"
    }
}
