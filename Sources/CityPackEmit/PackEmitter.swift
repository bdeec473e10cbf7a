import CityPackFormat
import CityPackModel
import Foundation

/// What ``PackEmitter/emit(_:outputDirectory:)`` produced.
public struct EmitResult: Sendable {
    public var manifest: Manifest
    /// `<output>/<city>/manifest.json`.
    public var manifestPath: String
    /// The compressed pack.
    public var packPath: String
    /// `<output>/catalog.json`.
    public var catalogPath: String
    /// False when the content equals the previous build's (same data version, same bytes).
    public var changed: Bool
}

/// Writes a city's pack, manifest and the output catalog so that a failure at any point leaves the
/// previous pack, manifest and catalog untouched and consistent.
///
/// Layout: `<output>/<city-id>/<city-id>-<dataVersion>.citypack.gz`, `<output>/<city-id>/manifest.json`,
/// `<output>/catalog.json`. Everything is first written into a staging folder inside `<output>/<city-id>/`,
/// then renamed: the new pack (a new name when the version changes), then the manifest (atomic replace),
/// then older packs are removed and the catalog is rewritten (atomic replace).
public enum PackEmitter {
    public static func emit(_ input: PackInput, outputDirectory: String) throws(EmitError) -> EmitResult {
        let fm = FileManager.default
        let cityDir = (outputDirectory as NSString).appendingPathComponent(input.city.id)
        do {
            try fm.createDirectory(atPath: cityDir, withIntermediateDirectories: true)
        } catch {
            throw .io(path: cityDir, message: "cannot create output folder: \(error.localizedDescription)")
        }
        let staging = (cityDir as NSString).appendingPathComponent(".staging-\(getpid())")
        try? fm.removeItem(atPath: staging)
        do { try fm.createDirectory(atPath: staging, withIntermediateDirectories: true) } catch {
            throw .io(path: staging, message: "cannot create staging folder: \(error.localizedDescription)")
        }
        defer { try? fm.removeItem(atPath: staging) }

        let manifestPath = (cityDir as NSString).appendingPathComponent(PackSchema.manifestName)
        let previous = readManifest(manifestPath)

        // Copy tables, staged beside the pack; they are content too, so they take part in the version decision.
        let copyFiles = try stageCopy(input, staging: staging)

        // 1. The database without its data version: its hash identifies the content.
        let database = (staging as NSString).appendingPathComponent("pack.sqlite")
        try PackWriter.write(input, to: database)
        let content = try FileDigest(path: database)
        let changed = previous?.contentSha256 != content.sha256 || previous?.formatVersion != Int(PackSchema.formatVersion)
            || (previous?.copy ?? []) != copyFiles
        let dataVersion = changed ? (previous?.dataVersion ?? 0) + 1 : previous!.dataVersion
        var createdAt = iso8601UTC(input.createdAt)
        if !changed, let previous, ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"] == nil {
            createdAt = previous.createdAt  // unchanged content keeps its manifest byte-identical
        }
        try PackWriter.setDataVersion(dataVersion, path: database)
        let uncompressed = try FileDigest(path: database)

        // 2. Compress.
        let packName = "\(input.city.id)-\(dataVersion)\(PackSchema.packSuffix)"
        let stagedPack = (staging as NSString).appendingPathComponent(packName)
        try Gzip.compress(database, to: stagedPack)
        let compressed = try FileDigest(path: stagedPack)

        // 3. Manifest.
        var categoryCounts: [String: Int] = [:]
        for poi in input.pois { categoryCounts[poi.category, default: 0] += 1 }
        let city = input.city
        let manifest = Manifest(
            formatVersion: Int(PackSchema.formatVersion), dataVersion: dataVersion,
            minReaderVersion: Int(PackSchema.formatVersion), createdAt: createdAt, generator: input.generator,
            city: .init(id: city.id, name: city.name, names: city.names, defaultLocale: city.defaultLocale, locales: city.locales),
            bbox: city.bbox.array, counts: .init(
                pois: input.pois.count, categories: categoryCounts, stops: input.transitCounts.stops,
                lines: input.transitCounts.lines, cards: input.editorial.cards.count,
                routes: input.editorial.routes.count),
            artifact: .init(
                path: packName, bytes: compressed.bytes, sha256: compressed.sha256,
                uncompressedBytes: uncompressed.bytes, uncompressedSha256: uncompressed.sha256),
            etag: "\"\(compressed.sha256.prefix(32))\"", contentSha256: content.sha256, sources: input.sources,
            attribution: city.attribution, copy: copyFiles.isEmpty ? nil : copyFiles)
        let stagedManifest = (staging as NSString).appendingPathComponent(PackSchema.manifestName)
        try writeJSON(manifest, to: stagedManifest)

        // 4. Commit: pack, then manifest, then clean up older packs, then the catalog.
        let packPath = (cityDir as NSString).appendingPathComponent(packName)
        try rename(stagedPack, packPath)
        try commitCopy(staging: staging, cityDirectory: cityDir, hasCopy: !copyFiles.isEmpty)  // just before the manifest
        try rename(stagedManifest, manifestPath)
        if let contents = try? fm.contentsOfDirectory(atPath: cityDir) {
            for name in contents where name.hasSuffix(PackSchema.packSuffix) && name != packName {
                try? fm.removeItem(atPath: (cityDir as NSString).appendingPathComponent(name))
            }
        }
        let catalogPath = try CatalogWriter.write(outputDirectory: outputDirectory)
        return EmitResult(
            manifest: manifest, manifestPath: manifestPath, packPath: packPath, catalogPath: catalogPath,
            changed: changed)
    }

    static func readManifest(_ path: String) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    static func rename(_ from: String, _ to: String) throws(EmitError) {
        if Foundation.rename(from, to) != 0 {
            throw .io(path: to, message: "cannot move into place: \(errnoText())")
        }
    }

    /// Sorted-key, pretty JSON with a trailing newline.
    static func writeJSON<T: Encodable>(_ value: T, to path: String) throws(EmitError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(value)
            data.append(0x0A)
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw .io(path: path, message: "cannot write: \(error.localizedDescription)")
        }
    }
}
