import CityPackFormat
import Foundation

/// "Update available" from one catalog request.
extension Catalog {
    /// The entries an app should offer as updates: cities it has installed whose catalog data version is greater
    /// than the installed one and that this reader can open (`minReaderVersion` not newer than
    /// ``CityPackFormat/PackSchema/formatVersion``). An equal or older catalog version is never an update (a
    /// stale mirror must not downgrade anything).
    /// - Parameter installed: Installed data version per city id.
    /// - Returns: Entries sorted by city id.
    public func updates(installed: [String: Int]) -> [Entry] {
        packs.filter { entry in
            guard let have = installed[entry.id] else { return false }
            return entry.dataVersion > have && (entry.minReaderVersion ?? entry.formatVersion) <= Int(PackSchema.formatVersion)
        }
    }

    /// Entries this reader can open, for the "download a city" list.
    public var readable: [Entry] {
        packs.filter { ($0.minReaderVersion ?? $0.formatVersion) <= Int(PackSchema.formatVersion) }
    }
}

/// What an app downloads to bring one installed city up to date: a delta or the full pack, with the bytes known
/// before it starts (the "update available (size)" state).
public struct UpdateDownload: Sendable, Equatable {
    /// The catalog entry of the new version.
    public var entry: Catalog.Entry
    /// The delta to apply to the installed version (``PackInstaller/applyDelta(installedPack:delta:expected:maxBytes:)``),
    /// or nil: download the full pack at ``path``.
    package var delta: Manifest.Delta?
    /// Path of the file to fetch, relative to the catalog.
    public var path: String
    /// Bytes to download.
    public var bytes: Int
    /// SHA-256 of the file to download, lowercase hex.
    public var sha256: String
    /// The patch that turns the installed version's manifest into the new one (fetched instead of the manifest),
    /// or nil: fetch the manifest.
    package var manifestPatch: Catalog.PatchFile? = nil
}

extension Catalog {
    /// The cheapest download that brings `city` from `installedVersion` to the catalog's version: the delta from
    /// exactly that version when the catalog lists one smaller than the pack, else the full pack; and the manifest
    /// patch from that version when the catalog lists one (``UpdateDownload/manifestPatch``). Nil when the
    /// catalog has no readable newer version (as ``updates(installed:)``). With `installedVersion` nil (nothing
    /// installed) the full pack.
    public func download(city: String, installedVersion: Int?) -> UpdateDownload? {
        guard let entry = readable.first(where: { $0.id == city }) else { return nil }
        if let installedVersion, entry.dataVersion <= installedVersion { return nil }
        let patch = installedVersion.flatMap { from in
            (entry.manifestPatches ?? []).first { $0.from == from && $0.to == entry.dataVersion && $0.bytes < (entry.manifestBytes ?? Int.max) }
        }
        if let installedVersion,
            let delta = (entry.deltas ?? []).first(where: { $0.from == installedVersion && $0.to == entry.dataVersion }),
            delta.bytes < entry.bytes
        {
            return UpdateDownload(entry: entry, delta: delta, path: delta.path, bytes: delta.bytes, sha256: delta.sha256, manifestPatch: patch)
        }
        return UpdateDownload(entry: entry, delta: nil, path: entry.path, bytes: entry.bytes, sha256: entry.sha256, manifestPatch: patch)
    }
}
