import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// A city's two signed releases served from one folder (as `citypack build --sign-key` writes them), what the
/// kill campaigns of ``InstallKillTests`` run against.
struct KillSubject {
    /// The served folder: `catalog.json` (version 2, listing the delta and manifest patch 1→2) and
    /// `catalog-v1.json` (version 1).
    let served: URL
    let city: String
    let publicKey: Data
    let publicKeyFile: URL
    /// A search that finds something in both versions (the installed city opens and answers).
    let probe: String

    func size(_ relative: String) -> Int { Int(InstallKillTests.size(served.appendingPathComponent(relative))) }
    var catalogBytes: Int { size("catalog.json") }
    var manifestBytes: Int { size("\(city)/\(city)-2.manifest.json") }
    var patchBytes: Int { size("\(city)/\(city)-1-2.manifest-patch.json") }
    var packBytes: Int { size("\(city)/\(city)-2.citypack.gz") }
    var deltaBytes: Int { size("\(city)/\(city)-1-2.delta") }

    /// The library configuration of the fault tests, reading `catalog` through `proxy`.
    func configuration(proxy: URL, root: URL, catalog: String = "catalog.json") -> PackLibrary.Configuration {
        var configuration = PackLibrary.Configuration(
            catalogURL: proxy.appendingPathComponent(catalog), storageRoot: root,
            trust: PackTrust(publicKeys: [publicKey]), transport: URLSessionTransport(stallTimeout: 0.5))
        configuration.maxRetries = 2
        configuration.retryDelay = 0.05
        return configuration
    }

    /// The data version the installed city opens at (offline, answering the probe), nil when it does not.
    func opens(_ library: PackLibrary) async -> Int? {
        do {
            let reader = try await library.open(city)
            defer { reader.close() }
            guard try !reader.search(probe, limit: 5).isEmpty else { return nil }
            return reader.meta.dataVersion
        } catch { return nil }
    }
}

/// `citypack install` killed (SIGKILL) at random moments, `kills` times, over rounds that take turns between the
/// given kinds of download: after each kill the last good version opens (or nothing, before a first install), the
/// next start keeps only a partial download with its resume record, the state says where the download stands,
/// and the next install fetches no more than what was not yet kept plus the manifest (or its patch).
struct KillCampaign {
    enum Kind: String, CaseIterable {
        /// Nothing installed: the pack.
        case first
        /// Version 1 installed: the delta and the manifest patch.
        case delta
        /// Version 1 installed, `--no-delta`: the full pack and the manifest.
        case full
    }

    let subject: KillSubject
    let kinds: [Kind]
    let kills: Int
    let seed: UInt64
    /// Microseconds the killed runs wait at each step and after each received chunk (kills land in every phase).
    var throttle = 15_000

    func arguments(_ proxy: URL, store: URL, log: URL, kind: Kind) -> [String] {
        [
            "install", proxy.appendingPathComponent("catalog.json").absoluteString, subject.city, "--store", store.path,
            "--public-key", subject.publicKeyFile.path, "--format", "json", "--retry-delay", "0.05", "--stall-timeout", "5",
            "--test-phase-log", log.path, "--test-step-delay-us", "\(throttle)", "--test-throttle-us", "\(throttle)",
        ] + (kind == .full ? ["--no-delta"] : [])
    }

    /// What a whole download of `kind` fetches after the catalog: the manifest or its patch, and the pack or delta.
    func planBytes(_ kind: Kind) -> (manifest: Int, file: Int) {
        switch kind {
        case .first: (subject.manifestBytes, subject.packBytes)
        case .delta: (subject.patchBytes, subject.deltaBytes)
        case .full: (subject.manifestBytes, subject.packBytes)
        }
    }

    func pointer(_ store: URL) -> Int? {
        guard let data = FileManager.default.contents(atPath: store.appendingPathComponent("\(subject.city)/current.json").path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["current"] as? Int
    }

    /// Runs the campaign (kills of each kind in turn, `kills / kinds.count` of each at least); returns the kills by phase (download, apply, after-switch) and a one-line summary.
    func run() async throws -> (phases: [String: Int], summary: String) {
        let city = subject.city
        let server = try FaultServer(root: subject.served)
        defer { server.stop() }
        let work = try TestPaths.temporaryDirectory("install-kill-\(city)")
        defer { try? FileManager.default.removeItem(at: work) }
        let withV1 = work.appendingPathComponent("template-v1")
        var setup = subject.configuration(proxy: server.proxy, root: withV1, catalog: "catalog-v1.json")
        setup.retryDelay = 0.01
        #expect(await (try PackLibrary(configuration: setup)).download(city) == .onDisk(version: 1))
        var round = 0
        func fresh(_ kind: Kind) throws -> (store: URL, log: URL) {
            round += 1
            let store = work.appendingPathComponent("store-\(round)")
            if kind == .first {
                try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            } else {
                try FileManager.default.copyItem(at: withV1, to: store)
            }
            return (store, work.appendingPathComponent("phases-\(round).log"))
        }

        // How long each kind takes from its first step, uninterrupted.
        var duration: [Kind: Double] = [:]
        for kind in kinds {
            let (store, log) = try fresh(kind)
            let r = try InstallKillTests.run(arguments(server.proxy, store: store, log: log, kind: kind), log: log, delay: nil)
            let output = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
            #expect(r.status == 0 && output["state"] as? String == "on_disk" && output["version"] as? Int == 2, "\(city) \(kind): \(r.stdout)")
            let plan = planBytes(kind)
            #expect(output["bytesDownloaded"] as? Int == subject.catalogBytes + plan.manifest + plan.file, "\(city) \(kind): \(r.stdout)")
            print("INSTALL swift \(city) \(kind): \(output["bytesDownloaded"] ?? "?") bytes downloaded in \(Int(r.seconds * 1000)) ms (catalog, \(kind == .delta ? "manifest patch and delta" : "manifest and pack"))")
            #expect(InstallKillTests.lines(log) == ["manifest", "download", "apply", "commit", "switched", "done"])
            duration[kind] = r.seconds
        }

        var random = SplitMix64(seed: seed)
        var killed = 0, completed = 0, paused = 0, refetched = 0, keptTotal = 0, debris = 0
        var phases: [String: Int] = [:]
        var opened: [Int: Int] = [:]
        var byKind: [Kind: Int] = [:]
        var worst = Int.min
        // Each kind gets its share of the kills (a run that finished before its kill does not count).
        let quota = (kills + kinds.count - 1) / kinds.count
        while let kind = kinds.first(where: { byKind[$0, default: 0] < quota }), round < kills * 4 {
            let (store, log) = try fresh(kind)
            let delay = random.unit() * (duration[kind] ?? 0.3) * 0.9
            let r = try InstallKillTests.run(arguments(server.proxy, store: store, log: log, kind: kind), log: log, delay: delay)
            guard r.killed else {
                completed += 1
                try? FileManager.default.removeItem(at: store)
                continue
            }
            killed += 1
            byKind[kind, default: 0] += 1
            let installed = kind == .first ? nil : 1 as Int?
            let steps = InstallKillTests.lines(log)
            let pointer = pointer(store)
            let phase = pointer == 2 || ["commit", "switched", "done"].contains(steps.last ?? "")
                ? "after-switch" : steps.last == "apply" ? "apply" : "download"
            phases[phase, default: 0] += 1
            #expect(pointer == installed || pointer == 2, "\(city) round \(round) (seed \(seed)): the pointer is \(String(describing: pointer))")

            // The next start: `citypack installed` cleans up and lists the city at the pointer's version.
            let next = try ProcessRun.run(InstallKillTests.binary, ["installed", "--store", store.path, "--format", "json"], environment: [:], cwd: work)
            #expect(next.status == 0, "round \(round): \(next.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any] ?? [:]
            if !((report["cleaned"] as? [String: Any])?["removed"] as? [String] ?? []).isEmpty { debris += 1 }
            let listed = (report["installed"] as? [[String: Any]])?.first?["version"] as? Int
            #expect(listed == pointer, "round \(round): installed lists \(String(describing: listed)), the pointer says \(String(describing: pointer))")

            // The last good version (if any) opens and answers; besides it only a partial download may be left.
            var options = subject.configuration(proxy: server.proxy, root: store)
            options.maxRetries = 0
            options.useDeltas = kind != .full
            let library = try PackLibrary(configuration: options)
            #expect(library.cleanup.removed.isEmpty, "round \(round): debris after the first cleanup: \(library.cleanup.removed)")
            let opens = await subject.opens(library)
            #expect(opens == pointer, "\(city) round \(round) (seed \(seed), kill \(delay) s after \(steps)): opened \(String(describing: opens))")
            opened[opens ?? 0, default: 0] += 1
            let folder = store.appendingPathComponent(city)
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            let partial = folder.appendingPathComponent(".partial-v2")
            let installedEntries = pointer.map { ["current.json", "v\($0)"] } ?? []
            #expect(entries.filter { $0 != ".partial-v2" } == installedEntries, "round \(round): \(entries)")
            let plan = planBytes(kind)
            let keptBytes = Int(InstallKillTests.size(partial.appendingPathComponent(kind == .delta ? "update.delta" : "pack.citypack.gz")))
            let keptManifest = FileManager.default.fileExists(atPath: partial.appendingPathComponent("manifest.json").path)
            // The state says where the download stands.
            if pointer == installed, FileManager.default.fileExists(atPath: partial.appendingPathComponent("resume.json").path) {
                guard case .paused(2, let bytes, let total, installed) = library.state(of: city) else {
                    Issue.record("\(city) round \(round): a kept partial download but state \(library.state(of: city))")
                    continue
                }
                #expect(total == Int64(plan.manifest + plan.file))
                #expect(bytes == Int64(keptBytes + (keptManifest ? plan.manifest : 0)), "round \(round)")
                paused += 1
            }
            // The next install goes on: it fetches at most what was not yet kept plus the manifest (or its patch)
            // and the catalog, which every run revalidates.
            let resumed = try InstallKillTests.run(arguments(server.proxy, store: store, log: log, kind: kind), log: log, delay: nil)
            let output = try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any] ?? [:]
            #expect(output["state"] as? String == "on_disk" && output["version"] as? Int == 2, "\(city) round \(round): \(resumed.stdout)")
            let fetched = (output["bytesDownloaded"] as? Int) ?? Int.max
            let notKept = plan.manifest + plan.file - keptBytes
            let allowed = pointer == 2 ? subject.catalogBytes : subject.catalogBytes + notKept
            #expect(fetched <= allowed, "\(city) round \(round): fetched \(fetched) bytes after the kill, allowed \(allowed) (\(keptBytes) kept)")
            worst = max(worst, fetched - allowed)
            refetched += max(0, fetched - subject.catalogBytes)
            keptTotal += keptBytes
            try? FileManager.default.removeItem(at: store)
        }
        #expect(kinds.allSatisfy { byKind[$0, default: 0] >= quota }, "\(city): \(byKind) kills in \(round) rounds")
        #expect((phases["download"] ?? 0) > 0, "\(phases)")
        let openedText = opened.sorted { $0.key < $1.key }.map { "\($0.key == 0 ? "nothing" : "v\($0.key)") \($0.value)" }.joined(separator: ", ")
        let kindText = kinds.map { "\($0.rawValue) \(byKind[$0, default: 0])" }.joined(separator: ", ")
        return (phases, "KILLS \(city): \(killed) (\(kindText); seed \(seed)); download \(phases["download"] ?? 0), "
            + "apply \(phases["apply"] ?? 0), after-switch \(phases["after-switch"] ?? 0); \(completed) runs finished first; "
            + "debris cleaned after \(debris); opened \(openedText); \(paused) paused; resumed runs fetched \(refetched) bytes beyond "
            + "the catalog and kept \(keptTotal); worst run fetched \(worst) bytes against its allowance (≤ 0 holds)")
    }
}
