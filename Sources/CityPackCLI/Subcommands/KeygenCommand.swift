import ArgumentParser
import CityPackBuild
import Foundation

/// `citypack keygen --output PATH`: a new Ed25519 signing key pair.
struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create an Ed25519 key pair: the private key at PATH (mode 0600), the public key at PATH.pub.",
        discussion: """
            Both files hold one line of base64 of the 32 raw key bytes. Sign releases with \
            `citypack build --sign-key PATH`; ship PATH.pub in the app (CityPackKit `PackTrust`) and verify with \
            `citypack verify --public-key PATH.pub`. Existing files are kept unless --force is given.
            Exit codes: 0 written, 64 usage, 74 I/O failure (or a file exists).
            """)

    @Option(name: [.short, .long], help: "Path of the private key; the public key goes to PATH.pub.")
    var output: String

    @Flag(name: .long, help: "Replace existing key files.")
    var force = false

    func run() throws {
        let key = ReleaseKey.generate()
        do {
            try key.write(to: output, overwrite: force)
        } catch {
            Terminal.err("\(error.path): error[pack.io_failure]: \(error.message)\n")
            throw ExitCode(ExitCodes.ioFailure)
        }
        Terminal.out("key \(key.keyID): private \(output), public \(output).pub\n")
    }
}
