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
