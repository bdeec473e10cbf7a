import ArgumentParser
import CityPackBuild
import CityPackFormat
import Foundation

/// `citypack catalog <outputs>`: rebuild `catalog.json` from every manifest in an output folder.
struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Rebuild <outputs>/catalog.json from the manifests beside it and print it.",
        discussion: """
            Merges the city folders of several builds (e.g. a CI matrix that builds one city per job): copy the \
            city folders into one outputs folder, then run `citypack catalog`. Holds the folder's lock, so it never \
            interleaves with a build writing there. \
            `--merge DIR… --output OUT` joins the output folders of a sharded fleet build (`citypack build --fleet F \
            --shard i/n`, one folder per shard) into OUT with one catalog: the same bytes as a one-machine build. A \
            shard folder without a catalog (its build did not finish) or two different packs of one city version \
            are refused and nothing is written.
            Exit codes: 0 written, 1 merge refused, 64 usage, 66 no such folder or key, 74 I/O failure.
            """)

    @Argument(help: "Output folder (default: outputs).")
    var outputs: String?

    @Option(name: .long, parsing: .upToNextOption, help: "Shard output folders to merge into --output.")
    var merge: [String] = []

    @Option(name: [.short, .long], help: "The folder --merge writes (required with --merge).")
    var output: String?

    @Option(name: .long, help: "Ed25519 private key (from `citypack keygen`) that signs the catalog.")
    var signKey: String?

    func validate() throws {
        if !merge.isEmpty && output == nil { throw ValidationError("--merge needs --output OUT") }
        if !merge.isEmpty && outputs != nil { throw ValidationError("give the folder to write as --output, not as an argument, with --merge") }
        if merge.isEmpty && output != nil { throw ValidationError("--output is for --merge; name the folder to rebuild as the argument") }
    }

    func run() throws {
        if !merge.isEmpty, let output {
            let key = try signKey.map { try KeyLoader.load($0) }
            do {
                let path = try Catalogs.merge(merge, into: output, signingKey: key)
                Terminal.out(try String(contentsOfFile: path, encoding: .utf8))
            } catch let refusal as CatalogRefusal {
                if case .missingFolder = refusal { throw CLIError.missingInput("cannot merge: \(refusal)") }
                throw CLIError.dataErrors("cannot merge: \(refusal)")
            } catch let error as ReleaseError {
                Terminal.err("\(error.path): error[pack.io_failure]: \(error.message)\n")
                throw ExitCode(ExitCodes.ioFailure)
            }
            return
        }
        let outputs = self.outputs ?? "outputs"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: outputs, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.missingInput("no such folder: \(outputs)")
        }
        let key = try signKey.map { try KeyLoader.load($0) }
        let target = (outputs as NSString).appendingPathComponent("catalog.json")
        let wasSigned = FileManager.default.contents(atPath: target).map { String(decoding: $0, as: UTF8.self) }?
            .contains("\"signature\"") ?? false
        do {
            let path = try Catalogs.write(outputDirectory: outputs, signingKey: key)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if wasSigned && key == nil && !text.contains("\"signature\"") {
                Terminal.err("\(path): warning: the catalog was signed; its content changed and it is now unsigned (pass --sign-key)\n")
            }
            Terminal.out(text)
        } catch let error as ReleaseError {
            Terminal.err("\(error.path): error[pack.io_failure]: \(error.message)\n")
            throw ExitCode(ExitCodes.ioFailure)
        }
    }
}

/// Loads a `--sign-key` file, mapping failures to exit codes with a located message.
enum KeyLoader {
    static func load(_ path: String) throws -> ReleaseKey {
        do {
            return try ReleaseKey.load(path: path)
        } catch {
            Terminal.err("\(path): error: \(error)\n")
            switch error {
            case .missing: throw ExitCode(ExitCodes.missingInput)
            case .unreadable: throw ExitCode(ExitCodes.ioFailure)
            case .malformed: throw ExitCode(ExitCodes.usage)
            }
        }
    }
}
