import CityPackSupport
import Foundation

// Refreshing the catalog and installing a city: fetching with resume and retries, verifying in a staging folder,
// switching in.
extension PackLibrary {
    // MARK: - Catalog

    /// Fetches the catalog with a conditional request (`If-None-Match` with the ETag the server sent last time,
    /// `If-Modified-Since` with its `Last-Modified`): `304 Not Modified` keeps the cached catalog. A new catalog's
    /// signature is checked against ``Configuration/trust``; a catalog offering any city at a data version lower
    /// than one already seen or installed is refused (``PackFailure/Reason/olderRelease``; those cities' states
    /// become failed) and the cached one kept. Updates every idle city's state.
    /// - Returns: The current catalog.
    /// - Throws: ``PackFailure``: offline, timeout, server_error, damaged (not a catalog), tampered, older_release.
    @discardableResult
    public func refreshCatalog() async throws(PackFailure) -> Catalog {
        let folder = store.catalogFolder
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw PackFailure(.damaged, "cannot create \(folder.path): \(error)")
        }
        let temporary = folder.appendingPathComponent(".download-\(UUID().uuidString.prefix(8))")
        defer { unlink(temporary.path) }
        var headers: [String: String] = [:]
        if let memo, catalog != nil, memo.url == configuration.catalogURL.absoluteString {
            if let etag = memo.etag { headers["If-None-Match"] = etag }
            if let lastModified = memo.lastModified { headers["If-Modified-Since"] = lastModified }
        }
        let response = try await fetch(configuration.catalogURL, to: temporary, headers: headers, resume: false) { _ in }
        if response.status == 304, let catalog {
            publishAllResting()
            return catalog
        }
        guard response.status == 200, let bytes = FileManager.default.contents(atPath: temporary.path) else {
            throw PackFailure(.serverError, "\(configuration.catalogURL.absoluteString): HTTP \(response.status)", status: response.status)
        }
        let fresh: Catalog
        do {
            fresh = try PackVerifier.verifyCatalog(
                bytes, path: configuration.catalogURL.absoluteString, publicKeys: configuration.trust?.publicKeys ?? [])
        } catch {
            var failure = PackFailure(error)
            if let encoding = Self.contentEncoding(response) { failure.message = Self.encodingHint(encoding) + ": " + failure.message }
            throw failure
        }
        var seen = memo?.seen ?? [:]
        for pack in store.installed() { seen[pack.city] = max(seen[pack.city] ?? pack.version, pack.version) }
        let older = fresh.packs.filter { entry in seen[entry.id].map { entry.dataVersion < $0 } ?? false }
        if !older.isEmpty {
            let text = older.map { "\($0.id) \($0.dataVersion) (version \(seen[$0.id] ?? 0) seen)" }.joined(separator: ", ")
            let failure = PackFailure(.olderRelease, "the catalog offers older data than already seen: \(text); keeping the cached catalog")
            for entry in older where jobs[entry.id] == nil {
                hub.set(entry.id, .failed(reason: failure, installedVersion: store.pointer(entry.id)?.current))
            }
            throw failure
        }
        for entry in fresh.packs { seen[entry.id] = max(seen[entry.id] ?? entry.dataVersion, entry.dataVersion) }
        let newMemo = CatalogMemo(
            url: configuration.catalogURL.absoluteString, etag: response.header("etag"),
            lastModified: response.header("last-modified"), seen: seen)
        do {
            try PackStore.writeAtomically(bytes, to: folder.appendingPathComponent("catalog.json"))
            try PackStore.writeAtomically(try JSONEncoder().encode(newMemo), to: folder.appendingPathComponent("http.json"))
        } catch {
            throw PackFailure(.notEnoughSpace, "cannot store the catalog: \(error)")
        }
        memo = newMemo
        catalog = fresh
        // A paused download of a version this catalog no longer offers will never be finished: its bytes go.
        for city in store.cities() where jobs[city] == nil {
            if let partial = store.partial(city), fresh.packs.first(where: { $0.id == city })?.dataVersion != partial.info.version {
                store.dropPartials(city)
            }
        }
        publishAllResting()
        return fresh
    }

    // MARK: - Installing

    /// Downloads `city` at the catalog's data version (fetching the catalog first when none is cached); when an
    /// older version is installed this is an update (see ``update(_:)``). Returns when it has finished, failed or
    /// been cancelled; progress is reported through ``states``. A second call while one runs waits for it.
    /// - Returns: The final state: ``PackState/onDisk(version:)``, ``PackState/failed(reason:installedVersion:)``,
    ///   or after ``cancel(_:)`` the state from before.
    @discardableResult
    public func download(_ city: String) async -> PackState { await install(city) }

    /// Brings an installed `city` to the catalog's data version: the delta from the installed version when the
    /// catalog lists one smaller than the pack (``CityPackFormat/Catalog/download(city:installedVersion:)``), else
    /// the full pack. The installed version stays openable throughout and after any failure.
    /// - Returns: As ``download(_:)``.
    @discardableResult
    public func update(_ city: String) async -> PackState { await install(city) }

    /// Refreshes the catalog, then downloads `city` (``download(_:)``): the policy `citypack install` follows, for an
    /// app's "download now" button. When the network gives no catalog (offline, timeout, server error, not enough
    /// space) the cached catalog is used, if there is one; a catalog refused as an older release or as tampered
    /// fails the download instead, and the installed version, if any, stays.
    /// - Returns: As ``download(_:)``.
    @discardableResult
    public func downloadLatest(_ city: String) async -> PackState {
        do throws(PackFailure) { try await refreshCatalog() } catch {
            if error.reason == .olderRelease || error.reason == .tampered {
                let state = PackState.failed(reason: error, installedVersion: installed().first { $0.city == city }?.version)
                hub.set(city, state)
                return state
            }
        }
        return await install(city)
    }

    func install(_ city: String) async -> PackState {
        if let job = jobs[city] { return await job.task.value }
        let task = Task { await self.run(city) }
        jobs[city] = Job(task: task)
        let state = await task.value
        jobs[city] = nil
        return state
    }

    /// The whole install of one city; runs as the job's task.
    func run(_ city: String) async -> PackState {
        let installed = PackStore.isValidCity(city) ? store.pointer(city)?.current : nil
        func fail(_ failure: PackFailure) -> PackState {
            let state = PackState.failed(reason: failure, installedVersion: installed)
            hub.set(city, state)
            return state
        }
        guard PackStore.isValidCity(city) else { return fail(PackFailure(.serverError, "\(city) is not a valid city id")) }
        if catalog == nil {
            do { try await refreshCatalog() } catch { return fail(error) }
        }
        guard let catalog, let entry = catalog.packs.first(where: { $0.id == city }) else {
            return fail(PackFailure(.serverError, "\(city) is not in the catalog", status: 404))
        }
        let readerVersion = entry.minReaderVersion ?? entry.formatVersion
        guard readerVersion <= Int(PackSchema.formatVersion) else {
            return fail(PackFailure(.unsupported, "\(city) needs reader format \(readerVersion); this reader reads \(PackSchema.formatVersion)"))
        }
        if let installed, installed >= entry.dataVersion {
            if installed > entry.dataVersion {
                return fail(PackFailure(.olderRelease, "the catalog offers \(city) \(entry.dataVersion); version \(installed) is installed"))
            }
            publishResting(city)
            return hub.state(of: city)
        }
        guard let plan = catalog.download(city: city, installedVersion: configuration.useDeltas ? installed : nil) else {
            return fail(PackFailure(.unsupported, "the catalog has no download of \(city) this reader can use"))
        }
        let needed = Int64(plan.bytes) + Int64(plan.delta?.resultBytes ?? entry.uncompressedBytes ?? plan.bytes * 4) + 64 * 1024
        if let free = (configuration.freeSpace ?? PackStore.freeBytes(at:))(store.root), free < needed {
            return fail(PackFailure(.notEnoughSpace, "needs \(needed) bytes, \(free) free", bytesNeeded: needed))
        }
        hub.set(city, .queued)
        guard await acquireSlot(city), !Task.isCancelled else {
            publishResting(city)
            return hub.state(of: city)
        }
        defer { releaseSlot() }
        var staging: URL?
        do {
            // The partial folder of this version: a download cut short earlier (even by a killed app) goes on
            // from the bytes it kept, with the validator it kept.
            let wanted = PackStore.Partial(
                version: entry.dataVersion, path: plan.path, bytes: plan.bytes, sha256: plan.sha256,
                base: plan.delta == nil ? nil : installed, validator: nil)
            let (folder, partial) = try store.preparePartial(city, wanted)
            staging = folder
            let manifest = try await stage(city, entry: entry, plan: plan, installed: installed, into: folder, partial: partial)
            if Task.isCancelled { throw CancellationError() }
            // The switch: nothing below awaits, so a cancellation cannot interrupt it.
            step("commit")
            // The download and its resume record stay until here, so a run killed while applying goes on from them.
            unlink(folder.appendingPathComponent(PackStore.downloadName(partial)).path)
            unlink(folder.appendingPathComponent(PackStore.resumeName).path)
            try store.commit(staging: folder, city: city, version: manifest.dataVersion)
            staging = nil
            try store.writePointer(PackStore.Pointer(current: manifest.dataVersion, previous: installed), city: city)
            step("switched")
            do {
                try openVersion(city, manifest.dataVersion, options: PackReader.Options(detailCacheLimit: 0)).close()
            } catch {
                // The new version does not open where it now lives: back to the previous one.
                if let installed {
                    try? store.writePointer(PackStore.Pointer(current: installed, previous: nil), city: city)
                } else {
                    unlink(store.cityFolder(city).appendingPathComponent(PackStore.pointerName).path)
                }
                store.removeVersion(city, manifest.dataVersion)
                throw error
            }
            if let installed {
                try? store.writePointer(PackStore.Pointer(current: manifest.dataVersion, previous: nil), city: city)
                store.removeVersion(city, installed)
            }
            let seen = max(memo?.seen[city] ?? 0, manifest.dataVersion)
            memo?.seen[city] = seen
            step("done")
            publishResting(city)
            return hub.state(of: city)
        } catch {
            let cancelled = Task.isCancelled || error is CancellationError
            // A partial download is kept when the network failed it (the next try goes on from its bytes), and
            // dropped when the app cancelled it or its bytes cannot be right (damaged, tampered, refused).
            if let staging {
                let keep = !cancelled && ((error as? PackFailure).map { Self.keepsPartial($0.reason) } ?? false)
                if !keep { store.removeTree(staging) }
            }
            if cancelled {
                publishResting(city)
                return hub.state(of: city)
            }
            if let failure = error as? PackFailure { return fail(failure) }
            if let packError = error as? PackError { return fail(PackFailure(packError)) }
            return fail(PackFailure(.damaged, "\(error)"))
        }
    }

    /// What an install or update of `entry` by `plan` fetches: the manifest (or its patch) and the pack or delta
    /// (the catalog is fetched anyway). The one figure the states show, online and offline.
    static func downloadBytes(entry: Catalog.Entry, plan: UpdateDownload) -> Int64 {
        Int64(plan.bytes) + Int64(plan.manifestPatch?.bytes ?? entry.manifestBytes ?? 0)
    }

    /// Failures after which a partial download's bytes are worth keeping: the network's, not the data's.
    static func keepsPartial(_ reason: PackFailure.Reason) -> Bool {
        switch reason {
        case .offline, .timeout, .serverError: true
        default: false
        }
    }

    nonisolated func step(_ name: String) {
        configuration.testStep?(name)
    }

    /// Fetches and verifies a new version into `folder`: `manifest.json` and `pack.sqlite`, flushed. Off the actor.
    /// - Returns: The verified manifest.
    /// - Throws: ``PackFailure``, or `CancellationError`.
    nonisolated func stage(
        _ city: String, entry: Catalog.Entry, plan: UpdateDownload, installed: Int?, into folder: URL, partial: PackStore.Partial
    ) async throws -> Manifest {
        // 1. The manifest, checked against the trust policy and the catalog entry that named it (one kept by an
        //    earlier try is used when it still passes both checks).
        step("manifest")
        let total = Self.downloadBytes(entry: entry, plan: plan)
        let manifestURL = folder.appendingPathComponent(PackStore.manifestName)
        let trust = PackTrust(publicKeys: configuration.trust?.publicKeys ?? [], installedDataVersion: installed, cityID: city)
        func verified(_ bytes: Data) throws(PackError) -> Manifest {
            let manifest = try PackVerifier.verifyManifest(bytes, path: entry.manifest, trust: trust)
            try PackVerifier.checkCatalogEntry(entry, manifest: manifest, manifestBytes: bytes)
            return manifest
        }
        let download = folder.appendingPathComponent(PackStore.downloadName(partial))
        let manifest: Manifest
        if let kept = FileManager.default.contents(atPath: manifestURL.path), let reused = try? verified(kept) {
            manifest = reused
        } else if let installed, let patch = plan.manifestPatch,
            let patched = try await patchedManifest(city, patch: patch, installed: installed, entry: entry, folder: folder),
            let accepted = try? verified(patched)
        {
            try PackStore.writeAtomically(patched, to: manifestURL)
            manifest = accepted
        } else {
            hub.set(city, .downloading(bytes: Self.size(of: download), total: total))
            unlink(manifestURL.path)
            let manifestResponse = try await fetch(resolve(entry.manifest), to: manifestURL, headers: [:], resume: false) { _ in }
            guard let manifestBytes = FileManager.default.contents(atPath: manifestURL.path) else {
                throw PackFailure(.damaged, "the manifest could not be read back")
            }
            do {
                manifest = try verified(manifestBytes)
            } catch {
                var failure = PackFailure(error)
                if let encoding = Self.contentEncoding(manifestResponse) { failure.message = Self.encodingHint(encoding) + ": " + failure.message }
                throw failure
            }
            try? PackFiles.syncFile(manifestURL.path)
        }
        let manifestBytes = Int64(Self.size(of: manifestURL))
        guard manifest.minReaderVersion <= Int(PackSchema.formatVersion) else {
            throw PackFailure(.unsupported, "\(city) \(manifest.dataVersion) needs reader format \(manifest.minReaderVersion)")
        }
        // 2. The delta or the pack, resumable: bytes kept from an earlier try go on with `Range` + `If-Range` and
        //    the validator recorded then; the validator of each new response is recorded at once (flushed), so a
        //    killed app's next run can go on too.
        step("download")
        let hub = self.hub
        let store = self.store
        let record = PartialRecord(partial)
        // Every byte kept already (a run killed after its download, while applying): checked, not fetched again.
        if Self.size(of: download) == Int64(plan.bytes),
            Self.damage(of: download, name: plan.path, bytes: plan.bytes, sha256: plan.sha256, response: TransportResponse(status: 200, headers: [:], bodyBytes: 0)) == nil
        {
            return try applyStaged(city, plan: plan, installed: installed, folder: folder, download: download, manifest: manifest, manifestURL: manifestURL)
        }
        let response = try await fetch(
            resolve(plan.path), to: download, headers: [:], resume: true, validator: partial.validator,
            onValidator: { validator in
                if let updated = record.update(validator) { try? store.writePartial(updated, in: folder) }
            }
        ) { bytes in
            hub.set(city, .downloading(bytes: min(manifestBytes + bytes, total), total: total))
        }
        if let damage = Self.damage(of: download, name: plan.path, bytes: plan.bytes, sha256: plan.sha256, response: response) {
            throw damage
        }
        try? PackFiles.syncFile(download.path)
        return try applyStaged(city, plan: plan, installed: installed, folder: folder, download: download, manifest: manifest, manifestURL: manifestURL)
    }

    /// The new version's manifest from the installed one's and the catalog's patch (``ManifestPatch``), or nil when
    /// that fails in any way but a cancellation or no network: the caller then fetches the manifest.
    nonisolated func patchedManifest(_ city: String, patch: Catalog.PatchFile, installed: Int, entry: Catalog.Entry, folder: URL) async throws -> Data? {
        guard let base = FileManager.default.contents(atPath: store.manifest(city, installed).path) else { return nil }
        let file = folder.appendingPathComponent("manifest-patch.json")
        defer { unlink(file.path) }
        do {
            _ = try await fetch(resolve(patch.path), to: file, headers: [:], resume: false) { _ in }
        } catch {
            // Cancelled, or no network (the manifest would not come either): as any fetch. Else the manifest.
            if error.reason == .offline || Task.isCancelled { throw error }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file.path), data.count == patch.bytes,
            FileDigest.sha256(of: data) == patch.sha256,
            let decoded = try? JSONDecoder().decode(ManifestPatch.self, from: data),
            decoded.city == city, decoded.from == installed, decoded.to == entry.dataVersion,
            let expected = entry.manifestSha256,
            let bytes = try? decoded.apply(to: [UInt8](base), expected: expected, sha256: { FileDigest.sha256(of: $0) })
        else { return nil }
        return Data(bytes)
    }

    /// 3. Apply: decompress or patch the verified download into the staging folder, then open it as the app will.
    nonisolated func applyStaged(
        _ city: String, plan: UpdateDownload, installed: Int?, folder: URL, download: URL, manifest: Manifest, manifestURL: URL
    ) throws -> Manifest {
        step("apply")
        hub.set(city, .applying)
        let database = folder.appendingPathComponent(PackStore.databaseName)
        do {
            if let delta = plan.delta, let installed {
                let result = try PackInstaller.deltaResult(installedPack: store.database(city, installed), delta: download, expected: delta)
                try PackInstaller.writeFlushed(result.bytes, to: database.path)
            } else {
                try PackOpener.decompress(download.path, to: database.path, manifest: manifest, maxBytes: manifest.artifact.uncompressedBytes)
                try PackFiles.syncFile(database.path)
            }
            try PackFiles.syncFile(manifestURL.path)
            PackFiles.syncDirectory(folder.path)
            var options = PackReader.Options(manifest: manifest, detailCacheLimit: 0)
            options.verifiedManifest = manifest
            try PackReader.open(database, options: options).close()
        } catch {
            throw PackFailure(error)
        }
        return manifest
    }

    nonisolated func resolve(_ path: String) -> URL {
        URL(string: path, relativeTo: configuration.catalogURL)?.absoluteURL ?? configuration.catalogURL.appendingPathComponent(path)
    }

    // MARK: - Download slots

    func acquireSlot(_ city: String) async -> Bool {
        if running < configuration.maxConcurrentDownloads {
            running += 1
            return true
        }
        return await withCheckedContinuation { continuation in waiting.append((city, continuation)) }
    }

    func releaseSlot() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().continuation.resume(returning: true)
        }
    }

    /// Removes a queued city from the wait list (its job then ends without downloading).
    func dequeue(_ city: String) {
        while let index = waiting.firstIndex(where: { $0.city == city }) {
            waiting.remove(at: index).continuation.resume(returning: false)
        }
    }
}

extension PackFailure {
    /// Marks a cancelled operation inside the library (never reported as a state).
    static let cancelled = PackFailure(.offline, "cancelled")
}
