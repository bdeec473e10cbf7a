import CityPackFormat
import CityPackModel
import CityPackSupport
import Foundation

/// How the emitter releases a pack.
package struct EmitOptions: Sendable {
    /// How many previous data versions (pack and versioned manifest) stay beside the current one (default 2),
    /// so clients can still finish a download that started before the update and be offered a diff.
    package var keepVersions: Int
    /// Signs the manifest and the catalog when set.
    package var signingKey: SigningKey?
    /// Whether `keepVersions` was given on the command line (it then beats the city file's `keep_versions:`).
    package var keepVersionsExplicit = false
    /// Measure where the pack's bytes go (``EmitResult/sizes``), on another thread while the pack is compressed,
    /// from the staged database (release rows included: the bytes of the pack).
    package var measureSizes = false
    /// Test hook: microseconds to sleep before each commit step and before pruning, so that kill tests can land
    /// between any two renames and after the last (set by `build`'s hidden `--test-step-delay-us`). 0 in normal use.
    package var testStepDelayMicroseconds: UInt32 = 0
    /// Rewrite `catalog.json` with this release (default). A fleet build turns it off and writes the catalog once
    /// after its last city (``CatalogWriter/write(outputDirectory:signingKey:)``).
    package var writeCatalog = true
    /// The previous build's pieces to reuse and to replace with this build's (the build cache); nil: none.
    package var reuse: EmitReuse?

    package init(keepVersions: Int = 2, signingKey: SigningKey? = nil) {
        self.keepVersions = max(0, keepVersions)
        self.signingKey = signingKey
    }
}

/// Releases a city's pack into an output folder so that readers only ever see complete, consistent releases.
///
/// Layout (see `docs/RELEASES.md`):
/// ```
/// <output>/catalog.json                              every city's current release (written last)
/// <output>/<city>/manifest.json                      the current release's manifest
/// <output>/<city>/<city>-<N>.manifest.json           the manifest of data version N (immutable)
/// <output>/<city>/<city>-<N>.citypack.gz             the pack of data version N (immutable)
/// <output>/<city>/web/<part>-<sha256 prefix>.json.gz  the web flavour's parts (immutable, content-addressed)
/// ```
/// Steps, all under the folder's ``OutputLock``:
/// 1. Remove debris of interrupted builds: hidden staging folders and temporary files, and versioned files
///    newer than the current manifest (written by a build killed before its manifest was replaced).
/// 2. Write the database into a hidden staging folder without its release rows; its SHA-256 is the content hash.
///    Same content as the current release (and same format version) keeps the data version and the release
///    time, so every file comes out byte-identical; otherwise the data version is the current one + 1.
/// 3. Add the release rows, compress, write the manifest and the new catalog — all staged, flushed to disk.
/// 4. Rename into place, skipping files whose bytes are already there: the web parts, the pack, the versioned
///    manifest, `manifest.json`, then `catalog.json`.
/// 5. Remove data versions older than the kept window, and web parts no kept manifest names.
///
/// A failure at any step throws ``EmitError`` and leaves the previous release untouched; a kill (SIGKILL, power
/// loss after the flushes) leaves every visible file either as before or as after; the catalog is renamed after
/// the manifest, so between those two renames it still lists the previous (kept, complete) release.
package enum PackEmitter {
    /// Prefix of the hidden staging folders in the output folder.
    static let stagingPrefix = ".staging-"
    /// Suffix of the immutable per-version manifests.
    package static let versionedManifestSuffix = ".manifest.json"

    /// Builds, versions and releases a city's pack. See the type's documentation for the steps.
    /// - Parameters:
    ///   - input: Validated city content.
    ///   - outputDirectory: The output root (created when missing).
    ///   - options: Kept versions and signing key.
    /// - Throws: ``EmitError`` located at the failing path.
    package static func emit(_ input: PackInput, outputDirectory: String, options: EmitOptions = EmitOptions())
        throws(EmitError) -> EmitResult
    {
        try OutputLock.withLock(outputDirectory: outputDirectory) { () throws(EmitError) -> EmitResult in
            try emitLocked(input, outputDirectory: outputDirectory, options: options)
        }
    }

    static func emitLocked(_ input: PackInput, outputDirectory: String, options: EmitOptions) throws(EmitError) -> EmitResult {
        let city = input.city
        let stepDelay = options.testStepDelayMicroseconds
        let cityDir = (outputDirectory as NSString).appendingPathComponent(city.id)
        removeDebris(outputDirectory: outputDirectory)
        let current = currentRelease(cityDirectory: cityDir, cityID: city.id)
        removeVersions(in: cityDir, cityID: city.id) { $0 > (current?.manifest.dataVersion ?? 0) }

        let staging = (outputDirectory as NSString).appendingPathComponent("\(stagingPrefix)\(city.id)-\(getpid())")
        try OutputFiles.makeDirectory(staging)
        defer { try? FileManager.default.removeItem(atPath: staging) }

        // Independent parts run on other threads; every one is waited for before the staging folder goes.
        var background: [BackgroundTask] = []
        defer { for task in background { task.join() } }

        // Copy tables, staged beside the pack (on another thread, while the database is written); they are content
        // too, so they take part in the version decision.
        var lap = TimeTrace.Lap()
        let copyTask = Background { () throws(EmitError) in try stageCopy(input, staging: staging) }
        background.append(copyTask)

        // 1. The database without release rows: its hash identifies the content.
        let database = (staging as NSString).appendingPathComponent("pack.sqlite")
        let reuse = options.reuse
        var base = reuse?.loadBase(to: database)
        if base == nil {
            try PackWriter.writeBase(input, to: database)
            if let reuse {
                let digest = try OutputFiles.digest(database)
                reuse.storeBase(from: database, digest: digest)
                base = digest
            }
        }
        try PackWriter.writeEditorial(input, to: database)
        let content = try OutputFiles.digest(database)
        lap.mark("emit: database")
        let copyFiles = try copyTask.value()
        lap.mark("emit: copy tables (rest)")
        // The web flavour, derived from the same content (no release rows), staged beside the copy tables; written
        // on another thread from a copy of the database while this one adds the release rows and compresses.
        let webDatabase = (staging as NSString).appendingPathComponent("web-source.sqlite")
        try OutputFiles.copy(database, to: webDatabase)
        let webFolder = (staging as NSString).appendingPathComponent(WebFlavour.folder)
        let baseDigest = base
        let webTask = Background { () throws(EmitError) in
            // The parts made from the base alone come from the previous build when its base was the same.
            try OutputFiles.makeDirectory(webFolder)
            let stored = baseDigest.flatMap { reuse?.loadWebParts(base: $0.sha256, into: webFolder, prefix: WebFlavour.folder) }
            let parts = try WebWriter.write(
                database: webDatabase, folder: webFolder, relativeTo: WebFlavour.folder, baseParts: stored)
            if stored == nil, let reuse, let base = baseDigest {
                reuse.storeWebParts(parts.filter { $0.name != WebFlavour.editorialPart }, base: base.sha256, from: webFolder)
            }
            return parts
        }
        background.append(webTask)
        let previous = current?.manifest
        // Whether the release is new. The web parts decide only when nothing else changed; rather than wait for
        // them, such a build goes on as unchanged and redoes the release step in the rare case that they differ.
        let changedBesidesWeb = previous == nil || previous?.contentSha256 != content.sha256
            || previous?.formatVersion != Int(PackSchema.formatVersion) || (previous?.copy ?? []) != copyFiles
        let buildTime = iso8601UTC(input.createdAt)
        func versions(changed: Bool) -> (dataVersion: Int, updatedAt: String, createdAt: String) {
            if let previous, !changed {
                return (previous.dataVersion, previous.updatedAt ?? previous.createdAt, previous.createdAt)
            }
            // Never backwards, even when the new data's newest timestamp is older than the previous release's.
            return ((previous?.dataVersion ?? 0) + 1, max(buildTime, previous?.updatedAt ?? ""), previous?.createdAt ?? buildTime)
        }
        let pristine = (staging as NSString).appendingPathComponent("content.sqlite")
        if !changedBesidesWeb { try OutputFiles.copy(database, to: pristine) }

        // 2. Release rows and compression (the manifest follows).
        func release(changed: Bool) throws(EmitError)
            -> (dataVersion: Int, updatedAt: String, createdAt: String, uncompressed: FileDigest, packName: String,
                stagedPack: String, compressed: FileDigest, inspection: Background<PackSizes?>?)
        {
            let (dataVersion, updatedAt, createdAt) = versions(changed: changed)
            try PackWriter.setReleaseMeta(dataVersion: dataVersion, createdAt: updatedAt, path: database)
            let uncompressed = try OutputFiles.digest(database)
            let packName = "\(city.id)-\(dataVersion)\(PackSchema.packSuffix)"
            let stagedPack = (staging as NSString).appendingPathComponent(packName)
            var inspection: Background<PackSizes?>?
            if options.measureSizes {
                inspection = Background { () throws(EmitError) in
                    // Objects whose pages the last build measured are not compressed again.
                    let known = reuse?.knownSizes() ?? [:]
                    var measured: [String: Int] = [:]
                    let sizes = try? PackSizes.measure(databasePath: database, failing: EmitError.self, known: known) { measured[$0] = $1 }
                    if let reuse, sizes != nil { reuse.storeSizes(measured) }
                    return sizes
                }
            }
            reuse?.removeChunks()
            try Gzip.compressFile(database, to: stagedPack, level: Gzip.packLevel)
            let compressed = try OutputFiles.digest(stagedPack)
            return (dataVersion, updatedAt, createdAt, uncompressed, packName, stagedPack, compressed, inspection)
        }
        var released = try release(changed: changedBesidesWeb)
        if let inspection = released.inspection { background.append(inspection) }
        lap.mark("emit: release rows and gzip")
        let webParts = try webTask.value()
        let changed = changedBesidesWeb || (previous?.web?.parts ?? []) != webParts
        if changed != changedBesidesWeb {
            // Same content, other web parts (a new generator): a new release after all, from the pristine copy.
            released.inspection?.join()
            unlink(released.stagedPack)
            try OutputFiles.rename(pristine, database)
            released = try release(changed: true)
            if let inspection = released.inspection { background.append(inspection) }
        }
        let (dataVersion, updatedAt, createdAt) = (released.dataVersion, released.updatedAt, released.createdAt)
        let (uncompressed, packName, stagedPack, compressed) =
            (released.uncompressed, released.packName, released.stagedPack, released.compressed)
        lap.mark("emit: web flavour (rest)")

        // Deltas from the kept previous versions to this one (small enough to be worth offering).
        let stagedDeltas = try stageDeltas(
            cityID: city.id, cityDirectory: cityDir, staging: staging, database: database, target: uncompressed,
            dataVersion: dataVersion, keepVersions: options.keepVersions, packBytes: compressed.bytes)
        lap.mark("emit: deltas")

        let bundle = try stageWebBundle(parts: webParts, staging: staging)
        var manifest = makeManifest(
            input, dataVersion: dataVersion, createdAt: createdAt, updatedAt: updatedAt, packName: packName,
            compressed: compressed, uncompressed: uncompressed, content: content, copyFiles: copyFiles,
            deltas: stagedDeltas.map(\.delta), webParts: webParts)
        manifest.web?.bundle = bundle?.file
        let manifestBytes = try encodeSigned(manifest, key: options.signingKey, previousBytes: current?.bytes)
        let stagedManifest = (staging as NSString).appendingPathComponent(PackSchema.manifestName)
        try OutputFiles.write(manifestBytes, to: stagedManifest)
        manifest = try decode(Manifest.self, manifestBytes, path: stagedManifest)
        // Patches from the kept earlier manifests to this one: what an update fetches instead of the manifest.
        let keptFroms = PackEmitter.versions(in: cityDir, cityID: city.id).map(\.0).filter { $0 >= dataVersion - options.keepVersions && $0 < dataVersion }
        let stagedPatches = try stageManifestPatches(
            cityID: city.id, cityDirectory: cityDir, staging: staging, dataVersion: dataVersion,
            froms: Array(Set(keptFroms)), manifestBytes: manifestBytes)
        lap.mark("emit: bundle and manifest patches")

        // 3. The catalog as it will be once the manifest is in place.
        let catalogPath = (outputDirectory as NSString).appendingPathComponent(PackSchema.catalogName)
        let stagedCatalog = (staging as NSString).appendingPathComponent(PackSchema.catalogName)
        if options.writeCatalog {
            let catalog = CatalogWriter.catalog(
                outputDirectory: outputDirectory, replacing: (city.id, manifest, manifestBytes),
                stagedPatches: Dictionary(uniqueKeysWithValues: stagedPatches.map { ($0.name, $0.staged) }))
            let catalogBytes = try encodeSigned(
                catalog, key: options.signingKey, previousBytes: FileManager.default.contents(atPath: catalogPath))
            try OutputFiles.write(catalogBytes, to: stagedCatalog)
        }

        // 4. Commit.
        let (packPath, manifestPath) = try commitRelease(
            cityID: city.id, cityDirectory: cityDir, outputDirectory: outputDirectory, staging: staging,
            dataVersion: dataVersion, packName: packName, stagedPack: stagedPack, deltas: stagedDeltas,
            extras: (bundle.map { [($0.staged, $0.file.path)] } ?? []) + stagedPatches.map { ($0.staged, $0.name) },
            webParts: webParts, copyFiles: copyFiles, manifestBytes: manifestBytes, stagedManifest: stagedManifest,
            stagedCatalog: options.writeCatalog ? stagedCatalog : nil, catalogPath: catalogPath, stepDelay: stepDelay)

        // 5. Prune versions that fell out of the window, now that nothing references them (a step of its own for
        // the test hook, so that kills can land between the commit and the build's end).
        if stepDelay > 0 { usleep(stepDelay) }
        lap.mark("emit: manifest, catalog, commit")
        let pruned = removeVersions(in: cityDir, cityID: city.id) { $0 < dataVersion - options.keepVersions }
        pruneWebParts(cityDirectory: cityDir, cityID: city.id)
        var result = EmitResult(
            manifest: manifest, manifestPath: manifestPath, packPath: packPath, catalogPath: catalogPath,
            changed: changed, pruned: pruned)
        result.sizes = try released.inspection?.value() ?? nil
        return result
    }

    /// Removes the files of `<city>/web/` that neither `manifest.json` nor a kept versioned manifest names (parts
    /// of pruned releases, debris of killed builds). Called after the manifest switched, under the lock.
    static func pruneWebParts(cityDirectory: String, cityID: String) {
        var manifests = [PackSchema.manifestName]
        manifests += versions(in: cityDirectory, cityID: cityID).map(\.1).filter { $0.hasSuffix(versionedManifestSuffix) }
        var referenced: Set<String> = []
        for name in manifests {
            guard let manifest = readManifest((cityDirectory as NSString).appendingPathComponent(name)) else { continue }
            for file in (manifest.web?.parts ?? []).flatMap(\.files) { referenced.insert(file.path) }
            if let bundle = manifest.web?.bundle { referenced.insert(bundle.path) }
        }
        let folder = (cityDirectory as NSString).appendingPathComponent(WebFlavour.folder)
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where !referenced.contains("\(WebFlavour.folder)/\(file)") {
            unlink((folder as NSString).appendingPathComponent(file))
        }
    }

    /// Whether `<city>/copy/` holds exactly `files` (or is absent when there are none).
    static func copyFolderMatches(_ files: [Manifest.ArtifactFile], cityDirectory: String) -> Bool {
        let folder = (cityDirectory as NSString).appendingPathComponent(copyFolder)
        var onDisk: [String] = []
        if let walker = FileManager.default.enumerator(atPath: folder) {
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let path = (folder as NSString).appendingPathComponent(relative)
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    onDisk.append("\(copyFolder)/\(relative)")
                }
            }
        }
        guard onDisk.sorted() == files.map(\.path).sorted() else { return false }
        for file in files {
            guard let digest = try? FileDigest(path: (cityDirectory as NSString).appendingPathComponent(file.path)),
                digest.sha256 == file.sha256, digest.bytes == file.bytes
            else { return false }
        }
        return true
    }

    /// Renames `staged` over `final` unless `final` already holds the same bytes (then nothing changes on disk),
    /// after sleeping `stepDelay` microseconds (a test hook, ``EmitOptions/testStepDelayMicroseconds``).
    static func commit(_ staged: String, _ final: String, delay stepDelay: UInt32) throws(EmitError) {
        if stepDelay > 0 { usleep(stepDelay) }
        if OutputFiles.sameContents(staged, final) { return }
        try OutputFiles.rename(staged, final)
    }

    /// JSON bytes of a document, signed with `key` when given. When the previous file has the same signed content
    /// and a valid signature by the same key, its bytes are reused, so unchanged rebuilds are byte-identical even
    /// with a signer that randomises signatures.
    static func encodeSigned<D: SignableDocument>(_ document: D, key: SigningKey?, previousBytes: Data?) throws(EmitError) -> Data {
        guard let key else {
            // Unsigned: an earlier signed file with the same content (apart from keyId and signature) stays as it
            // is, so rebuilding or merging without the key does not strip a valid signature.
            let bytes = try OutputFiles.encode(document)
            if let previousBytes, (try? DocumentSignature.embedded(in: previousBytes)) != nil,
                var old = try? JSONValue.parse(previousBytes).objectValue, let new = try? JSONValue.parse(bytes).objectValue
            {
                old.removeValue(forKey: DocumentSignature.signatureKey)
                old.removeValue(forKey: DocumentSignature.keyIDKey)
                if old == new { return previousBytes }
            }
            return bytes
        }
        var unsigned = document
        unsigned.keyId = key.keyID
        unsigned.signature = nil
        if let previousBytes, key.hasValidSignature(previousBytes),
            let old = try? DocumentSignature.signingBytes(of: previousBytes),
            let new = try? DocumentSignature.signingBytes(of: OutputFiles.encode(unsigned)), old == new
        {
            return previousBytes
        }
        return try OutputFiles.encode(key.sign(unsigned))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, path: String) throws(EmitError) -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw .io(path: path, message: "cannot decode: \(error)")
        }
    }

    /// The city's current release: `manifest.json`, else (when it is missing or unreadable) the newest versioned
    /// manifest, so a damaged `manifest.json` can never make the data version go backwards.
    static func currentRelease(cityDirectory: String, cityID: String) -> (manifest: Manifest, bytes: Data)? {
        let path = (cityDirectory as NSString).appendingPathComponent(PackSchema.manifestName)
        if let data = FileManager.default.contents(atPath: path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        {
            return (manifest, data)
        }
        for (_, name) in versions(in: cityDirectory, cityID: cityID).reversed() where name.hasSuffix(versionedManifestSuffix) {
            let file = (cityDirectory as NSString).appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: file),
                let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
            {
                return (manifest, data)
            }
        }
        return nil
    }

    /// `(dataVersion, file name)` of every versioned pack, manifest, delta and manifest patch of a city, by version;
    /// a delta `<city>-<from>-<to>.delta` (and a patch) counts as version `to`, so it lives exactly as long as the
    /// manifest it leads to.
    static func versions(in cityDirectory: String, cityID: String) -> [(Int, String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cityDirectory)) ?? []
        var out: [(Int, String)] = []
        for name in names where name.hasPrefix(cityID + "-") {
            if let delta = PackDelta.versions(fileName: name, city: cityID) ?? ManifestPatch.versions(fileName: name, city: cityID) {
                out.append((delta.to, name))
                continue
            }
            for suffix in [PackSchema.packSuffix, versionedManifestSuffix] where name.hasSuffix(suffix) {
                let middle = name.dropFirst(cityID.count + 1).dropLast(suffix.count)
                if let version = Int(middle), version > 0 { out.append((version, name)) }
            }
        }
        return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// Removes the versioned files whose version satisfies `condition`; returns the versions removed. Manifests
    /// go first, so that a kill in between never leaves a manifest whose pack is gone.
    @discardableResult
    static func removeVersions(in cityDirectory: String, cityID: String, where condition: (Int) -> Bool) -> [Int] {
        var removed: Set<Int> = []
        let doomed = versions(in: cityDirectory, cityID: cityID).filter { condition($0.0) }
        let ordered = doomed.filter { $0.1.hasSuffix(versionedManifestSuffix) } + doomed.filter { !$0.1.hasSuffix(versionedManifestSuffix) }
        for (version, name) in ordered {
            if unlink((cityDirectory as NSString).appendingPathComponent(name)) == 0 { removed.insert(version) }
        }
        return removed.sorted()
    }

    /// Removes staging folders and temporary files left by interrupted writers. Only called with the lock held,
    /// when no other writer can be using them.
    static func removeDebris(outputDirectory: String) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: outputDirectory)) ?? [] {
            let path = (outputDirectory as NSString).appendingPathComponent(name)
            if OutputFiles.isTemporary(name) {
                try? fm.removeItem(atPath: path)
                continue
            }
            var isDirectory: ObjCBool = false
            guard !name.hasPrefix("."), fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            for inner in (try? fm.contentsOfDirectory(atPath: path)) ?? [] where OutputFiles.isTemporary(inner) {
                try? fm.removeItem(atPath: (path as NSString).appendingPathComponent(inner))
            }
        }
    }

    static func readManifest(_ path: String) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }

    static func rename(_ from: String, _ to: String) throws(EmitError) { try OutputFiles.rename(from, to) }
}
