import ArgumentParser
import CityPackEmit
import Foundation

/// `citypack catalog <outputs>`: rebuild `catalog.json` from every manifest in an output folder.
struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild <outputs>/catalog.json from the manifests beside it and print it.")

    @Argument(help: "Output folder (default: outputs).")
    var outputs: String = "outputs"

    func run() throws {
        guard FileManager.default.fileExists(atPath: outputs) else {
            Terminal.err("citypack: error: no such folder: \(outputs)\n")
            throw ExitCode(ExitCodes.missingInput)
        }
        do {
            let path = try CatalogWriter.write(outputDirectory: outputs)
            Terminal.out(try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            Terminal.err("citypack: error: \(error)\n")
            throw ExitCode(ExitCodes.ioFailure)
        }
    }
}
