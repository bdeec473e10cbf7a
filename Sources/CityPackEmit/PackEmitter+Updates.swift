import CityPackFormat
import CityPackSupport
import Foundation

/// What makes a download cheap: the web bundle (a first download in one request) and the manifest patches (an
/// update fetches what changed in the manifest, not the whole file list again). See `docs/RELEASES.md`.
extension PackEmitter {
    /// Writes into `staging` the web bundle of `parts` (staged there): their files concatenated in
    /// ``Manifest/Web/bundleMembers`` order, named by its SHA-256. Returns its manifest entry and staged path, or nil
    /// when there are no parts.
    static func stageWebBundle(parts: [Manifest.WebPart], staging: String) throws(EmitError) -> (file: Manifest.ArtifactFile, staged: String)? {
        let members = Manifest.Web(format: WebFlavour.formatVersion, parts: parts, strings: [:]).bundleMembers
        guard !members.isEmpty else { return nil }
        let temporary = (staging as NSString).appendingPathComponent("\(WebFlavour.folder)/bundle.partial")
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let out = FileHandle(forWritingAtPath: temporary) else {
            throw .io(path: temporary, message: "cannot create: \(errnoText())")
        }
        do {
            defer { try? out.close() }
            for member in members {
                let path = (staging as NSString).appendingPathComponent(member.path)
                guard let data = FileManager.default.contents(atPath: path), data.count == member.bytes else {
                    throw EmitError.io(path: path, message: "web file missing or of another size while bundling")
                }
                do { try out.write(contentsOf: data) } catch { throw EmitError.io(path: temporary, message: "cannot write: \(error)") }
            }
        } catch let error as EmitError {
            throw error
        } catch {
            throw .io(path: temporary, message: "\(error)")
        }
        let digest = try OutputFiles.digest(temporary)
        let path = "\(WebFlavour.folder)/bundle-\(digest.sha256.prefix(16)).gz"
        let staged = (staging as NSString).appendingPathComponent(path)
        try OutputFiles.rename(temporary, staged)
        return (Manifest.ArtifactFile(path: path, bytes: digest.bytes, sha256: digest.sha256), staged)
    }

    /// Writes into `staging` a manifest patch from the versioned manifest of each of `froms` (when kept) to
    /// `manifestBytes`, skipping one not under ``ManifestPatch/maxFractionOfManifest`` of the manifest. Returns
    /// the file names with their staged paths.
    static func stageManifestPatches(
        cityID: String, cityDirectory: String, staging: String, dataVersion: Int, froms: [Int], manifestBytes: Data
    ) throws(EmitError) -> [(name: String, staged: String)] {
        let result = [UInt8](manifestBytes)
        var out: [(name: String, staged: String)] = []
        for from in froms.sorted() where from < dataVersion {
            let basePath = (cityDirectory as NSString).appendingPathComponent("\(cityID)-\(from)\(versionedManifestSuffix)")
            guard let baseData = FileManager.default.contents(atPath: basePath) else { continue }
            let base = [UInt8](baseData)
            let patch = ManifestPatch(
                city: cityID, from: from, to: dataVersion,
                base: .init(bytes: base.count), result: .init(bytes: result.count),
                edits: ManifestPatch.edits(base: base, result: result))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let bytes = try? encoder.encode(patch) else { continue }
            guard Double(bytes.count) < ManifestPatch.maxFractionOfManifest * Double(result.count) else { continue }
            // What a reader will do with it, checked here: a patch that does not give the manifest back is a bug.
            guard (try? patch.apply(to: base, expected: FileDigest.sha256(of: result), sha256: { FileDigest.sha256(of: $0) })) == result else {
                throw .io(path: basePath, message: "internal error: the manifest patch from version \(from) does not reproduce version \(dataVersion)")
            }
            let name = ManifestPatch.fileName(city: cityID, from: from, to: dataVersion)
            let staged = (staging as NSString).appendingPathComponent(name)
            try OutputFiles.write(bytes, to: staged)
            out.append((name, staged))
        }
        return out
    }

    /// The patch files to `manifest` (its bytes: `manifestBytes`) in `cityDirectory` (and `staged`: names not
    /// committed yet, with their staged paths) that give these bytes from the kept manifest they start from, as
    /// catalog entries with paths prefixed by `folder`, by `from`.
    static func manifestPatchFiles(
        manifest: Manifest, manifestBytes: Data, cityDirectory: String, folder: String, staged: [String: String] = [:]
    ) -> [Catalog.PatchFile] {
        let expected = FileDigest.sha256(of: manifestBytes)
        let city = manifest.city.id
        var names = Set(staged.keys)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cityDirectory)) ?? [] { names.insert(name) }
        var out: [Catalog.PatchFile] = []
        for name in names {
            guard let versions = ManifestPatch.versions(fileName: name, city: city), versions.to == manifest.dataVersion else { continue }
            let path = staged[name] ?? (cityDirectory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path), data.count <= ManifestPatch.maxBytes,
                let patch = try? JSONDecoder().decode(ManifestPatch.self, from: data),
                patch.to == versions.to, patch.from == versions.from, patch.city == city,
                let base = FileManager.default.contents(
                    atPath: (cityDirectory as NSString).appendingPathComponent("\(city)-\(versions.from)\(versionedManifestSuffix)")),
                (try? patch.apply(to: [UInt8](base), expected: expected, sha256: { FileDigest.sha256(of: $0) })) != nil
            else { continue }
            out.append(.init(from: versions.from, to: versions.to, path: "\(folder)/\(name)", bytes: data.count, sha256: FileDigest.sha256(of: data)))
        }
        return out.sorted { $0.from < $1.from }
    }
}
