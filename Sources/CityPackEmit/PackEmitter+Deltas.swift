import CityPackFormat
import CityPackModel
import CityPackSupport
import Foundation

/// The deltas of a release (``PackEmitter``): from each kept previous version to the new one.
extension PackEmitter {
    /// Writes into `staging` a delta from each kept previous version (its versioned manifest and pack present and
    /// matching) to the new database, skipping any that is not under ``PackDelta/maxFractionOfPack`` of the
    /// compressed pack. Returns them by `from`, with their staged paths.
    static func stageDeltas(
        cityID: String, cityDirectory: String, staging: String, database: String, target: FileDigest,
        dataVersion: Int, keepVersions: Int, packBytes: Int
    ) throws(EmitError) -> [(delta: Manifest.Delta, staged: String)] {
        let first = max(1, dataVersion - keepVersions)
        guard first < dataVersion else { return [] }
        var targetBytes: [UInt8]?
        var out: [(delta: Manifest.Delta, staged: String)] = []
        for from in first..<dataVersion {
            let manifestPath = (cityDirectory as NSString).appendingPathComponent(
                "\(cityID)-\(from)\(versionedManifestSuffix)")
            guard let old = readManifest(manifestPath), old.dataVersion == from, old.city.id == cityID else { continue }
            let oldPack = (cityDirectory as NSString).appendingPathComponent(old.artifact.path)
            guard !old.artifact.path.contains("/"), let base = try? Gzip.decompress(oldPack, limit: old.artifact.uncompressedBytes),
                FileDigest.sha256(of: base) == old.artifact.uncompressedSha256
            else { continue }
            if targetBytes == nil {
                guard let data = FileManager.default.contents(atPath: database) else {
                    throw .io(path: database, message: "cannot read: \(errnoText())")
                }
                targetBytes = [UInt8](data)
            }
            guard let bytes = try DeltaWriter.delta(base: base, target: targetBytes ?? []),
                Double(bytes.count) < PackDelta.maxFractionOfPack * Double(packBytes)
            else { continue }
            let name = PackDelta.fileName(city: cityID, from: from, to: dataVersion)
            let staged = (staging as NSString).appendingPathComponent(name)
            try OutputFiles.write(Data(bytes), to: staged)
            out.append((
                Manifest.Delta(
                    from: from, to: dataVersion, path: name, bytes: bytes.count, sha256: FileDigest.sha256(of: bytes),
                    baseBytes: base.count, baseSha256: old.artifact.uncompressedSha256, resultBytes: target.bytes,
                    resultSha256: target.sha256),
                staged
            ))
        }
        return out
    }
}
