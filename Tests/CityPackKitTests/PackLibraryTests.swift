import CityPackKit
import CityPackSupport
import CityPackTestSupport
import Foundation
import Testing

/// The pack library's state machine over a fake transport (no network; fast): install, update by delta, resume,
/// retries, every failure reason, cancel, remove, and the cleanup of what a killed run leaves.
@Suite struct PackLibraryTests {
    /// A library on a store holding Monaco v1, reading the current catalog (v2 with the delta 1→2).
    static func libraryWithV1(_ configure: (inout PackLibrary.Configuration) -> Void = { _ in }) async throws
        -> (PackLibrary, FakeTransport, LibraryFixture)
    {
        let fixture = try LibraryFixture.get()
        let transport = FakeTransport(root: fixture.served)
        let root = try await fixture.storeWithV1(transport: transport)
        var configuration = PackLibrary.Configuration(
            catalogURL: fixture.served.appendingPathComponent("catalog.json"), storageRoot: root,
            trust: PackTrust(publicKeys: [fixture.publicKey]), transport: transport)
        configuration.retryDelay = 0.001
        configuration.maxRetries = 2
        configure(&configuration)
        return (try PackLibrary(configuration: configuration), transport, fixture)
    }

    /// The names of the entries of Monaco's folder in the store.
    static func cityFolder(_ library: PackLibrary) -> [String] {
        let folder = library.configuration.storageRoot.appendingPathComponent("monaco")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func anUpdateFetchesTheDeltaAndSwitchesVersions() async throws {
        let (library, transport, fixture) = try await Self.libraryWithV1()
        #expect(library.state(of: "monaco") == .onDisk(version: 1))
        let stream = library.states
        let observed = Task {
            var kinds: [String] = []
            for await change in stream where change.city == "monaco" {
                if kinds.last != change.state.kind { kinds.append(change.state.kind) }
                if case .onDisk(2) = change.state { break }
            }
            return kinds
        }
        try await library.refreshCatalog()
        #expect(library.state(of: "monaco") == .onDiskOutOfDate(version: 1, update: 2, updateBytes: fixture.updateBytes))
        transport.clearLog()
        let state = await library.update("monaco")
        #expect(state == .onDisk(version: 2))
        let kinds = await observed.value
        #expect(kinds == ["on_disk", "on_disk_out_of_date", "queued", "downloading", "applying", "on_disk"], "\(kinds)")
        let paths = transport.log.map(\.path)
        // The manifest patch 1→2 instead of the manifest: the update costs what changed.
        #expect(paths == ["/monaco/monaco-1-2.manifest-patch.json", "/monaco/monaco-1-2.delta"], "\(paths)")
        #expect(fixture.patchBytes > 0)
        #expect(transport.log.reduce(Int64(0)) { $0 + $1.bytes } == Int64(fixture.updateBytes))
        #expect(Self.cityFolder(library) == ["current.json", "v2"])
        let installed = library.installed()
        #expect(installed.count == 1 && installed[0].city == "monaco" && installed[0].version == 2)
        #expect(installed[0].bytesOnDisk > Int64(fixture.v2.artifact.uncompressedBytes))
        let reader = try await library.open("monaco")
        defer { reader.close() }
        #expect(try reader.search(LibraryFixture.renamed.to, limit: 3).contains { $0.name == LibraryFixture.renamed.to })
        print("native one-POI update: delta \(fixture.delta.bytes) bytes, full pack \(fixture.v2.artifact.bytes) bytes")
    }

    /// A patch that does not give the catalog's manifest (a flipped byte, a 404, another file) is not an error: the
    /// library fetches the manifest instead and the update installs.
    @Test(arguments: ["flip", "404", "replace"])
    func aPatchThatFailsFallsBackToTheManifest(fault: String) async throws {
        let (library, transport, fixture) = try await Self.libraryWithV1()
        try await library.refreshCatalog()
        switch fault {
        case "flip": transport.add(".manifest-patch.json", .flip(at: 40))
        case "404": transport.add(".manifest-patch.json", .status(404))
        default: transport.add(".manifest-patch.json", .replace(fixture.served.appendingPathComponent("monaco/monaco-1.manifest.json")))
        }
        transport.clearLog()
        let state = await library.update("monaco")
        #expect(state == .onDisk(version: 2), "\(fault): \(state)")
        let paths = transport.log.map(\.path)
        #expect(paths == ["/monaco/monaco-1-2.manifest-patch.json", "/monaco/monaco-2.manifest.json", "/monaco/monaco-1-2.delta"], "\(fault): \(paths)")
        #expect(await LibraryFixture.opens(library) == 2)
    }

    /// Offline while fetching the patch is offline (the manifest would not come either): one failure, no fallback.
    @Test func offlineDuringThePatchIsOffline() async throws {
        let (library, transport, _) = try await Self.libraryWithV1()
        try await library.refreshCatalog()
        transport.add(".manifest-patch.json", .offline)
        transport.clearLog()
        let state = await library.update("monaco")
        guard case .failed(let failure, 1) = state else {
            Issue.record("\(state)")
            return
        }
        #expect(failure.reason == .offline)
        #expect(!transport.log.contains { $0.path.hasSuffix("monaco-2.manifest.json") })
        #expect(await LibraryFixture.opens(library) == 1)
    }

    @Test func aSecondRefreshIsConditionalAnd304KeepsTheCatalog() async throws {
        let (library, transport, _) = try await Self.libraryWithV1()
        let first = try await library.refreshCatalog()
        transport.clearLog()
        let second = try await library.refreshCatalog()
        #expect(first == second)
        let request = try #require(transport.log.first)
        #expect(request.headers["If-None-Match"] == FakeTransport.etag(try Data(contentsOf: library.configuration.catalogURL)))
        #expect(request.status == 304)
    }

    @Test func aCutTransferResumesWithRangeAndIfRange() async throws {
        let (library, transport, _) = try await Self.libraryWithV1()
        transport.add(".delta", .cut(at: 200), times: 1)
        #expect(await library.update("monaco") == .onDisk(version: 2))
        let delta = transport.log.filter { $0.path.hasSuffix(".delta") }
        #expect(delta.count == 2)
        #expect(delta.last?.headers["Range"] == "bytes=200-")
        #expect(delta.last?.headers["If-Range"] != nil && delta.last?.status == 206)
    }

    @Test func aValidatorThatChangedRestartsFromZero() async throws {
        let (library, transport, _) = try await Self.libraryWithV1()
        transport.add(".delta", .cut(at: 200), times: 1)
        transport.add(".delta", .newValidator, times: 1)
        #expect(await library.update("monaco") == .onDisk(version: 2))
        let delta = transport.log.filter { $0.path.hasSuffix(".delta") }
        #expect(delta.count == 2 && delta.last?.headers["Range"] == "bytes=200-" && delta.last?.status == 200)
    }

    static let faults: [(name: String, fault: FakeTransport.Fault, reason: PackFailure.Reason)] = [
        ("stall", .stall(at: 100), .timeout),
        ("truncate", .truncate(at: 100), .damaged),
        ("flip", .flip(at: 100), .damaged),
        ("encoding", .encoding, .damaged),
        ("404", .status(404), .serverError),
        ("500", .status(500), .serverError),
        ("offline", .offline, .offline),
    ]

    @Test(arguments: 0..<7)
    func aFailedUpdateKeepsTheInstalledVersion(index: Int) async throws {
        let (name, fault, reason) = Self.faults[index]
        let (library, transport, _) = try await Self.libraryWithV1()
        try await library.refreshCatalog()
        transport.add(".delta", fault)
        let state = await library.update("monaco")
        guard case .failed(let failure, let installed) = state else {
            Issue.record("\(name): \(state)")
            return
        }
        #expect(failure.reason == reason, "\(name): \(failure)")
        #expect(installed == 1)
        if name == "encoding" { #expect(failure.message.contains("Content-Encoding: gzip"), "\(failure.message)") }
        if case .status(let code) = fault { #expect(failure.status == code) }
        if name == "500" || name == "offline" || name == "stall" {
            // Retried: the first attempt and maxRetries more.
            #expect(transport.log.filter { $0.path.hasSuffix(".delta") }.count == 3)
        }
        // A network failure keeps the partial download (the next try goes on from it); bytes that cannot be
        // right are dropped.
        let kept = [PackFailure.Reason.offline, .timeout, .serverError].contains(reason)
        #expect(Self.cityFolder(library) == (kept ? [".partial-v2"] : []) + ["current.json", "v1"], "\(name): \(Self.cityFolder(library))")
        #expect(await LibraryFixture.opens(library) == 1)
        if kept {
            // After a restart the city is paused at what was kept, and cancel drops it.
            let again = try PackLibrary(configuration: library.configuration)
            guard case .paused(2, _, let total, 1) = again.state(of: "monaco") else {
                Issue.record("\(name): after a restart \(again.state(of: "monaco"))")
                return
            }
            #expect(total == Int64((try LibraryFixture.get()).updateBytes))
            await again.cancel("monaco")
            #expect(Self.cityFolder(again) == ["current.json", "v1"])
            #expect(again.state(of: "monaco") == .onDiskOutOfDate(version: 1, update: 2, updateBytes: (try LibraryFixture.get()).updateBytes))
        }
    }

    /// A paused download of a version the catalog no longer offers is dropped when a catalog is accepted; one of
    /// the version it offers stays.
    @Test func aPausedDownloadTheCatalogNoLongerOffersIsDropped() async throws {
        let (library, _, fixture) = try await Self.libraryWithV1()
        let folder = library.configuration.storageRoot.appendingPathComponent("monaco")
        for version in [2, 7] {
            let partial = folder.appendingPathComponent(".partial-v\(version)")
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            let record = #"{"base":1,"bytes":\#(fixture.delta.bytes),"path":"monaco/x.delta","sha256":"00","version":\#(version)}"#
            try Data(record.utf8).write(to: partial.appendingPathComponent("resume.json"))
        }
        try await library.refreshCatalog()
        #expect(Self.cityFolder(library) == ["current.json", "v1"], "the catalog offers 2, but with another file; 7 not at all")
    }

    /// A new version that does not open where it was switched in (here: its database damaged right after the
    /// switch) goes back to the installed one: the pointer names version 1 again, version 1 opens, version 2 is
    /// gone, and the state is failed with version 1 installed.
    @Test func aVersionThatFailsToOpenAfterTheSwitchGoesBack() async throws {
        let (library, _, _) = try await Self.libraryWithV1 { configuration in
            let root = configuration.storageRoot
            configuration.testStep = { step in
                guard step == "switched" else { return }
                let database = root.appendingPathComponent("monaco/v2/pack.sqlite")
                if let handle = FileHandle(forWritingAtPath: database.path) {
                    handle.truncateFile(atOffset: 1000)
                    try? handle.close()
                }
            }
        }
        try await library.refreshCatalog()
        let state = await library.update("monaco")
        guard case .failed(let failure, 1) = state else {
            Issue.record("\(state)")
            return
        }
        #expect(failure.reason == .damaged, "\(failure)")
        #expect(Self.cityFolder(library) == ["current.json", "v1"])
        #expect(await LibraryFixture.opens(library) == 1)
    }

    @Test func anOlderSignedCatalogIsRefused() async throws {
        let (library, transport, fixture) = try await Self.libraryWithV1()
        #expect(await library.update("monaco") == .onDisk(version: 2))
        transport.add("catalog.json", .replace(fixture.served.appendingPathComponent("catalog-v1.json")))
        await #expect(throws: PackFailure.self) { try await library.refreshCatalog() }
        guard case .failed(let failure, 2) = library.state(of: "monaco") else {
            Issue.record("\(library.state(of: "monaco"))")
            return
        }
        #expect(failure.reason == .olderRelease)
        #expect(await library.catalog?.packs.first?.dataVersion == 2)
        #expect(await LibraryFixture.opens(library) == 2)
    }

    @Test func anotherKeyIsTampered() async throws {
        let (library, _, _) = try await Self.libraryWithV1 { $0.trust = PackTrust(publicKeys: [Data(repeating: 7, count: 32)]) }
        do {
            try await library.refreshCatalog()
            Issue.record("an untrusted catalog was accepted")
        } catch {
            #expect(error.reason == .tampered)
        }
    }

    /// `downloadLatest`: an unreachable catalog falls back to the cached one; a refused one fails the download and
    /// downloads nothing, the installed version staying.
    @Test func downloadLatestUsesTheCachedCatalogOfflineAndStopsAtARefusedOne() async throws {
        let (library, transport, fixture) = try await Self.libraryWithV1()
        try await library.refreshCatalog()
        transport.add("catalog.json", .offline)
        #expect(await library.downloadLatest("monaco") == .onDisk(version: 2))

        let (refusing, refusingTransport, _) = try await Self.libraryWithV1()
        #expect(await refusing.update("monaco") == .onDisk(version: 2))
        refusingTransport.add("catalog.json", .replace(fixture.served.appendingPathComponent("catalog-v1.json")))
        refusingTransport.clearLog()
        guard case .failed(let failure, 2) = await refusing.downloadLatest("monaco") else {
            Issue.record("\(refusing.state(of: "monaco"))")
            return
        }
        #expect(failure.reason == .olderRelease)
        #expect(refusingTransport.log.map(\.path).allSatisfy { $0.hasSuffix("catalog.json") }, "\(refusingTransport.log.map(\.path))")
        #expect(await LibraryFixture.opens(refusing) == 2)
    }

    @Test func tooLittleSpaceFailsBeforeDownloading() async throws {
        let (library, transport, _) = try await Self.libraryWithV1 { $0.freeSpace = { _ in 1000 } }
        try await library.refreshCatalog()
        transport.clearLog()
        guard case .failed(let failure, 1) = await library.update("monaco") else {
            Issue.record("\(library.state(of: "monaco"))")
            return
        }
        #expect(failure.reason == .notEnoughSpace && (failure.bytesNeeded ?? 0) > 1000)
        #expect(transport.log.isEmpty)
    }

    @Test func cancelGoesBackToTheStateBefore() async throws {
        let (library, transport, fixture) = try await Self.libraryWithV1()
        try await library.refreshCatalog()
        transport.add(".delta", .hang)
        let update = Task { await library.update("monaco") }
        while !transport.log.contains(where: { $0.path.hasSuffix(".delta") }) && !transport.hanging {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        await library.cancel("monaco")
        let state = await update.value
        #expect(state == .onDiskOutOfDate(version: 1, update: 2, updateBytes: fixture.updateBytes))
        #expect(Self.cityFolder(library) == ["current.json", "v1"])
    }

    @Test func removeAndInstalled() async throws {
        let (library, _, _) = try await Self.libraryWithV1()
        #expect(library.installed().map(\.city) == ["monaco"])
        try await library.remove("monaco")
        #expect(library.installed().isEmpty)
        #expect(library.state(of: "monaco") == .notDownloaded)
        await #expect(throws: PackError.self) { try await library.open("monaco") }
    }

    @Test func theNextStartRemovesWhatAKilledRunLeft() async throws {
        let (library, _, _) = try await Self.libraryWithV1()
        let root = library.configuration.storageRoot
        let city = root.appendingPathComponent("monaco")
        let fm = FileManager.default
        try fm.createDirectory(at: city.appendingPathComponent(".staging-1-abc"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: city.appendingPathComponent(".staging-1-abc/update.delta"))
        try fm.copyItem(at: city.appendingPathComponent("v1"), to: city.appendingPathComponent("v2"))
        try Data("{}".utf8).write(to: city.appendingPathComponent(".current.json.tmp-9-x"))
        let next = try PackLibrary(configuration: library.configuration)
        #expect(next.cleanup.removed == ["monaco/.current.json.tmp-9-x", "monaco/.staging-1-abc", "monaco/v2"])
        #expect(Self.cityFolder(next) == ["current.json", "v1"])
        #expect(await LibraryFixture.opens(next) == 1)
    }

    @Test func aKeptPreviousVersionGoesOnceTheCurrentOneOpens() async throws {
        let (library, _, _) = try await Self.libraryWithV1()
        let city = library.configuration.storageRoot.appendingPathComponent("monaco")
        let aside = try TestPaths.temporaryDirectory("v1-aside").appendingPathComponent("v1")
        try FileManager.default.copyItem(at: city.appendingPathComponent("v1"), to: aside)
        #expect(await library.update("monaco") == .onDisk(version: 2))
        // As if killed right after the switch: the pointer still names version 1 as the previous one.
        let v2 = try Data(contentsOf: city.appendingPathComponent("v2/pack.sqlite"))
        try FileManager.default.copyItem(at: aside, to: city.appendingPathComponent("v1"))
        try Data(#"{"current":2,"previous":1}"#.utf8).write(to: city.appendingPathComponent("current.json"))
        let next = try PackLibrary(configuration: library.configuration)
        #expect(next.cleanup.removed.isEmpty)
        #expect(Self.cityFolder(next) == ["current.json", "v1", "v2"])
        #expect(await LibraryFixture.opens(next) == 2)
        #expect(Self.cityFolder(next) == ["current.json", "v2"])
        // And when the current one does not open, the previous one is used.
        try Data(#"{"current":2,"previous":1}"#.utf8).write(to: city.appendingPathComponent("current.json"))
        try FileManager.default.copyItem(at: aside, to: city.appendingPathComponent("v1"))
        var damaged = v2
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: city.appendingPathComponent("v2/pack.sqlite"))
        let third = try PackLibrary(configuration: library.configuration)
        #expect(third.state(of: "monaco").installedVersion == 2)
        let reader = try await third.open("monaco")
        #expect(reader.meta.dataVersion == 1)
        reader.close()
        #expect(Self.cityFolder(third) == ["current.json", "v1"])
        #expect(third.state(of: "monaco").installedVersion == 1)
    }

    @Test func decompressNeverHarmsTheDestination() throws {
        let fixture = try LibraryFixture.get()
        let folder = try TestPaths.temporaryDirectory("decompress")
        let installed = folder.appendingPathComponent("installed.sqlite")
        let v1Pack = fixture.served.appendingPathComponent("monaco/\(fixture.v1.artifact.path)")
        try PackOpener.decompress(v1Pack, to: installed, verifying: fixture.v1)
        let before = try Data(contentsOf: installed)
        let reader = try PackReader.open(installed)
        defer { reader.close() }
        // A damaged download: refused, the installed file untouched, no temporary file left.
        var bad = try Data(contentsOf: fixture.served.appendingPathComponent("monaco/\(fixture.v2.artifact.path)"))
        bad[bad.count / 2] ^= 0xFF
        let badURL = folder.appendingPathComponent("bad.citypack.gz")
        try bad.write(to: badURL)
        #expect(throws: PackError.self) { try PackOpener.decompress(badURL, to: installed, verifying: fixture.v2) }
        #expect(try Data(contentsOf: installed) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["bad.citypack.gz", "installed.sqlite"])
        // A good one replaces it by rename: the reader open on the old file keeps answering.
        try PackOpener.decompress(
            fixture.served.appendingPathComponent("monaco/\(fixture.v2.artifact.path)"), to: installed, verifying: fixture.v2)
        #expect(try FileDigest(path: installed.path).sha256 == fixture.v2.artifact.uncompressedSha256)
        #expect(try !reader.search("pharmacie", limit: 3).isEmpty)
        #expect(reader.meta.dataVersion == 1)
    }
}
