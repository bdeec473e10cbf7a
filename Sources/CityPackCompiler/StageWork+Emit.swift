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

    /// The emit stage's key: everything the pack, manifest, copy tables, web flavour and catalog are made from (the
    /// earlier stages' keys, the editorial and copy folders, the city file, the profile, the build date and
    /// time) and the release options. The stage is skipped only when, besides, the outputs it wrote last time are
    /// all still there with the same bytes (``emitOutputs(_:)``): running it would then write nothing.
    func emitKey(_ outputDirectory: String) -> CacheKey {
        var k = key("emit")
        // What the base database reads, then the editorial and copy folders and the release options.
        k.add("base", emitBaseKey().hex)
        if let directory = city.editorialDirectory { k.addContent(of: directory) }
        for case .ingestCopy(let template, let cityCopy) in plan.kinds {
            k.addContent(of: template)
            if let cityCopy { k.addContent(of: cityCopy) }
        }
        k.add("output", outputDirectory)
        let release = plan.options.release
        k.add("release", "keep \(release.keepVersions) explicit \(release.keepVersionsExplicit) city keep \(city.keepVersions.map(String.init) ?? "none") "
            + "key \(release.signingKey?.keyID ?? "none") catalog \(release.writeCatalog) sizes \(release.measureSizes) "
            + "delay \(release.testStepDelayMicroseconds)")
        return k
    }

    /// The key of the pack's base database (``EmitReuse``), and the part of ``emitKey(_:)`` it shares: the
    /// earlier stages' keys, the city file, the profile and the build date, not the editorial and copy folders nor
    /// the release options, which the base does not read.
    func emitBaseKey() -> CacheKey {
        var k = key("emit base")
        k.add("osm", osmKey?.hex ?? "none")
        k.add("gtfs", gtfsKey?.hex ?? "none")
        k.addContent(of: city.file)
        k.add("city directory", city.directory)
        for file in profileFiles { k.addContent(of: file) }
        for file in BuildPlan.hashedSources(of: city) { k.add("source", display(file)) }
        let options = plan.options
        k.add("today", "\(options.buildDate ?? CivilDate.utc(secondsSince1970: Compiler.wallClockOrEpoch(options)))")
        k.add("source date epoch", "\(options.sourceDateEpoch.map(String.init) ?? "none")")
        return k
    }

    /// Every file the emit stage leaves for readers, with its SHA-256: the city folder's files (not the reports
    /// the CLI writes there, nor hidden files) and, when the stage writes it, the catalog.
    func emitOutputs(_ outputDirectory: String) -> [(path: String, sha256: String)] {
        let cityFolder = (outputDirectory as NSString).appendingPathComponent(city.id)
        let reports: Set<String> = ["report.json", "report.html", "build-stats.json"]
        var out: [(String, String)] = []
        for file in (FileManager.default.subpaths(atPath: cityFolder) ?? []).sorted() {
            let path = (cityFolder as NSString).appendingPathComponent(file)
            if reports.contains(file) || file.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            out.append((path, (try? FileDigest(path: path))?.sha256 ?? "unreadable"))
        }
        if plan.options.release.writeCatalog {
            let catalog = (outputDirectory as NSString).appendingPathComponent(PackSchema.catalogName)
            out.append((catalog, (try? FileDigest(path: catalog))?.sha256 ?? "missing"))
        }
        return out
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

    mutating func emit(_ outputDirectory: String) -> [StageCount: Int] {
        var k: CacheKey?
        if cache != nil {
            let key = emitKey(outputDirectory)
            k = key
            if let hit = loadCached("emit", key: key, decode: { r throws(CacheReader.Malformed) in
                let files = try r.array { r throws(CacheReader.Malformed) in (try r.string(), try r.string()) }
                let sizes = try r.optional { r throws(CacheReader.Malformed) in try r.bytes() }
                return (files, sizes, try r.string(), try r.string(), try r.string())
            }) {
                let (files, sizes, manifestPath, packPath, catalogPath) = hit.value
                let now = emitOutputs(outputDirectory)
                if now.map(\.path) == files.map(\.0) && now.map(\.sha256) == files.map(\.1), !hasDebris(outputDirectory),
                    let data = FileManager.default.contents(atPath: manifestPath),
                    let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
                {
                    var result = EmitResult(
                        manifest: manifest, manifestPath: manifestPath, packPath: packPath, catalogPath: catalogPath, changed: false)
                    result.sizes = sizes.flatMap { try? JSONDecoder().decode(PackSizes.self, from: Data($0)) }
                    emitted = result
                    return hit.counts
                }
                // The outputs changed since (another build, or a hand): the stage runs.
                cachedEntries.removeLast()
            }
        }
        let counts = runEmit(outputDirectory)
        if let k, let emitted {
            let files = emitOutputs(outputDirectory)
            let sizes = emitted.sizes.flatMap { try? JSONEncoder().encode($0) }
            storeCached("emit", key: k, events: [], counts: counts) { w in
                w.array(files) { w, file in
                    w.string(file.path)
                    w.string(file.sha256)
                }
                w.optional(sizes) { $0.bytes(Array($1)) }
                w.string(emitted.manifestPath)
                w.string(emitted.packPath)
                w.string(emitted.catalogPath)
            }
        }
        return counts
    }

    mutating func runEmit(_ outputDirectory: String) -> [StageCount: Int] {
        var sources: [Manifest.SourceFile] = []
        for (file, digest) in sourceHashes?.wait() ?? [] {
            sources.append(.init(path: display(file), bytes: digest.bytes, sha256: digest.sha256))
        }
        let createdAt = Compiler.buildTime(
            options: plan.options, newestTimestamp: osm?.newestTimestamp, feeds: feeds)
        var input = PackInput(
            city: city, pois: kept ?? [], categories: profile.categories, createdAt: createdAt,
            generator: Compiler.generator, sources: sources, transit: feeds)
        input.editorial = keptEditorial ?? EditorialContent()
        input.copy = copy.flatMap { $0.isEmpty ? nil : $0 }
        plan.options.progress?(ProgressEvent(stage: "emit", item: "\(city.id) pack", done: 0, total: 0, unit: "B"))
        var release = plan.options.release
        if !release.keepVersionsExplicit, let keep = city.keepVersions { release.keepVersions = keep }
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
