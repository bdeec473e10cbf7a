import CityPackFormat
import CityPackSupport
import Foundation

/// Rebuilds `catalog.json` (``CityPackFormat/Catalog``) from the `*/manifest.json` files of an output folder.
///
/// Each city's entry points at the immutable manifest of its data version (`<city>/<city>-<N>.manifest.json`)
/// when it exists with the same bytes as `manifest.json` (always, for folders written by this version), so a
/// reader holding the catalog can fetch a manifest that matches it even while a newer build replaces
/// `manifest.json`. Several builds (a CI matrix writing one city each, then copying the city folders together)
/// merge by running `citypack catalog` on the combined folder.
package enum CatalogWriter {
    /// Rebuilds and atomically replaces the folder's catalog under the folder's ``OutputLock``, leaving the file
    /// untouched when its bytes would not change. Returns the catalog's path.
    /// - Parameters:
    ///   - outputDirectory: The output root.
    ///   - signingKey: Signs the catalog when set (an earlier valid signature over the same content is kept).
    /// - Throws: ``EmitError/io(path:message:)`` located at the failing path.
    @discardableResult
    package static func write(outputDirectory: String, signingKey: SigningKey? = nil) throws(EmitError) -> String {
        try OutputLock.withLock(outputDirectory: outputDirectory) { () throws(EmitError) -> String in
            PackEmitter.removeDebris(outputDirectory: outputDirectory)
            removeUnreferencedVersions(outputDirectory: outputDirectory)
            let target = (outputDirectory as NSString).appendingPathComponent(PackSchema.catalogName)
            let previous = FileManager.default.contents(atPath: target)
            let bytes = try PackEmitter.encodeSigned(
                catalog(outputDirectory: outputDirectory), key: signingKey, previousBytes: previous)
            if bytes != previous { try OutputFiles.writeAtomically(bytes, to: target) }
            return target
        }
    }

    /// Whether `catalog.json` lists city `cityID` exactly as a rebuild of the catalog would (the same entry, and a
    /// catalog time not older than the city's): then another city's release changed the file but not what it says
    /// of this city, and this city's unchanged rebuild need not touch it. Reads this city's manifest only.
    package static func listsCurrently(outputDirectory: String, cityID: String) -> Bool {
        let path = (outputDirectory as NSString).appendingPathComponent(PackSchema.catalogName)
        guard let data = FileManager.default.contents(atPath: path),
            let onDisk = try? JSONDecoder().decode(Catalog.self, from: data),
            let listed = onDisk.packs.first(where: { $0.id == cityID }),
            let expected = catalog(outputDirectory: outputDirectory, only: cityID).packs.first
        else { return false }
        return listed == expected && (onDisk.updatedAt ?? "") >= (expected.updatedAt ?? "")
    }

    /// Removes, in every city folder with a readable `manifest.json`, the versioned files newer than it (left by
    /// a build killed before it replaced `manifest.json`; nothing references them).
    static func removeUnreferencedVersions(outputDirectory: String) {
        for child in (try? FileManager.default.contentsOfDirectory(atPath: outputDirectory)) ?? [] where !child.hasPrefix(".") {
            let cityDir = (outputDirectory as NSString).appendingPathComponent(child)
            guard let current = PackEmitter.readManifest((cityDir as NSString).appendingPathComponent(PackSchema.manifestName))
            else { continue }
            PackEmitter.removeVersions(in: cityDir, cityID: current.city.id) { $0 > current.dataVersion }
        }
    }

    /// The catalog of the manifests in `outputDirectory`, with one city's manifest replaced by a new one that is
    /// about to be committed (its versioned manifest file then need not exist yet).
    /// - Parameters:
    ///   - outputDirectory: The output root; hidden entries (`.staging-*`, `.lock`) are skipped.
    ///   - replacing: City id, manifest and its bytes, taking the place of that city's `manifest.json`.
    ///   - stagedPatches: Manifest patch names of the replacing city not committed yet, with their staged paths.
    ///   - only: The one city folder to read (``listsCurrently(outputDirectory:cityID:)``); nil: all of them.
    package static func catalog(
        outputDirectory: String, replacing: (String, Manifest, Data)? = nil, stagedPatches: [String: String] = [:],
        only: String? = nil
    ) -> Catalog {
        let fm = FileManager.default
        var entries: [Catalog.Entry] = []
        var uncompressed: [String: Int] = [:]
        var manifestSizes: [String: Int] = [:]
        var deltas: [String: [Manifest.Delta]] = [:]
        var patches: [String: [Catalog.PatchFile]] = [:]
        var children = Set((try? fm.contentsOfDirectory(atPath: outputDirectory)) ?? []).filter { !$0.hasPrefix(".") }
        if let replacing { children.insert(replacing.0) }
        if let only { children = children.filter { $0 == only } }
        for child in children.sorted() {
            let manifest: Manifest
            let bytes: Data
            var manifestPath = "\(child)/\(PackSchema.manifestName)"
            if let replacing, replacing.0 == child {
                (manifest, bytes) = (replacing.1, replacing.2)
                manifestPath = "\(child)/\(child)-\(manifest.dataVersion)\(PackEmitter.versionedManifestSuffix)"
            } else {
                let path = (outputDirectory as NSString).appendingPathComponent(manifestPath)
                guard let data = fm.contents(atPath: path), let decoded = try? JSONDecoder().decode(Manifest.self, from: data)
                else { continue }
                (manifest, bytes) = (decoded, data)
                let versioned = "\(child)/\(child)-\(manifest.dataVersion)\(PackEmitter.versionedManifestSuffix)"
                if fm.contents(atPath: (outputDirectory as NSString).appendingPathComponent(versioned)) == data {
                    manifestPath = versioned
                }
            }
            let found = PackEmitter.manifestPatchFiles(
                manifest: manifest, manifestBytes: bytes,
                cityDirectory: (outputDirectory as NSString).appendingPathComponent(child), folder: child,
                staged: replacing?.0 == child ? stagedPatches : [:])
            if !found.isEmpty { patches[manifest.city.id] = found }
            uncompressed[manifest.city.id] = manifest.artifact.uncompressedBytes
            manifestSizes[manifest.city.id] = bytes.count
            if let list = manifest.deltas, !list.isEmpty {
                deltas[manifest.city.id] = list.map { delta in
                    var entry = delta
                    entry.path = "\(child)/\(delta.path)"
                    return entry
                }
            }
            entries.append(
                Catalog.Entry(
                    id: manifest.city.id, name: manifest.city.name, formatVersion: manifest.formatVersion,
                    minReaderVersion: manifest.minReaderVersion, dataVersion: manifest.dataVersion,
                    createdAt: manifest.createdAt, updatedAt: manifest.updatedAt ?? manifest.createdAt,
                    manifest: manifestPath, manifestSha256: FileDigest.sha256(of: bytes),
                    path: "\(child)/\(manifest.artifact.path)", bytes: manifest.artifact.bytes,
                    sha256: manifest.artifact.sha256, etag: manifest.etag, bbox: manifest.bbox,
                    pois: manifest.counts.pois, locales: manifest.locales ?? manifest.city.locales,
                    keyId: manifest.keyId))
        }
        for i in entries.indices {
            entries[i].manifestBytes = manifestSizes[entries[i].id]
            entries[i].uncompressedBytes = uncompressed[entries[i].id]
            entries[i].deltas = deltas[entries[i].id]
            entries[i].manifestPatches = patches[entries[i].id]
        }
        entries.sort { $0.id < $1.id }
        return Catalog(
            formatVersion: 1, updatedAt: entries.compactMap(\.updatedAt).max(), packs: entries)
    }
}
