import CityPackFormat
import Foundation

/// `catalog.json`: the summary of every pack in an output folder — what apps list and poll for updates.
public struct Catalog: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        public var id: String
        public var name: String
        public var formatVersion: Int
        public var dataVersion: Int
        public var createdAt: String
        /// Manifest path relative to the catalog.
        public var manifest: String
        /// Pack path relative to the catalog.
        public var path: String
        public var bytes: Int
        public var sha256: String
        public var etag: String
        public var bbox: [Double]
        public var pois: Int
        public var locales: [String]
    }

    public var formatVersion: Int
    public var packs: [Entry]
}

/// Rebuilds `catalog.json` from the `*/manifest.json` files of an output folder.
public enum CatalogWriter {
    /// Scans `outputDirectory` and atomically replaces its catalog. Returns the catalog's path.
    @discardableResult
    public static func write(outputDirectory: String) throws(EmitError) -> String {
        let fm = FileManager.default
        var entries: [Catalog.Entry] = []
        let children = (try? fm.contentsOfDirectory(atPath: outputDirectory)) ?? []
        for child in children.sorted() {
            let path = (outputDirectory as NSString).appendingPathComponent("\(child)/\(PackSchema.manifestName)")
            guard let manifest = PackEmitter.readManifest(path) else { continue }
            entries.append(
                Catalog.Entry(
                    id: manifest.city.id, name: manifest.city.name, formatVersion: manifest.formatVersion,
                    dataVersion: manifest.dataVersion, createdAt: manifest.createdAt,
                    manifest: "\(child)/\(PackSchema.manifestName)", path: "\(child)/\(manifest.artifact.path)",
                    bytes: manifest.artifact.bytes, sha256: manifest.artifact.sha256, etag: manifest.etag,
                    bbox: manifest.bbox, pois: manifest.counts.pois, locales: manifest.city.locales))
        }
        let catalog = Catalog(formatVersion: Int(PackSchema.formatVersion), packs: entries.sorted { $0.id < $1.id })
        let target = (outputDirectory as NSString).appendingPathComponent(PackSchema.catalogName)
        let temporary = target + ".tmp-\(getpid())"
        try PackEmitter.writeJSON(catalog, to: temporary)
        do { try PackEmitter.rename(temporary, target) } catch {
            try? fm.removeItem(atPath: temporary)
            throw error
        }
        return target
    }
}
