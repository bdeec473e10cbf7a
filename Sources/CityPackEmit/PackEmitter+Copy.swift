import CityPackFormat
import CityPackSupport
import Foundation

extension PackEmitter {
    /// Folder beside the manifest holding the copy tables (`web/`, `apple/`, `android/`).
    package static let copyFolder = "copy"

    /// Writes the copy tables of `input` into `<staging>/copy/` and returns them as manifest entries (paths
    /// relative to the manifest, sorted); `[]` when the input has no copy.
    static func stageCopy(_ input: PackInput, staging: String) throws(EmitError) -> [Manifest.ArtifactFile] {
        guard let table = input.copy, !table.isEmpty else { return [] }
        let stagedCopy = (staging as NSString).appendingPathComponent(copyFolder)
        var files: [Manifest.ArtifactFile] = []
        for (relative, data) in CopyWriter.render(table) {
            let path = (stagedCopy as NSString).appendingPathComponent(relative)
            do {
                try FileManager.default.createDirectory(
                    atPath: PathText.parent(path), withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: path))
            } catch {
                throw .io(path: path, message: "cannot write: \(error.localizedDescription)")
            }
            files.append(.init(path: "\(copyFolder)/\(relative)", bytes: data.count, sha256: FileDigest.sha256(of: data)))
        }
        return files
    }

    /// Swaps the staged copy folder into `<city>/copy/`: the previous folder is moved into the staging folder
    /// (deleted with it), then the new one renamed in. Called just before the manifest is renamed into place.
    static func commitCopy(staging: String, cityDirectory: String, hasCopy: Bool) throws(EmitError) {
        let copyPath = (cityDirectory as NSString).appendingPathComponent(copyFolder)
        if FileManager.default.fileExists(atPath: copyPath) {
            try rename(copyPath, (staging as NSString).appendingPathComponent("previous-copy"))
        }
        if hasCopy { try rename((staging as NSString).appendingPathComponent(copyFolder), copyPath) }
    }
}
