import ArgumentParser
import CityPackBuild
import Foundation

/// `citypack publish OUTPUT --site DIR`: the folder to upload, with exactly what apps read (``Sites``).
struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Copy what apps read from an output folder into a site folder to upload, and nothing else.",
        discussion: """
            A site holds catalog.json and, for each city it lists, the manifest, the pack, the deltas to it, the web \
            flavour's files and the copy tables: the files the catalog names and those its manifests name. Never the \
            build cache, reports, build statistics or older packs. Each file is checked against the size and SHA-256 \
            its catalog or manifest gives first; a damaged output folder is refused and nothing is written. Data \
            files are written first, the manifests next, catalog.json last, so the site never names a file it \
            lacks; then files neither this catalog nor the one it replaces name are removed (the previous release's \
            stay one more release, for apps that are fetching it). Serve it as docs/HOSTING.md says.
            Exit codes: 0 published, 1 refused (a file damaged or missing), 64 usage, 66 no such output folder or \
            no catalog, 74 I/O failure.
            """)

    @Argument(help: "The output folder of `citypack build` (it holds catalog.json).")
    var output: String

    @Option(name: .long, help: "The site folder to write (created when absent); upload it as it is.")
    var site: String

    @Option(name: .long, help: "human or json.")
    var format: DataFormat = .human

    func run() throws {
        let report: SiteReport
        do {
            report = try Sites.publish(output: output, site: site)
        } catch let refusal as SiteRefusal {
            switch refusal {
            case .missing(let what): throw CLIError.missingInput(what)
            case .overlapping(let what): throw CLIError.usage(what)
            case .damaged: throw CLIError.dataErrors("cannot publish: \(refusal)")
            }
        } catch let error as ReleaseError {
            Terminal.err("\(error.path): error[pack.io_failure]: \(error.message)\n")
            throw ExitCode(ExitCodes.ioFailure)
        }
        switch format {
        case .json:
            Terminal.out(DiagnosticRenderer.encode(report))
        case .human:
            Terminal.out(
                "published \(output) → \(site): \(report.files.count) files, \(report.bytes) bytes; "
                    + "\(report.written.count) written, \(report.removed.count) removed, \(report.kept.count) kept from the previous release\n")
        }
    }
}
