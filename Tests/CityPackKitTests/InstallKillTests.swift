import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// `citypack install` killed (SIGKILL) at random moments of an update, 50 times (issue 30): each time the last
/// good version opens, the next start removes what the killed run left but a partial download with its resume
/// record (issue 42), the city shows as paused with the bytes kept, and the next install goes on from them:
/// it fetches no more than the bytes not yet verified plus the manifest.
@Suite(.serialized) struct InstallKillTests {
    /// The `citypack` binary beside the test bundle (what `swift build` built).
    static let binary = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("citypack")
    static var binaryBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    static func arguments(_ proxy: URL, store: URL, log: URL, key: URL, full: Bool) -> [String] {
        [
            "install", proxy.appendingPathComponent("catalog.json").absoluteString, "monaco", "--store", store.path,
            "--public-key", key.path, "--format", "json", "--retry-delay", "0.05", "--stall-timeout", "5",
            // 15 ms at each step and 15 ms after each received chunk: kills land in every phase.
            "--test-phase-log", log.path, "--test-step-delay-us", "15000", "--test-throttle-us", "15000",
        ] + (full ? ["--no-delta"] : [])
    }

    static func size(_ url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func manifestBytes(_ fixture: LibraryFixture) -> Int {
        Int(size(fixture.served.appendingPathComponent("monaco/monaco-2.manifest.json")))
    }

    static func catalogBytes(_ fixture: LibraryFixture) -> Int {
        Int(size(fixture.served.appendingPathComponent("catalog.json")))
    }

    static func lines(_ url: URL) -> [String] {
        (try? String(contentsOf: url, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    static func pointer(_ store: URL) -> Int? {
        guard let data = FileManager.default.contents(atPath: store.appendingPathComponent("monaco/current.json").path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["current"] as? Int
    }

    /// Runs an install; once it has logged its first step, waits `delay` seconds and kills it unless it finished.
    static func run(_ arguments: [String], log: URL, delay: Double?) throws -> (killed: Bool, status: Int32, stdout: String, seconds: Double) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning && lines(log).isEmpty { usleep(1000) }
        let start = Date()
        var killed = false
        if let delay {
            usleep(UInt32(delay * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (killed && process.terminationReason == .uncaughtSignal, process.terminationStatus,
            String(decoding: stdout, as: UTF8.self), Date().timeIntervalSince(start))
    }

    @Test(.enabled(if: FaultServer.available, FaultServer.reason), .enabled(if: binaryBuilt, "needs the citypack binary (swift build)"))
    func fiftyRandomKillsNeverLoseTheInstalledCity() async throws {
        let fixture = try LibraryFixture.get()
        let server = try FaultServer(root: fixture.served)
        defer { server.stop() }
        let work = try TestPaths.temporaryDirectory("install-kill")
        defer { try? FileManager.default.removeItem(at: work) }
        let template = work.appendingPathComponent("template")
        var configuration = FaultTableTests.configuration(fixture, proxy: server.proxy, root: template, catalog: "catalog-v1.json")
        configuration.retryDelay = 0.01
        #expect(await (try PackLibrary(configuration: configuration)).download("monaco") == .onDisk(version: 1))
        var round = 0
        func fresh() throws -> (store: URL, log: URL) {
            round += 1
            let store = work.appendingPathComponent("store-\(round)")
            try FileManager.default.copyItem(at: template, to: store)
            return (store, work.appendingPathComponent("phases-\(round).log"))
        }

        // How long an update takes from its first step (delta and full pack), uninterrupted.
        var duration: [Bool: Double] = [:]
        for full in [false, true] {
            let (store, log) = try fresh()
            let r = try Self.run(Self.arguments(server.proxy, store: store, log: log, key: fixture.publicKeyFile, full: full), log: log, delay: nil)
            let output = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
            #expect(r.status == 0 && output["state"] as? String == "on_disk" && output["version"] as? Int == 2, "\(r.stdout)")
            print("INSTALL swift \(full ? "full pack" : "delta"): \(output["bytesDownloaded"] ?? "?") bytes downloaded (catalog, manifest and \(full ? "pack" : "delta"))")
            #expect(Self.lines(log) == ["manifest", "download", "apply", "commit", "switched", "done"])
            duration[full] = r.seconds
        }

        let seed = UInt64(ProcessInfo.processInfo.environment["CITYPACK_KILL_SEED"] ?? "") ?? 20_261_126
        var random = SplitMix64(seed: seed)
        var kills = 0, completed = 0
        var phases: [String: Int] = [:]
        var cleanedEntries = 0, killsThatLeftDebris = 0, openedV1 = 0, openedV2 = 0
        var kinds: [String: Int] = [:]
        var paused = 0, refetched = 0, savedByResume = 0
        while kills < 50 && round < 160 {
            let (store, log) = try fresh()
            let full = round % 2 == 0
            let delay = random.unit() * (duration[full] ?? 0.3) * 0.9
            let r = try Self.run(Self.arguments(server.proxy, store: store, log: log, key: fixture.publicKeyFile, full: full), log: log, delay: delay)
            guard r.killed else {
                completed += 1
                #expect(r.status == 0, "round \(round): install failed: \(r.stdout)")
                continue
            }
            kills += 1
            let steps = Self.lines(log)
            let pointer = Self.pointer(store)
            let phase: String
            if pointer == 2 || ["commit", "switched", "done"].contains(steps.last ?? "") {
                phase = "after-switch"
            } else if steps.last == "apply" {
                phase = "apply"
            } else {
                phase = "download"
            }
            phases[phase, default: 0] += 1
            #expect(pointer == 1 || pointer == 2, "round \(round) (seed \(seed)): the pointer is \(String(describing: pointer))")

            // The next start: `citypack installed` cleans up and lists the city at the pointer's version.
            let next = try ProcessRun.run(Self.binary, ["installed", "--store", store.path, "--format", "json"], environment: [:], cwd: work)
            #expect(next.status == 0, "round \(round): \(next.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any] ?? [:]
            let removed = (report["cleaned"] as? [String: Any])?["removed"] as? [String] ?? []
            let listed = (report["installed"] as? [[String: Any]])?.first?["version"] as? Int
            #expect(listed == pointer, "round \(round): installed lists \(String(describing: listed)), the pointer says \(String(describing: pointer))")
            cleanedEntries += removed.count
            if !removed.isEmpty { killsThatLeftDebris += 1 }
            for entry in removed {
                let name = entry.split(separator: "/").last.map(String.init) ?? entry
                let kind = name.hasPrefix(".staging") ? "staging" : name.hasPrefix("v") ? "version" : "temporary"
                kinds[kind, default: 0] += 1
            }
            // The last good version opens and answers; besides it only a partial download may be left.
            var options = FaultTableTests.configuration(fixture, proxy: server.proxy, root: store)
            options.maxRetries = 0
            options.useDeltas = !full  // as the killed run (`--no-delta` for the full pack)
            let library = try PackLibrary(configuration: options)
            #expect(library.cleanup.removed.isEmpty, "round \(round): debris after the first cleanup: \(library.cleanup.removed)")
            let opened = await LibraryFixture.opens(library)
            #expect(opened == pointer, "round \(round) (seed \(seed), kill \(delay) s after \(steps)): opened \(String(describing: opened))")
            if opened == 1 { openedV1 += 1 } else if opened == 2 { openedV2 += 1 }
            let entries = try FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("monaco").path).sorted()
            let partialFolder = store.appendingPathComponent("monaco/.partial-v2")
            let kept = entries.contains(".partial-v2")
            #expect(entries.filter { $0 != ".partial-v2" } == ["current.json", "v\(pointer ?? 0)"], "round \(round): \(entries)")
            let keptBytes = Self.size(partialFolder.appendingPathComponent(full ? "pack.citypack.gz" : "update.delta"))
            let keptManifest = FileManager.default.fileExists(atPath: partialFolder.appendingPathComponent("manifest.json").path)
            // The state says where the download stands.
            let state = library.state(of: "monaco")
            if kept, pointer == 1, FileManager.default.fileExists(atPath: partialFolder.appendingPathComponent("resume.json").path) {
                guard case .paused(2, let bytes, let total, 1) = state else {
                    Issue.record("round \(round): a kept partial download but state \(state)")
                    continue
                }
                // An update fetches the manifest patch instead of the manifest (the full pack: the manifest).
                let manifestCost = full ? Self.manifestBytes(fixture) : fixture.patchBytes
                #expect(total == Int64((full ? fixture.v2.artifact.bytes : fixture.delta.bytes) + manifestCost))
                #expect(bytes == keptBytes + (keptManifest ? Int64(manifestCost) : 0), "round \(round)")
                paused += 1
            }
            // The next install goes on: it fetches at most what was not yet kept, plus the manifest (and the
            // catalog, which every run revalidates).
            let resumed = try Self.run(Self.arguments(server.proxy, store: store, log: log, key: fixture.publicKeyFile, full: full), log: log, delay: nil)
            let output = try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any] ?? [:]
            #expect(output["state"] as? String == "on_disk" && output["version"] as? Int == 2, "round \(round): \(resumed.stdout)")
            let fetched = (output["bytesDownloaded"] as? Int) ?? Int.max
            let planBytes = full ? fixture.v2.artifact.bytes : fixture.delta.bytes
            let allowed = pointer == 2 ? Self.catalogBytes(fixture)
                : Self.catalogBytes(fixture) + Self.manifestBytes(fixture) + planBytes - Int(keptBytes)
            #expect(fetched <= allowed, "round \(round): fetched \(fetched) bytes after the kill, allowed \(allowed) (\(keptBytes) kept)")
            refetched += max(0, fetched - Self.catalogBytes(fixture))
            savedByResume += Int(keptBytes)
            try? FileManager.default.removeItem(at: store)
        }
        let kindText = kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print(
            "KILLS: \(kills); download \(phases["download"] ?? 0), apply \(phases["apply"] ?? 0), after-switch \(phases["after-switch"] ?? 0); "
                + "cleaned \(cleanedEntries) entries after \(killsThatLeftDebris) kills (\(kindText)); "
                + "opened v1 \(openedV1), v2 \(openedV2); \(completed) runs finished before the kill (seed \(seed)); "
                + "\(paused) paused after the kill, resumed runs fetched \(refetched) bytes beyond the catalog and kept \(savedByResume)")
        #expect(kills == 50)
        #expect((phases["download"] ?? 0) > 0 && (phases["apply"] ?? 0) > 0 && (phases["after-switch"] ?? 0) > 0, "\(phases)")
    }
}
