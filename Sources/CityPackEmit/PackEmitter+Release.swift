import CityPackFormat
import CityPackModel
import CityPackSupport
import Foundation

/// The last steps of ``PackEmitter/emit(_:outputDirectory:options:)``: the release's manifest and the commit of
/// its staged files.
extension PackEmitter {
    /// Moves a staged release into `cityDirectory`: web parts, the pack, deltas and the versioned manifest first
    /// (new names nobody references yet), then the copy folder, `manifest.json` and `catalog.json`, which switch
    /// readers over. Returns the pack's and `manifest.json`'s paths.
    static func commitRelease(
        cityID: String, cityDirectory: String, outputDirectory: String, staging: String, dataVersion: Int,
        packName: String, stagedPack: String, deltas: [(delta: Manifest.Delta, staged: String)],
        extras: [(staged: String, path: String)] = [], webParts: [Manifest.WebPart], copyFiles: [Manifest.ArtifactFile], manifestBytes: Data, stagedManifest: String,
        stagedCatalog: String?, catalogPath: String, stepDelay: UInt32
    ) throws(EmitError) -> (packPath: String, manifestPath: String) {
        // 4. Commit. The pack and versioned manifest are new names nobody references yet; `manifest.json` and
        // then `catalog.json` switch readers over.
        let packPath = (cityDirectory as NSString).appendingPathComponent(packName)
        let versionedManifest = (cityDirectory as NSString).appendingPathComponent(
            "\(cityID)-\(dataVersion)\(versionedManifestSuffix)")
        let manifestPath = (cityDirectory as NSString).appendingPathComponent(PackSchema.manifestName)
        let stagedVersioned = (staging as NSString).appendingPathComponent("versioned.json")
        try OutputFiles.write(manifestBytes, to: stagedVersioned)
        try OutputFiles.makeDirectory(cityDirectory)  // only now: a failed first build leaves no empty city folder
        try OutputFiles.makeDirectory((cityDirectory as NSString).appendingPathComponent(WebFlavour.folder))
        // What moves in before the switch, in order: the web parts (content-addressed names nobody references yet,
        // or the same bytes already there), so they go in before any manifest that names them, the versioned one
        // included; the previous release's parts stay until pruned below. Then the web bundle and the manifest
        // patches (new names too, relative to the city folder), the pack, the deltas and the versioned manifest.
        let city = cityDirectory as NSString, staged = staging as NSString
        var moves: [(staged: String, final: String)] = []
        for file in webParts.flatMap(\.files) {
            moves.append((staged.appendingPathComponent(file.path), city.appendingPathComponent(file.path)))
        }
        for extra in extras { moves.append((extra.staged, city.appendingPathComponent(extra.path))) }
        moves.append((stagedPack, packPath))
        for delta in deltas { moves.append((delta.staged, city.appendingPathComponent(delta.delta.path))) }
        moves.append((stagedVersioned, versionedManifest))
        let pending = moves.filter { !OutputFiles.sameContents($0.staged, $0.final) }
        // The copy folder is not versioned: swapped just before the manifest, unless it already holds these files.
        let swapCopy = !copyFolderMatches(copyFiles, cityDirectory: cityDirectory)
        let stagedCopy = staged.appendingPathComponent(copyFolder) as NSString
        let copyPaths = swapCopy ? copyFiles.map { staged.appendingPathComponent($0.path) } : []
        // Durability in one batch: every staged file that will be renamed, and the folders of the staged copy, are
        // flushed together before the first rename (one wait instead of one per file), so no name below can point
        // at bytes a power loss would lose.
        var copyFolders: [String] = []
        if swapCopy && !copyFiles.isEmpty {
            copyFolders = Set(copyPaths.map { PathText.parent($0) }).union([stagedCopy as String]).sorted()
        }
        var flushed: [String] = pending.map(\.staged)
        flushed += copyPaths
        flushed += copyFolders
        flushed.append(stagedManifest)
        if let stagedCatalog { flushed.append(stagedCatalog) }
        try OutputFiles.flushAll(flushed)
        for (staged, final) in pending {
            if stepDelay > 0 { usleep(stepDelay) }
            try OutputFiles.rename(staged, final)
        }
        // The new names are durable before a manifest names them.
        for folder in Set(pending.map { PathText.parent($0.final) }).sorted() { OutputFiles.flushDirectory(folder) }
        if swapCopy {
            if stepDelay > 0 { usleep(stepDelay) }
            try commitCopy(staging: staging, cityDirectory: cityDirectory, hasCopy: !copyFiles.isEmpty)
        }
        try commit(stagedManifest, manifestPath, delay: stepDelay)
        OutputFiles.flushDirectory(cityDirectory)
        if let stagedCatalog {
            try commit(stagedCatalog, catalogPath, delay: stepDelay)
            OutputFiles.flushDirectory(outputDirectory)
        }
        return (packPath, manifestPath)
    }

    /// The manifest of a release (unsigned): counts, the artifact, deltas, copy files, web parts and time zones.
    static func makeManifest(
        _ input: PackInput, dataVersion: Int, createdAt: String, updatedAt: String, packName: String,
        compressed: FileDigest, uncompressed: FileDigest, content: FileDigest, copyFiles: [Manifest.ArtifactFile],
        deltas: [Manifest.Delta], webParts: [Manifest.WebPart]
    ) -> Manifest {
        let city = input.city
        var categoryCounts: [String: Int] = [:]
        // POIs filed under each category, further categories included (as `PackReader.categoryCounts`).
        for poi in input.pois {
            for category in Set([poi.category] + poi.alsoCategories) { categoryCounts[category, default: 0] += 1 }
        }
        var manifest = Manifest(
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
        manifest.locales = city.locales
        manifest.city.timezone = input.timezone
        manifest.updatedAt = updatedAt
        manifest.deltas = deltas.isEmpty ? nil : deltas
        var webStrings: [String: String] = [:]
        for file in copyFiles where file.path.hasPrefix("\(copyFolder)/web/") && file.path.hasSuffix(".json") {
            let locale = String(file.path.dropFirst("\(copyFolder)/web/".count).dropLast(".json".count))
            webStrings[locale] = file.path
        }
        manifest.web = .init(format: WebFlavour.formatVersion, parts: webParts, strings: webStrings)
        manifest.timezones = input.transit.isEmpty ? nil : input.transit.map { $0.agencies.first?.timezone ?? "" }
        manifest.timetable = timetableRange(input.transit)
        return manifest
    }

    /// The first and last dates any service of `feeds` may run (calendar ranges, dates calendar_dates adds), as the
    /// readers' `TransitReader.coverage()` computes them from the pack; nil without such dates.
    static func timetableRange(_ feeds: [GTFSFeed]) -> Manifest.DateRange? {
        var first = Int32.max, last = Int32.min
        for feed in feeds {
            for c in feed.calendars where c.startDate > 0 && c.startDate <= c.endDate {
                first = min(first, c.startDate)
                last = max(last, c.endDate)
            }
            for d in feed.calendarDates where d.exceptionType == 1 && d.date > 0 {
                first = min(first, d.date)
                last = max(last, d.date)
            }
        }
        guard first <= last else { return nil }
        func text(_ v: Int32) -> String { String(format: "%04d-%02d-%02d", Int(v) / 10000, Int(v) / 100 % 100, Int(v) % 100) }
        return Manifest.DateRange(first: text(first), last: text(last))
    }
}
