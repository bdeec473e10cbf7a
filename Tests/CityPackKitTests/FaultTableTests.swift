import CityPackKit
import CityPackTestSupport
import Foundation
import Testing

/// The fault table through URLSession against Debian's nginx and the fault proxy (issue 30): for each fault the
/// final state and reason, and that the installed version still opens with the server stopped.
@Suite(.serialized) struct FaultTableTests {
    struct Case {
        var name: String
        /// Proxy rules to set before the update.
        var rules: [[String: Any]]
        /// The expected final state's kind and reason.
        var kind: String
        var reason: PackFailure.Reason?
        /// Fetch the full pack instead of the delta.
        var full = false
        /// Stop nginx before the update (after a successful catalog refresh).
        var stopServer = false
        /// Update to v2 first, then refresh the catalog with the rules set.
        var refreshOnly = false
    }

    static func cases(_ fixture: LibraryFixture) -> [Case] {
        // Faults inside the delta, at offsets taken from its size (a smaller pack makes a smaller delta): a quarter,
        // a half and three quarters in.
        let deltaBytes = fixture.delta.bytes
        let quarter = max(1, deltaBytes / 4)
        let half = max(1, deltaBytes / 2)
        let threeQuarters = max(1, deltaBytes * 3 / 4)
        return [
            Case(name: "cut", rules: [["path": ".delta", "fault": "cut", "at": half, "times": 1]], kind: "on_disk"),
            Case(name: "cut-full-pack", rules: [["path": ".citypack.gz", "fault": "cut", "at": 20000, "times": 1]], kind: "on_disk", full: true),
            // Cut, then the file answers 200 under another validator (a re-upload, a CDN edge with another ETag):
            // the transport must start the file again, not append the whole new body to the kept bytes.
            Case(
                name: "cut-then-changed-validator",
                rules: [
                    ["path": ".delta", "fault": "cut", "at": half, "times": 1],
                    ["path": ".delta", "fault": "replace", "file": fixture.served.appendingPathComponent(fixture.delta.path).path],
                ],
                kind: "on_disk"),
            Case(name: "truncate", rules: [["path": ".delta", "fault": "truncate", "at": threeQuarters]], kind: "failed", reason: .damaged),
            Case(name: "flip", rules: [["path": ".delta", "fault": "flip", "at": half]], kind: "failed", reason: .damaged),
            Case(name: "stall", rules: [["path": ".delta", "fault": "stall", "at": quarter]], kind: "failed", reason: .timeout),
            Case(name: "content-encoding", rules: [["path": ".delta", "fault": "encoding"]], kind: "failed", reason: .damaged),
            Case(name: "content-encoding-full-pack", rules: [["path": ".citypack.gz", "fault": "encoding"]], kind: "failed", reason: .damaged, full: true),
            Case(
                name: "older-signed-catalog",
                rules: [["path": "/catalog.json", "fault": "replace", "file": fixture.served.appendingPathComponent("catalog-v1.json").path]],
                kind: "failed", reason: .olderRelease, refreshOnly: true),
            Case(name: "404", rules: [["path": ".delta", "fault": "status", "status": 404]], kind: "failed", reason: .serverError),
            Case(name: "500", rules: [["path": ".delta", "fault": "status", "status": 500]], kind: "failed", reason: .serverError),
            Case(name: "server-stopped", rules: [], kind: "failed", reason: .offline, stopServer: true),
        ]
    }

    static func configuration(_ fixture: LibraryFixture, proxy: URL, root: URL, catalog: String = "catalog.json") -> PackLibrary.Configuration {
        var configuration = PackLibrary.Configuration(
            catalogURL: proxy.appendingPathComponent(catalog), storageRoot: root,
            trust: PackTrust(publicKeys: [fixture.publicKey]), transport: URLSessionTransport(stallTimeout: 0.5))
        configuration.maxRetries = 2
        configuration.retryDelay = 0.05
        return configuration
    }

    @Test(.enabled(if: FaultServer.available, FaultServer.reason))
    func everyFaultEndsInItsStateAndTheInstalledVersionOpens() async throws {
        let fixture = try LibraryFixture.get()
        let server = try FaultServer(root: fixture.served)
        defer { server.stop() }
        // Version 1 installed through the real server, copied for each case.
        let template = try TestPaths.temporaryDirectory("fault-template")
        let installer = try PackLibrary(configuration: Self.configuration(fixture, proxy: server.proxy, root: template, catalog: "catalog-v1.json"))
        #expect(await installer.download("monaco") == .onDisk(version: 1))

        func freshStore() throws -> URL {
            let root = try TestPaths.temporaryDirectory("fault-store")
            try FileManager.default.removeItem(at: root)
            try FileManager.default.copyItem(at: template, to: root)
            return root
        }

        // The clean update, delta and full: the bytes each downloads.
        for full in [false, true] {
            try await server.reset()
            var configuration = Self.configuration(fixture, proxy: server.proxy, root: try freshStore())
            configuration.useDeltas = !full
            let library = try PackLibrary(configuration: configuration)
            try await library.refreshCatalog()
            #expect(await library.update("monaco") == .onDisk(version: 2))
            let log = try await server.log()
            let file = log.first { ($0["path"] as? String ?? "").hasSuffix(full ? ".citypack.gz" : ".delta") }
            let manifest = log.first { ($0["path"] as? String ?? "").hasSuffix(".manifest.json") }
            print("BYTES swift one-POI update (\(full ? "full pack" : "delta")): \(file?["bytes"] ?? "?") bytes + manifest \(manifest?["bytes"] ?? "?") bytes")
            // A second refresh is conditional: the server's own ETag, answered 304.
            try await server.control("DELETE", "/__log")
            try await library.refreshCatalog()
            let second = try await server.log().first
            #expect(second?["ifNoneMatch"] as? String != nil && second?["status"] as? Int == 304, "\(String(describing: second))")
        }

        for c in Self.cases(fixture) {
            try await server.reset()
            let root = try freshStore()
            var configuration = Self.configuration(fixture, proxy: server.proxy, root: root)
            configuration.useDeltas = !c.full
            let library = try PackLibrary(configuration: configuration)
            try await library.refreshCatalog()
            var installedBefore = 1
            if c.refreshOnly {
                #expect(await library.update("monaco") == .onDisk(version: 2))
                installedBefore = 2
            }
            try await server.setFaults(c.rules)
            if c.stopServer { try await server.control("POST", "/__stop-upstream") }
            let state: PackState
            if c.refreshOnly {
                do throws(PackFailure) {
                    try await library.refreshCatalog()
                    state = library.state(of: "monaco")
                } catch {
                    state = library.state(of: "monaco")
                }
            } else {
                state = await library.update("monaco")
            }
            var reason: PackFailure?
            if case .failed(let failure, let installed) = state {
                reason = failure
                #expect(installed == installedBefore, "\(c.name): \(state)")
            }
            #expect(state.kind == c.kind, "\(c.name): \(state)")
            #expect(reason?.reason == c.reason, "\(c.name): \(state)")
            let log = try await server.log()
            switch c.name {
            case "cut", "cut-full-pack":
                let resumed = log.filter { ($0["path"] as? String ?? "").hasSuffix(c.full ? ".citypack.gz" : ".delta") }
                #expect(resumed.count == 2, "\(c.name): \(resumed)")
                #expect(resumed.last?["range"] as? String == "bytes=\(c.full ? 20000 : max(1, fixture.delta.bytes / 2))-", "\(c.name): \(resumed)")
                #expect((resumed.last?["ifRange"] as? String)?.hasPrefix("\"") == true && resumed.last?["status"] as? Int == 206)
            case "cut-then-changed-validator":
                let tries = log.filter { ($0["path"] as? String ?? "").hasSuffix(".delta") }
                #expect(tries.count == 2 && tries.last?["range"] as? String == "bytes=\(max(1, fixture.delta.bytes / 2))-" && tries.last?["status"] as? Int == 200, "\(tries)")
            case "content-encoding", "content-encoding-full-pack":
                #expect(reason?.message.contains("Content-Encoding: gzip") == true, "\(reason?.message ?? "")")
            case "404", "500":
                #expect(reason?.status == Int(c.name))
            default: break
            }
            // With the server stopped, the installed version opens and answers.
            try await server.control("POST", "/__stop-upstream")
            let opened = await LibraryFixture.opens(library)
            let expected = c.kind == "on_disk" ? 2 : installedBefore
            #expect(opened == expected, "\(c.name): opened \(String(describing: opened))")
            let folder = root.appendingPathComponent("monaco")
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            // A download the network failed keeps its partial folder (the next try goes on from it).
            let keptPartial = [PackFailure.Reason.offline, .timeout, .serverError].contains(reason?.reason ?? .damaged) && c.kind != "on_disk"
            #expect(entries == (keptPartial ? [".partial-v2"] : []) + ["current.json", "v\(expected)"], "\(c.name): \(entries)")
            print("FAULT swift \(c.name): state=\(state.kind) reason=\(reason?.reason.rawValue ?? "-") installed-opens=\(opened == expected ? "yes" : "no")"
                + (reason.map { " (\($0.message.prefix(150)))" } ?? ""))
        }
    }
}
