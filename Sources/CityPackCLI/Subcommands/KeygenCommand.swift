import ArgumentParser
import CityPackBuild
import Foundation

/// `citypack keygen --output PATH`: a new Ed25519 signing key pair.
struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
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
        if let workTree = Self.unignoredWorkTree(for: output) {
            Terminal.err(
                "\(output): warning: the private key is inside the git work tree \(workTree) and git does not ignore it; "
                    + "add it to .gitignore (or keep keys outside the repository) so that `git add` cannot commit it\n")
        }
    }

    /// The git work tree holding `path` when git would not ignore the file there (so `git add .` commits it);
    /// nil outside a work tree, when git ignores it, or when git cannot be asked (then nothing is claimed).
    static func unignoredWorkTree(for path: String) -> String? {
        let file = URL(fileURLWithPath: path).standardizedFileURL
        var folder = file.deletingLastPathComponent()
        var workTree: URL?
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) {
                workTree = folder
                break
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        guard let workTree else { return nil }
        let git = ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let git else { return workTree.path }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: git)
        p.arguments = ["-C", workTree.path, "check-ignore", "-q", file.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return workTree.path }
        p.waitUntilExit()
        // check-ignore: 0 ignored, 1 not ignored, 128 an error (then say nothing rather than guess).
        return p.terminationStatus == 1 ? workTree.path : nil
    }
}
