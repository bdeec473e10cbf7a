import CityPackCache
import CityPackDiagnostics
import CityPackEmit
import CityPackFormat
import CityPackIngest
import CityPackModel
import CityPackSupport
import CityPackValidate
import Foundation

/// The emit stage of a build (StageWork.swift has the other stages and the cache).
extension StageWork {
    // MARK: emit

    /// The key of the pack's base database (``EmitReuse``): what the emit stage reads but the editorial and copy
    /// folders and the release options, which the base does not read.
    func emitBaseKey() -> CacheKey {
        let names = BuildPlan.hashedSources(of: city).map { CacheInput.value("source", display($0)) }
        return key("emit base", inputs: [
            .artifact(.pois), .artifact(.transit), .artifact(.profile), .cityFile, .value("today", "\(today)"),
            .fields("source date epoch", plan.options.sourceDateEpoch as Any),
        ] + names)
    }

    /// Every file the emit stage leaves for readers, with its SHA-256: the city folder's files (not the reports
    /// the CLI writes there, nor hidden files). Not the catalog: other cities' releases rewrite it; what it says
    /// of this city is checked on its own (``CatalogWriter/listsCurrently(outputDirectory:cityID:)``).
    func emitOutputs(_ outputDirectory: String) -> [(path: String, sha256: String)] {
        let cityFolder = (outputDirectory as NSString).appendingPathComponent(city.id)
        let reports: Set<String> = ["report.json", "report.html", "build-stats.json"]
        var files: [String] = []
        Self.listFiles(cityFolder, relative: "", into: &files)
        return files.filter { !reports.contains($0) }.sorted().map { file in
            let path = cityFolder + "/" + file
            return (path, DigestMemo.sha256(path) ?? "unreadable")
        }
    }

    /// The files below `folder` (following no link to a folder), as paths relative to it, hidden names left out.
    /// readdir's own file types: FileManager's walk and a stat per name took 3 % of an unchanged rebuild.
    static func listFiles(_ folder: String, relative: String, into files: inout [String]) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let path = folder + "/" + name, shown = relative.isEmpty ? name : relative + "/" + name
            let listed = Int32(entry.pointee.d_type)
            var type = listed
            if listed == Int32(DT_UNKNOWN) || listed == Int32(DT_LNK) {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                type = (info.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? Int32(DT_REG) : -1
            }
            if type == Int32(DT_DIR) {
                // A link to a folder is not walked into.
                if listed == Int32(DT_LNK) { continue }
                listFiles(path, relative: shown, into: &files)
            } else if type == Int32(DT_REG) {
                files.append(shown)
            }
        }
    }

    /// Whether the output root or the city folder holds hidden files other than the lock and the cache: leftovers
    /// of an interrupted build (staging folders, temporary files), which only the emitter removes, under its lock.
    func hasDebris(_ outputDirectory: String) -> Bool {
        let cityFolder = (outputDirectory as NSString).appendingPathComponent(city.id)
        return [outputDirectory, cityFolder].contains { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains {
                $0.hasPrefix(".") && $0 != ".lock" && $0 != StageCache.folderName
            }
        }
    }

    /// The emit stage, skipped when its key is unchanged and the outputs it wrote last time are all still there
    /// with the same bytes (``emitOutputs(_:)``): running it would then write nothing.
    mutating func emit(_ outputDirectory: String) -> [StageCount: Int] {
        typealias Stored = (files: [(String, String)], sizes: [UInt8]?, manifest: String, pack: String, catalog: String)
        return cached(
            "emit", key: { $0.stageKey }, records: false,
            decode: { r throws(CacheReader.Malformed) -> Stored in
                let files = try r.array { r throws(CacheReader.Malformed) in (try r.string(), try r.string()) }
                let sizes = try r.optional { r throws(CacheReader.Malformed) in try r.bytes() }
                return (files, sizes, try r.string(), try r.string(), try r.string())
            },
            encode: { w, stored in
                w.array(stored.files) { w, file in
                    w.string(file.0)
                    w.string(file.1)
                }
                w.optional(stored.sizes) { $0.bytes($1) }
                w.string(stored.manifest)
                w.string(stored.pack)
                w.string(stored.catalog)
            },
            accept: { work, stored in
                let now = work.emitOutputs(outputDirectory)
                guard now.map(\.path) == stored.files.map(\.0) && now.map(\.sha256) == stored.files.map(\.1),
                    !work.hasDebris(outputDirectory),
                    let head = Manifest.Head.read(stored.manifest)
                else { return false }  // The outputs changed since (another build, or a hand): the stage runs.
                // The catalog must still list this city as it is (another city's release leaves it so); if it does
                // not (removed, edited by hand), only the catalog is made again.
                // A catalog with the bytes it had when this city was last found listed in it is not read again
                // (`emit-catalog`: its SHA-256, under the emit key).
                if work.plan.options.release.writeCatalog {
                    let catalogPath = (outputDirectory as NSString).appendingPathComponent(PackSchema.catalogName)
                    let digest = FileManager.default.contents(atPath: catalogPath).map { FileDigest.sha256(of: $0) }
                    let seen = work.cache?.load(Self.catalogEntry, key: work.stageKey, quiet: true) { r throws(CacheReader.Malformed) in
                        try r.string()
                    }
                    if digest == nil || seen != digest {
                        if !CatalogWriter.listsCurrently(outputDirectory: outputDirectory, cityID: work.city.id) {
                            guard (try? CatalogWriter.write(outputDirectory: outputDirectory, signingKey: work.release.signingKey)) != nil
                            else { return false }
                        }
                        if let now = FileManager.default.contents(atPath: catalogPath).map({ FileDigest.sha256(of: $0) }) {
                            var w = CacheWriter()
                            w.string(now)
                            work.pendingStores.append((Self.catalogEntry, work.stageKey, w.bytes))
                        }
                    }
                }
                work.emitted = EmitResult(
                    manifestAt: stored.manifest, head: head, packPath: stored.pack, catalogPath: stored.catalog,
                    sizes: stored.sizes.flatMap { try? JSONDecoder().decode(PackSizes.self, from: Data($0)) })
                return true
            },
            run: { work in
                let counts = work.runEmit(outputDirectory)
                guard let emitted = work.emitted else { return (counts, nil) }
                if work.plan.options.release.writeCatalog, work.cache != nil,
                    let catalog = FileManager.default.contents(atPath: emitted.catalogPath)
                {
                    var w = CacheWriter()
                    w.string(FileDigest.sha256(of: catalog))
                    work.pendingStores.append((Self.catalogEntry, work.stageKey, w.bytes))
                }
                let sizes = emitted.sizes.flatMap { try? JSONEncoder().encode($0) }.map(Array.init)
                let stored: Stored = (
                    work.emitOutputs(outputDirectory).map { ($0.path, $0.sha256) }, sizes, emitted.manifestPath,
                    emitted.packPath, emitted.catalogPath)
                return (counts, stored)
            })
    }

    /// The entry holding the SHA-256 of the catalog in which the emit stage last found this city listed as it is.
    static let catalogEntry = "emit-catalog"

    mutating func runEmit(_ outputDirectory: String) -> [StageCount: Int] {
        var sources: [Manifest.SourceFile] = []
        for (file, digest) in sourceHashes?.wait() ?? [] {
            sources.append(.init(path: Compiler.manifestSourcePath(file, city: city), bytes: digest.bytes, sha256: digest.sha256))
        }
        let createdAt = Compiler.buildTime(
            options: plan.options, newestTimestamp: osm?.newestTimestamp, feeds: feeds)
        var input = PackInput(
            city: city, pois: kept ?? [], categories: profile.categories, createdAt: createdAt,
            generator: ToolIdentity.generator, sources: sources, transit: feeds)
        input.editorial = keptEditorial ?? EditorialContent()
        input.copy = copy.flatMap { $0.isEmpty ? nil : $0 }
        plan.options.progress?(ProgressEvent(stage: "emit", item: "\(city.id) pack", done: 0, total: 0, unit: "B"))
        var release = self.release
        if let cache {
            release.reuse = EmitReuse(directory: (cache.directory as NSString).appendingPathComponent("emit"), baseKey: emitBaseKey().hex)
        }
        defer {
            for (path, why) in release.reuse?.notes ?? [] {
                bag.report(Rules.packCacheIgnored, "cache entry ignored (\(why)); the emit stage made it again", at: SourceLocation(file: path))
            }
        }
        do {
            let result = try PackEmitter.emit(input, outputDirectory: outputDirectory, options: release)
            emitted = result
            return [.pois: result.manifest.counts.pois, .packBytes: Int(result.manifest.artifact.bytes)]
        } catch {
            bag.report(Rules.packIOFailure, error.message, at: SourceLocation(file: error.path))
            failure = error.description
            return [:]
        }
    }
}
